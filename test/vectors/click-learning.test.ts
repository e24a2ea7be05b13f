import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { familyProducts } from './catalog.js';
import { newId } from '../../shared/platform/ids.js';
import { clickOrder, MAX_CLICK_FACTOR } from '../../shared/recommend/index.js';

const { h } = await setupWithWorkers();
const deps = h.api.deps;
const a = await h.tenant('clicks a');
const b = await h.tenant('clicks b');
const products = familyProducts();
const res = await h.api.call('POST', '/v1/products/batch', { key: a.key, body: { upsert: products } });
if (res.status !== 200) throw new Error('load failed');
await eventually(async () => (await deps.repos.products.countUnindexed(a.id)) === 0, 20_000);
await deps
  .db('tenants')
  .where({ id: b.id })
  .update({ settings: JSON.stringify({ ranking: { click_learning: false } }) });

const search = async (key: string, q: string, perPage = 10) =>
  (await h.api.call('POST', '/v1/search', { key, body: { q, per_page: perPage, debug: true } })).body;

let crowd = 0;
/**
 * `n` first-page searches of `q` (as the search log stores them, with the page `shown` when
 * given), each followed by clicks at the given positions, by `n` shoppers no other call uses (a
 * session's repeats count once).
 */
async function shoppers(tenantId: string, q: string, n: number, clicks: (i: number) => Array<[string, number]>, shown?: string[]) {
  const searches = [];
  const events = [];
  crowd++;
  for (let i = 0; i < n; i++) {
    const id = newId('srch');
    const session = `c${crowd}-s${i}`;
    searches.push({
      id,
      tenant_id: tenantId,
      session,
      query: q,
      normalized: q,
      lang: 'en',
      filters: {},
      sort: 'relevance',
      total: 10,
      page: 1,
      took_ms: 1,
      zero_result: false,
      shown: shown ?? null,
      created_at: new Date(),
    });
    for (const [product, position] of clicks(i)) {
      events.push({
        id: newId('evt'),
        tenant_id: tenantId,
        client_event_id: null,
        type: 'search_click' as const,
        session,
        search_id: id,
        product_id: product,
        position,
        quantity: null,
        value: null,
        currency: null,
        occurred_at: new Date().toISOString(),
      });
    }
  }
  await deps.repos.searchLog.insertMany(searches);
  await deps.repos.events.insertMany(events);
}

t.test('the click order is bounded: a factor of at most 5 on the rank score', async (t) => {
  const ranked = Array.from({ length: 10 }, (_, i) => ({ id: `p${i}` }));
  t.same(
    clickOrder(ranked, new Map([['p9', 1]]))
      .map((x) => x.id)
      .indexOf('p9'),
    0,
    'a product every searcher clicks goes first',
  );
  t.equal(
    clickOrder(ranked, new Map([['p9', 0.05]]))
      .map((x) => x.id)
      .indexOf('p9'),
    9,
    'a rarely clicked one stays',
  );
  t.equal(
    clickOrder(ranked, new Map([['p9', 0.3]]))
      .map((x) => x.id)
      .indexOf('p9'),
    2,
    'a = 0.3: a factor of 1.66 over 1/(10 + rank), between ranks 2 and 3',
  );
  t.equal(MAX_CLICK_FACTOR, 5);
});

