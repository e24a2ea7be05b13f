import t from 'tap';
import { buildSearchDoc } from '../../shared/catalog/search-doc.js';
import { toStored } from '../../shared/catalog/canonical.js';

const doc = (attributes: Record<string, unknown>, description = 'Pocket computer') => buildSearchDoc(
  toStored({ id: 'p1', name: { en: 'HP iPAQ 114 Classic Handheld' }, price: 10, currency: 'USD', in_stock: true, visible: true, description: { en: description }, attributes }),
  new Map(), new Date(0),
);

t.test('short attribute values are attribute text; prose values weigh like the description', async (t) => {
  const d = doc({ colour: 'Black', interface: 'USB Type-C', audio_system: 'Integrated microphone, receiver, speaker and one 3.5 mm headphone jack', bluetooth: true });
  t.equal(d.attributeText, 'black usb type-c');
  t.equal(d.descriptionNorm, 'pocket computer integrated microphone, receiver, speaker and one 3.5 mm headphone jack');
  t.notMatch(d.attributeText, /speaker/, 'a word buried in prose does not rank like a product property');
});

t.test('list values count word by word, and the description still comes first when the text is cut', async (t) => {
  const d = doc({ apps: ['Google Maps', 'Google Play'], notes: Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ') }, 'Short description');
  t.equal(d.attributeText, 'google maps google play');
  t.ok(d.descriptionNorm.startsWith('short description w0 w1'));
  t.ok(d.descriptionNorm.length <= 4000);
});
