import t from 'tap';
import { setup } from '../helpers/harness.js';

// GET /v1/translate/review pages by (product id, item id). After an item of a product whose id is
// long non-ASCII text (128 Arabic letters), next_cursor passed the 200 characters a cursor may have
// (spec 8) and was refused when sent back: the queue could not be walked past that product.
const h = await setup();
t.teardown(() => h.close());
const { id: tenantId, key } = await h.tenant();
const db = h.api.deps.db;

const products = ['a-plain-id', 'ب'.repeat(128), 'ب'.repeat(127) + 'ت', '\u4e00'.repeat(128), '"'.repeat(128)];
const items = products.flatMap((productId, p) =>
  ['name', 'description'].map((field, f) => ({
    tenant_id: tenantId,
    id: `tr_${p}_${f}`,
    product_id: productId,
    field,
    source_locale: 'en',
    target_locale: 'ar',
    source_text: 'Chair',
    source_hash: 'h',
    translated_text: 'كرسي',
    status: 'review',
  })),
);
await db('translation_items').insert(items);
const order = items.map((i) => [i.product_id, i.id]).sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : 1));

t.test('the review queue pages through every item with the cursors it returns', async (t) => {
  for (const limit of [1, 3]) {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 20; pages++) {
      const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const page = await h.api.call('GET', `/v1/translate/review?limit=${limit}${q}`, { key });
      t.equal(page.status, 200, `limit ${limit}: page ${pages + 1} answered`);
      if (page.status !== 200) break;
      seen.push(...page.body.data.map((i: { id: string }) => i.id));
      cursor = page.body.next_cursor;
      if (!cursor) break;
      t.ok(cursor.length <= 200, `cursor of ${cursor.length} characters fits the 200 a client may send back`);
    }
    t.same(
      seen,
      order.map(([, id]) => id),
      `limit ${limit}: every item once, in (product, id) order`,
    );
  }
});

t.test('the item a long cursor names is gone: the next page skips no item', async (t) => {
  const at = order.findIndex(([p, id]) => p === 'ب'.repeat(128) && id.endsWith('_0'));
  const first = await h.api.call('GET', `/v1/translate/review?limit=${at + 1}`, { key });
  t.equal(first.body.data.at(-1).id, order[at][1], 'the page ends at an item of the long product id');
  await db('translation_items').where({ tenant_id: tenantId, id: order[at][1] }).delete();
  const next = await h.api.call('GET', `/v1/translate/review?limit=50&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key });
  t.equal(next.status, 200);
  const listed = new Set(next.body.data.map((i: { id: string }) => i.id));
  for (const [, id] of order.slice(at + 1)) t.ok(listed.has(id), `${id} is listed after the cursor`);
});
