import t from 'tap';
import { setup } from '../helpers/harness.js';

// GET /v1/products returned a next_cursor of 358 characters after a product whose id is 128 Arabic
// letters (base64 of JSON of UTF-8), and refused it when passed back (cursor max 200, spec 8):
// the list could not be walked past such a product. Ids up to 128 characters of any text must page.
const h = await setup();
t.teardown(() => h.close());
const { key } = await h.tenant();

const ids = [
  'a-plain-id',
  'ب'.repeat(128),
  'ب'.repeat(127) + 'ت',
  'ب'.repeat(100) + 'ج',
  '\u4e00'.repeat(128),
  '"'.repeat(128),
  '😀'.repeat(64),
  'z'.repeat(128),
];
const product = (id: string) => ({ id, name: { en: 'P' }, price: 1, currency: 'USD' });
const stored = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: ids.map(product) } });
t.equal(stored.status, 200);
t.same(stored.body.errors, [], 'every id is a valid product id');

async function walk(limit: number, beforeEach?: (cursor: string) => Promise<void>) {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 20; pages++) {
    if (cursor && beforeEach) await beforeEach(cursor);
    const q: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
    const page = await h.api.call('GET', `/v1/products?limit=${limit}${q}`, { key });
    if (page.status !== 200) return { seen, failed: page.body };
    seen.push(...page.body.data.map((p: { id: string }) => p.id));
    cursor = page.body.next_cursor;
    if (!cursor) break;
    t.ok(cursor.length <= 200, `cursor of ${cursor.length} characters fits the 200 a client may send back`);
  }
  return { seen, failed: null };
}

t.test('every page of one product follows the last; each product once, in id order', async (t) => {
  for (const limit of [1, 2]) {
    const { seen, failed } = await walk(limit);
    t.same(failed, null, `limit ${limit}: no page refused`);
    t.same(seen, [...ids].sort(), `limit ${limit}: all products once, in order`);
  }
});

t.test('a long id deleted between pages: the next page skips no product', async (t) => {
  // The page ends at the id whose prefix two later ids share.
  const last = 'ب'.repeat(128);
  const first = await h.api.call('GET', `/v1/products?limit=${[...ids].sort().indexOf(last) + 1}`, { key });
  t.equal(first.body.data.at(-1).id, last, 'the page ends at the long id');
  await h.api.call('DELETE', `/v1/products/${encodeURIComponent(last)}`, { key });
  const next = await h.api.call('GET', `/v1/products?limit=10&cursor=${encodeURIComponent(first.body.next_cursor)}`, { key });
  t.equal(next.status, 200);
  const rest = [...ids].sort().filter((id) => id !== last && !first.body.data.some((p: { id: string }) => p.id === id));
  for (const id of rest)
    t.ok(
      next.body.data.some((p: { id: string }) => p.id === id),
      'a product after the cursor is listed',
    );
});
