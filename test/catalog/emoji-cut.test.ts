import t from 'tap';
import { eventually, setupWithWorkers } from '../helpers/workers.js';
import { searchIds } from '../helpers/catalog.js';
import { buildSearchDoc } from '../../shared/catalog/search-doc.js';
import { toStored } from '../../shared/catalog/canonical.js';
import { clipChars } from '../../shared/text/valid-text.js';

// The search document keeps the description's first 400 characters as the card's snippet (and 4,000 for
// matching), and an AI rewrite's text its first 256. Cut by UTF-16 units, an emoji across the cut left half a
// surrogate pair: Postgres jsonb refuses it, so the whole index batch holding that product failed.
const { h } = await setupWithWorkers();
const emojiAt = (n: number) => `${'a'.repeat(n - 1)}😀 tail`;

t.test('clipChars never splits a surrogate pair', async (t) => {
  t.equal(clipChars('abc', 5), 'abc');
  t.equal(clipChars('ab😀c', 3), 'ab', 'the emoji across the cut is left out whole');
  t.equal(clipChars('ab😀c', 4), 'ab😀');
  t.equal(clipChars('قميص', 2), 'قم');
  t.ok(clipChars(emojiAt(400), 400).isWellFormed());
});

t.test("a description with an emoji across the snippet's cut is well-formed in the search document", async (t) => {
  const doc = (description: string) =>
    buildSearchDoc(toStored({ id: 'p', name: { en: 'Lamp' }, price: 1, currency: 'USD', description: { en: description } }), new Map(), new Date(0));
  t.ok(doc(emojiAt(400)).description!.en.isWellFormed(), 'the snippet');
  t.ok(doc(emojiAt(4000)).descriptionNorm.isWellFormed(), 'the matched text');
});

t.test('such a product is indexed and found, with the products of its batch', async (t) => {
  const tenant = await h.tenant();
  const upsert = [
    { id: 'lamp', name: { en: 'Desk lamp' }, price: '10.00', currency: 'USD', description: { en: emojiAt(400) } },
    { id: 'chair', name: { en: 'Office chair' }, price: '20.00', currency: 'USD' },
  ];
  t.equal((await h.api.call('POST', '/v1/products/batch', { key: tenant.key, body: { upsert } })).status, 200);
  await eventually(async () => (await h.api.deps.repos.products.countUnindexed(tenant.id)) === 0, 60_000);
  const search = searchIds(h, tenant.key);
  t.same(await search('lamp'), ['lamp']);
  t.same(await search('chair'), ['chair']);
});
