import t from 'tap';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { mapFlipkart, readJsonl, type ProductIn } from '../../scripts/catalog/mappers.js';

const FILE = join(process.env.SHARED_DATA_DIR ?? '../shared/data', 'flipkart-products/products.jsonl.gz');
if (!existsSync(FILE)) {
  t.pass(`skipped: ${FILE} not found`);
} else {
  /**
   * A slice of the demo catalog read through its mapper at test time (nothing committed): every
   * 16th product, and every product of the kinds these queries are about (dresses, trousers, the
   * brands RED and Slim, lip balms), so the slice has what the full catalog has for them.
   */
  const products: ProductIn[] = [];
  let i = 0;
  for await (const raw of readJsonl(FILE)) {
    const r = raw as Record<string, unknown>;
    const name = String(r.name ?? '').toLowerCase();
    const brand = String(r.brand ?? '').toLowerCase();
    const wanted = i++ % 16 === 0 || /\b(dress|dresses|trousers|lip balm)\b/.test(name) || brand === 'red' || brand === 'slim';
    const p = wanted ? mapFlipkart(r) : null;
    if (p) products.push(p);
  }
  const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '300' });
  const { id: tenantId, key } = await h.tenant();
  await loadProducts(h, key, tenantId, products);
  const search = async (q: string) => (await h.api.call('POST', '/v1/search', { key, body: { q, debug: true } })).body;
  const step = (body: { debug: { steps: Array<Record<string, any>> } }, name: string) => body.debug.steps.find((s) => s.step === name)!;
  const nameOf = (hit: { product: { name: Record<string, string> } }) => hit.product.name.en.toLowerCase();

  t.test('"red dress": red is a colour word, not the brand RED', async (t) => {
    t.ok(products.filter((p) => p.brand?.toLowerCase() === 'red').length > 50, 'the slice has the brand RED (written Red, RED, red)');
    const res = await search('red dress');
    t.ok(res.total > 0, `${res.total} results`);
    t.notOk('brand' in res.query.filters, 'no brand filter');
    t.match(step(res, 'rules').fired, [{ rule: 'colour_not_brand', text: 'red' }]);
    t.ok(
      res.hits.slice(0, 5).every((h: { product: { name: Record<string, string> } }) => /dress/.test(nameOf(h))),
      'dresses first',
    );
    const branded = await search('brand red bra');
    t.same(
      branded.query.filters.brand.map((b: string) => b.toLowerCase()),
      ['red'],
      'named unmistakably, it is the brand',
    );
    t.ok(branded.total > 0 && branded.hits.every((h: { product: { brand: string } }) => h.product.brand.toLowerCase() === 'red'));
  });

  t.test('a parsed brand that empties the results is dropped when the words alone find products', async (t) => {
    t.equal(products.filter((p) => p.brand === 'Slim' && /trousers/i.test(p.name.en)).length, 0, 'the brand Slim sells no trousers');
    const res = await search('slim trousers');
    t.ok(res.total > 0, `${res.total} results`);
    t.same(step(res, 'intent-check').dropped, [{ rule: 'brand', text: 'slim' }]);
    t.notOk('brand' in res.query.filters);
    t.ok(
      res.hits.slice(0, 5).every((h: { product: { name: Record<string, string> } }) => /slim/.test(nameOf(h)) && /trousers/.test(nameOf(h))),
      'slim-fit trousers',
    );
    const kept = await search('slim shirt');
    t.same(kept.query.filters.brand, ['Slim'], 'a brand intent that finds products stays');
    t.same(step(kept, 'intent-check').dropped, []);
  });

  t.test('"cheap dress": cheap is an intent word, never corrected into "chap"', async (t) => {
    t.ok(
      products.some((p) => /chap ice/i.test(p.name.en)),
      'the slice has the "Chap Ice" lip balm',
    );
    const res = await search('cheap dress');
    t.equal(res.did_you_mean, null, 'no "chap" did-you-mean');
    t.same(step(res, 'plan').corrections, []);
    t.same(step(res, 'plan').intents_not_matched, ['cheap']);
    t.ok(res.total > 0);
    t.ok(
      res.hits.slice(0, 10).every((h: { product: { name: Record<string, string> } }) => /dress/.test(nameOf(h))),
      'dresses, no lip balm',
    );
    const typo = await search('dresss');
    t.equal(typo.did_you_mean, 'dress', 'ordinary words are still corrected');
  });
}
