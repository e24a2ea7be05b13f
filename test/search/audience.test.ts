import t from 'tap';
import { queryAudience } from '../../shared/text/audience.js';
import { normalizeText } from '../../shared/text/normalize.js';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts, searchIds } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';

t.test('the audience a query names, and the other gender', async (t) => {
  const a = queryAudience(['mens', 'running', 'shoes']);
  t.ok(a?.own.includes('men') && a.own.includes('boys'), 'men and boys are one side');
  t.ok(a?.other.includes('womens') && a.other.includes('girls') && a.other.includes('ladies'));
  t.same(queryAudience(['girls', 'dress'])?.other.includes('boys'), true);
  t.equal(queryAudience(['running', 'shoes']), null, 'no audience');
  t.equal(queryAudience(['mens', 'womens', 'watch']), null, 'both: nothing is the other');
  t.equal(queryAudience(['kids', 'shoes']), null, 'kids are no gender');
  const ar = (w: string) => normalizeText(w);
  t.ok(queryAudience([ar('حذاء'), ar('رجالي')])?.other.includes(ar('نسائي')), 'Arabic, normalized as queries are');
});

// Made-up products: one men's running shoe, women's running shoes, men's shoes of other kinds.
const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const p = (id: string, name: string) => ({ id, name: { en: name }, price: 10, currency: 'USD' });
const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, [
  p('m1', 'Zeno Flow Mens Running Shoes'),
  ...Array.from({ length: 6 }, (_, i) => p(`w${i}`, `Kora Pace ${i + 1} Womens Running Shoes`)),
  p('m2', "Vortex Men's Leather Walking Shoes"),
  p('m3', "Lumo Men's Canvas Court Shoes"),
  p('u1', 'Nimbus Trail Mens and Womens Running Shoes'),
  ...Array.from({ length: 30 }, (_, i) => p(`o${i}`, `Nimbus Garden Shoes ${i + 1}`)),
  ...Array.from({ length: 30 }, (_, i) => p(`x${i}`, `Nimbus Mens Socks ${i + 1}`)),
]);
const ids = searchIds(h, key);

t.test("matching some of the words, a product for the other gender comes after the query's own", async (t) => {
  await waitFor(async () => ((await h.api.deps.repos.vocabulary.terms(tenantId)).terms.has('womens') ? true : null), 20_000, 'vocabulary built');
  const got = await ids('mens running shoes');
  t.same([...got.slice(0, 2)].sort(), ['m1', 'u1'], "every word: the men's running shoe, and one for both");
  const men = ['m2', 'm3'].map((id) => got.indexOf(id));
  const women = got.filter((id) => id.startsWith('w')).map((id) => got.indexOf(id));
  t.ok(men.every((i) => i >= 0) && women.length === 6, `${got.join()}`);
  t.ok(Math.max(...men) < Math.min(...women), "the men's shoes before the women's running shoes");
  const womens = await ids('womens running shoes');
  t.same(womens.slice(0, 7).sort(), ['u1', 'w0', 'w1', 'w2', 'w3', 'w4', 'w5'], 'the other way round: every word');
});