t.test('position-bias-corrected statistics, a bounded boost, never a non-matching product', async (t) => {
  const before = await search(a.key, 'laptop');
  const last = before.ids[before.ids.length - 1];
  t.ok(before.ids.length >= 5);
  // This search's own first page is logged with what it showed (and no click on it).
  await deps.searchLog.flush();
  // Shoppers pick the last laptop shown (a deep position counts more than its raw clicks), and a
  // coffee machine that never matches "laptop" gets clicks attributed to the same searches.
  await shoppers(a.id, 'laptop', 30, (i) => [[last, before.ids.length], ...(i % 2 ? [['coffee-0-0', 3] as [string, number]] : [])]);
  await shoppers(a.id, 'rare', 3, () => [['phones-0-0', 1]]);
  const n1 = await deps.repos.signals.recomputeClicks(a.id);
  const n2 = await deps.repos.signals.recomputeClicks(a.id);
  t.equal(n1, n2, 'a recompute from the same events gives the same rows');
  const stats = await deps.repos.signals.clickStats(a.id);
  t.notOk(
    stats.some((s) => s.query === 'rare'),
    'a query searched fewer than 10 times is left out',
  );
  const top = stats.find((s) => s.product_id === last)!;
  // 30 searches without a logged page, each clicking it at the last position (capped at 1 over
  // them), and the test's own logged page that showed it without a click (0 over that one).
  t.ok(
    Math.abs(top.attractiveness - 30 / 31) < 1e-9,
    `clicked at position ${before.ids.length} by every searcher of the unlogged pages, not on the logged one: ${top.attractiveness}`,
  );
  await deps.notices.publish('signals', a.id);
  const after = await eventually(async () => {
    const r = await search(a.key, 'laptop');
    return r.ids[0] === last ? r : null;
  });
  t.equal(after.ids[0], last, 'the product shoppers choose rises to the top');
  t.notOk(after.ids.includes('coffee-0-0'), 'a clicked product that does not match is never promoted');
  const step = after.debug.steps.find((s: { step: string }) => s.step === 'rerank');
  t.ok(step.clicked >= 1 && step.moved > 0, JSON.stringify(step));
  t.equal(after.total, before.total, 'the total is the lexical one');
});

t.test('the search log keeps the page shown; a product shown often and never clicked has examinations', async (t) => {
  const r = await search(a.key, 'usb cable', 5);
  await deps.searchLog.flush();
  const row = await deps.db('search_log').where({ id: r.search_id }).first('shown', 'page');
  t.same(row.shown, r.ids, 'the page shown, in order');
  const page = (await search(a.key, 'hdmi', 5)).ids as string[];
  await deps.searchLog.flush();
  await shoppers(a.id, 'hdmi', 20, () => [[page[0], 1]], page);
  await deps.repos.signals.recomputeClicks(a.id);
  const stats = (await deps.repos.signals.clickStats(a.id)).filter((x) => x.query === 'hdmi');
  const first = stats.find((x) => x.product_id === page[0])!;
  t.equal(Number(first.clicks), 20);
  // 20 simulated searches and the test's own (logged with its page).
  t.ok(Math.abs(first.examinations - 21) < 1e-9, `position 1: examined in every search: ${first.examinations}`);
  const second = stats.find((x) => x.product_id === page[1]);
  t.ok(second && Number(second.clicks) === 0 && Math.abs(second.examinations - 10.5) < 1e-9, `position 2, never clicked: ${JSON.stringify(second)}`);
  t.notOk(
    stats.some((x) => x.product_id === page[2]),
    'fewer than 10 examinations (position 3: 7) and no click: no row',
  );
});

t.test('attractiveness per examination: a product shown in only some of the searches', async (t) => {
  const page = ['laptops-0-0', 'laptops-0-1', 'laptops-0-2'];
  const later = ['laptops-1-0', 'laptops-0-0', 'laptops-0-1'];
  // 20 searches showed `page`; 20 more (after a reordering) showed laptops-1-0 first, and it was clicked each time.
  await shoppers(a.id, 'notebook', 20, () => [['laptops-0-0', 1]], page);
  await shoppers(a.id, 'notebook', 20, () => [['laptops-1-0', 1]], later);
  await deps.repos.signals.recomputeClicks(a.id);
  const stats = (await deps.repos.signals.clickStats(a.id)).filter((x) => x.query === 'notebook');
  const promoted = stats.find((x) => x.product_id === 'laptops-1-0')!;
  t.equal(promoted.attractiveness, 1, 'clicked every time it was shown: 1 (per search it would be 0.5)');
  const first = stats.find((x) => x.product_id === 'laptops-0-0')!;
  t.ok(Math.abs(first.examinations - 30) < 1e-9 && Math.abs(first.attractiveness - 20 / 30) < 1e-9, JSON.stringify(first));
});

