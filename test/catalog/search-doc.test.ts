import t from 'tap';
import { buildSearchDoc } from '../../shared/catalog/search-doc.js';
import { toStored } from '../../shared/catalog/canonical.js';

const PROSE = 'A pocket computer for the road with a bright colour screen and a long battery life';
const doc = (attributes: Record<string, unknown>, description = PROSE) =>
  buildSearchDoc(
    toStored({
      id: 'p1',
      name: { en: 'HP iPAQ 114 Classic Handheld' },
      price: 10,
      currency: 'USD',
      in_stock: true,
      visible: true,
      description: { en: description },
      attributes,
    }),
    new Map(),
    new Date(0),
  );

t.test('short attribute values are attribute text; prose values weigh like the description', async (t) => {
  const d = doc({
    colour: 'Black',
    interface: 'USB Type-C',
    audio_system: 'Integrated microphone, receiver, speaker and one 3.5 mm headphone jack',
    bluetooth: true,
  });
  t.equal(d.attributeText, 'black usb type-c');
  t.equal(
    d.descriptionNorm,
    'a pocket computer for the road with a bright colour screen and a long battery life integrated microphone, receiver, speaker and one 3.5 mm headphone jack',
  );
  t.notMatch(d.attributeText, /speaker/, 'a word buried in prose does not rank like a product property');
});

t.test('list values count word by word, and the description still comes first when the text is cut', async (t) => {
  const d = doc({ apps: ['Google Maps', 'Google Play'], notes: Array.from({ length: 1000 }, (_, i) => `w${i}`).join(' ') });
  t.equal(d.attributeText, 'google maps google play');
  t.ok(d.descriptionNorm.startsWith('a pocket computer for the road with a bright colour screen and a long battery life w0 w1'));
  t.ok(d.descriptionNorm.length <= 4000);
});

t.test('a description of a few words is a tagline: it ranks with the product properties, not as prose', async (t) => {
  const d = doc({ colour: 'Black' }, 'Desktop Board DX58SO');
  t.equal(d.attributeText, 'black desktop board dx58so');
  t.equal(d.descriptionNorm, '');
  t.equal(doc({ colour: 'Black' }).attributeText, 'black', 'a longer description stays prose');
});

t.test('a word repeated in long attribute values counts three times at most; the description is left whole', async (t) => {
  const d = doc(
    { google_applications: 'Gmail,Google Calendar,Google Chrome,Google Maps,Google Music,Google Now,Google Play,Google+' },
    'Google phone, Google apps, Google again, Google once more',
  );
  const count = (w: string) => d.descriptionNorm.split(/[^\p{L}\p{N}]+/u).filter((x) => x === w).length;
  t.equal(count('google'), 4 + 3, "the description's four, then three of the list's seven");
  t.match(d.descriptionNorm, /gmail,google calendar,google chrome,google maps, music, now, play/, 'the list keeps its first three and every other word');
});