t.test('products shoppers pass over go below the matches they have not seen, never for a non-matching product', async (t) => {
  const before = await search(a.key, 'cable', 5);
  t.equal(before.ids.length, 5);
  t.ok(before.total > 5, `more matches than the page: ${before.total}`);
  const chosen = before.ids[1];
  // Every searcher clicks the second product (and a coffee machine attributed to the searches);
  // the other four are examined 60 x 1/p times and never clicked.
  await shoppers(
    a.id,
    'cable',
    60,
    () => [
      [chosen, 2],
      ['coffee-0-0', 3],
    ],
    before.ids,
  );
  await deps.repos.signals.recomputeClicks(a.id);
  await deps.notices.publish('signals', a.id);
  const after = await eventually(async () => {
    const r = await search(a.key, 'cable', 5);
    return r.ids[0] === chosen ? r : null;
  });
  t.equal(after.ids[0], chosen, 'the chosen product first');
  const unseen = before.total - 5;
  t.ok(unseen >= 1 && unseen < 4, `fewer unseen matches than passed-over products: ${unseen}`);
  t.same(
    after.ids.slice(1, 1 + unseen).filter((id: string) => before.ids.includes(id)),
    [],
    `the matches not yet shown come next: ${before.ids} -> ${after.ids}`,
  );
  t.same(
    after.ids.slice(1 + unseen),
    before.ids.filter((id: string) => id !== chosen).slice(0, 4 - unseen),
    'the passed-over products after them, in their order (they stay in the results)',
  );
  t.ok(
    after.ids.every((id: string) => id.startsWith('cables-')),
    `only matches of "cable" fill their places: ${after.ids}`,
  );
  const step = after.debug.steps.find((s: { step: string }) => s.step === 'rerank');
  t.ok(step.promoted === unseen && step.passed === 4 - unseen, JSON.stringify(step));
  t.equal(after.total, before.total, 'nothing is removed from the results');
  await deps
    .db('tenants')
    .where({ id: a.id })
    .update({ settings: JSON.stringify({ ranking: { click_learning: false } }) });
  await deps.notices.publish('synonyms', a.id);
  const off = await eventually(async () => {
    const r = await search(a.key, 'cable', 5);
    return r.ids[0] === before.ids[0] ? r : null;
  });
  t.same(off.ids, before.ids, 'click learning off: the order is the lexical one again');
  await deps
    .db('tenants')
    .where({ id: a.id })
    .update({ settings: JSON.stringify({}) });
  await deps.notices.publish('synonyms', a.id);
});

t.test('a store can turn it off', async (t) => {
  const load = await h.api.call('POST', '/v1/products/batch', { key: b.key, body: { upsert: products } });
  t.equal(load.status, 200);
  await eventually(async () => (await deps.repos.products.countUnindexed(b.id)) === 0, 20_000);
  const before = await search(b.key, 'laptop');
  const last = before.ids[before.ids.length - 1];
  await shoppers(b.id, 'laptop', 30, () => [[last, before.ids.length]]);
  await deps.repos.signals.recomputeClicks(b.id);
  await deps.notices.publish('signals', b.id);
  const after = await search(b.key, 'laptop');
  t.same(after.ids, before.ids, 'order unchanged');
  t.equal(after.debug.steps.find((s: { step: string }) => s.step === 'rerank').clicked, 0);
  t.ok(
    (await deps.repos.signals.clickStats(b.id)).every((s) => s.query === 'laptop'),
    'statistics stay per store',
  );
  t.notOk(
    (await deps.repos.signals.clickStats(a.id)).some((s) => s.product_id === last && s.searches === 60),
    'never mixed with another store',
  );
});
