import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS, MAPPING } from '../search/fixtures.js';
import { waitFor } from '../helpers/wait.js';

const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();
await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: MAPPING } });
await loadProducts(h, key, tenantId, PRODUCTS);
const session = (await h.api.call('POST', '/v1/sessions', { key, body: {} })).body.token as string;

type Body = {
  ids: string[];
  total: number;
  hits: Array<{ id: string; pinned: boolean; score: number | null }>;
  facets: Array<{ name: string; buckets?: Array<{ value: string; count: number }> }>;
  banners: Array<Record<string, unknown>>;
  redirect: { url: string; rule_id: string } | null;
  debug: any;
};
const search = async (body: Record<string, unknown>, k = key): Promise<Body> => {
  const res = await h.api.call('POST', '/v1/search', { key: k, body });
  if (res.status !== 200) throw new Error(`search ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
};
const created: string[] = [];
async function rule(body: Record<string, unknown>): Promise<string> {
  const res = await h.api.call('POST', '/v1/rules', { key, body: { name: 'r', ...body } });
  if (res.status !== 201) throw new Error(`rule ${res.status}: ${JSON.stringify(res.body)}`);
  created.push(res.body.id);
  return res.body.id;
}
/** Each subtest starts without rules. */
async function clearRules() {
  while (created.length) await h.api.call('DELETE', `/v1/rules/${created.pop()}`, { key });
}
const is = (text: string) => ({ patterns: [{ match: 'is', text }] });
const brandCounts = (b: Body) => Object.fromEntries((b.facets.find((f) => f.name === 'brand')?.buckets ?? []).map((x) => [x.value, x.count]));
const sum = (o: Record<string, number>) => Object.values(o).reduce((a, n) => a + n, 0);

t.afterEach(clearRules);

t.test('each condition: is, starts_with, contains, Arabic, filter context, enabled, time window', async (t) => {
  await rule({ conditions: is('laptop'), consequences: { banners: [{ html: 'is' }] } });
  await rule({ conditions: { patterns: [{ match: 'starts_with', text: 'samsung' }] }, consequences: { banners: [{ html: 'starts' }] } });
  await rule({ conditions: { patterns: [{ match: 'contains', text: 'Cotton' }] }, consequences: { banners: [{ html: 'contains' }] } });
  await rule({ conditions: { patterns: [{ match: 'contains', text: 'فستان', lang: 'ar' }] }, consequences: { banners: [{ html: 'ar' }] } });
  await rule({ conditions: { filters: { category: ['laptops'] } }, consequences: { banners: [{ html: 'laptops page' }] } });
  await rule({ enabled: false, conditions: is('laptop'), consequences: { banners: [{ html: 'disabled' }] } });
  const soon = new Date(Date.now() + 6000).toISOString();
  await rule({ conditions: { ...is('headset'), active_from: soon }, consequences: { banners: [{ html: 'from soon' }] } });
  await rule({ conditions: { ...is('headset'), active_until: new Date(Date.now() - 1000).toISOString() }, consequences: { banners: [{ html: 'over' }] } });
  const html = async (body: Record<string, unknown>) => (await search(body)).banners.map((b) => b.html);
  t.same(await html({ q: 'laptop' }), ['is']);
  t.same(await html({ q: 'laptop lenovo' }), [], 'is: the whole query only');
  t.same(await html({ q: 'Samsung Galaxy' }), ['starts']);
  t.same(await html({ q: 'blue cotton shirt' }), ['contains']);
  t.same(await html({ q: 'فستان أحمر' }), ['ar']);
  t.same(await html({ q: '', filters: { category: ['laptops'] } }), ['laptops page'], 'a category page rule: no pattern, a filter context');
  t.same(await html({ q: 'laptop', filters: { category: ['laptops'] } }), ['is', 'laptops page'], 'the more specific rule first');
  t.same(await html({ q: 'headset' }), [], 'not yet active, and ended');
  // The cached answer of "headset" must not outlive the window's start (the key holds the rules' time epoch).
  await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(soon) - Date.now() + 50)));
  t.same(await html({ q: 'headset' }), ['from soon'], 'active once its window starts, cached answer or not');
  const dbg = await search({ q: 'headset', debug: true });
  const matched = dbg.debug.steps.find((x: { step: string }) => x.step === 'merchandise-rules').matched;
  t.same(
    matched.map((m: { applied: boolean; reason?: string }) => (m.applied ? 'applied' : m.reason)).sort(),
    ['applied', 'expired', 'filter_context_not_met'],
    'the trace lists each matching rule: the window rules and the category page rule (no pattern: it meets every query)',
  );
});

t.test('each consequence: redirect, banners, pins, hides, boosts, buries, filters to add', async (t) => {
  const r1 = await rule({ conditions: is('shoes'), consequences: { redirect: { url: 'https://shop.example/shoes' } } });
  const shoes = await search({ q: 'shoes' });
  t.same(shoes.redirect, { url: 'https://shop.example/shoes', rule_id: r1 });

  await rule({
    conditions: is('laptop'),
    consequences: { banners: [{ html: '<b>Sale</b>', image_url: 'https://i.example/a.png', link_url: 'https://shop.example/sale', position: 'inline' }] },
  });
  const lap = await search({ q: 'laptop' });
  t.match(lap.banners, [{ html: '<b>Sale</b>', image_url: 'https://i.example/a.png', link_url: 'https://shop.example/sale', position: 'inline' }]);
  t.match(lap.banners[0].id, /-1$/);

  const plain = await search({ q: 'smartphone' });
  t.same([...plain.ids].sort(), ['ph1', 'ph2']);
  await rule({ conditions: is('smartphone'), consequences: { pins: [{ product_id: 'h2', position: 1 }] } });
  const pinned = await search({ q: 'smartphone' });
  t.equal(pinned.ids[0], 'h2', 'a pinned product that does not match the words is shown first');
  t.same(
    pinned.hits.map((x) => x.pinned),
    [true, false, false],
  );
  t.equal(pinned.hits[0].score, null);
  t.equal(pinned.total, 3, 'the total counts it');
  await clearRules();

  await rule({ conditions: is('laptop'), consequences: { hides: ['lap1'] } });
  const hidden = await search({ q: 'laptop' });
  t.notOk(hidden.ids.includes('lap1'));
  t.equal(hidden.total, 2, 'hidden products leave the total');
  t.same(brandCounts(hidden), { HP: 1, Apple: 1 }, 'and the facet counts');
  await clearRules();

  const before = await search({ q: '', filters: { category: ['laptops'] } });
  const last = before.ids[before.ids.length - 1];
  await rule({
    conditions: { filters: { category: ['laptops'] } },
    consequences: { boosts: [{ filters: { brand: [before.hits.find((x) => x.id === last) ? brandOf(last) : 'HP'] }, weight: 10 }] },
  });
  const boosted = await search({ q: '', filters: { category: ['laptops'] }, config_override: { in_stock_first: false } }, session);
  t.equal(boosted.ids[0], last, 'a boost by filter moves the last product first');
  await clearRules();

  const first = (await search({ q: 'smartphone' })).ids[0];
  await rule({ conditions: is('smartphone'), consequences: { buries: [{ filters: { brand: [brandOf(first)] }, weight: 50 }] } });
  const buried = await search({ q: 'smartphone' });
  t.equal(buried.ids[buried.ids.length - 1], first, 'a bury by filter moves the first product last');
  await clearRules();

  await rule({ conditions: is('cotton'), consequences: { add_filters: { color: ['Blue'] } } });
  t.same((await search({ q: 'cotton' })).ids, ['ar2'], "the rule's filter applies");
  t.same((await search({ q: 'cotton', filters: { color: ['Red'] } })).ids, ['ar1'], "the shopper's own filter of that name wins");
});

const brandOf = (id: string) => (PRODUCTS.find((p) => p.id === id) as unknown as { brand: string }).brand;

t.test('pins with filters and pagination; facets and totals count what can be shown', async (t) => {
  // "laptop" matches lap1, lap2, lap3; pin two others at 1 and 3 and a third one the shopper's filter excludes.
  await rule({
    conditions: is('laptop'),
    consequences: {
      pins: [
        { product_id: 'h1', position: 1 },
        { product_id: 't1', position: 3 },
        { product_id: 'ar1', position: 2 },
      ],
    },
  });
  const all = await search({ q: 'laptop', filters: { category: ['lvl:electronics'] }, per_page: 10 });
  t.same(
    all.ids.filter((id) => ['h1', 't1', 'ar1'].includes(id)),
    ['h1', 't1'],
    'the dress is pinned but outside the category filter: not shown',
  );
  t.equal(all.ids[0], 'h1');
  t.equal(all.ids[2], 't1', 'position 3 holds although position 2 lost its pin');
  t.equal(all.total, 5);
  t.equal(sum(brandCounts(all)), all.total, 'brand counts add up to the total');
  t.equal(brandCounts(all).Sony, 1, "the pinned headset's brand is counted");
  const pages: string[] = [];
  for (let page = 1; page <= 3; page++) pages.push(...(await search({ q: 'laptop', filters: { category: ['lvl:electronics'] }, per_page: 2, page })).ids);
  t.same(pages, all.ids, 'pages of 2 give the same list: every product once, pins in place');
  const p2 = await search({ q: 'laptop', filters: { category: ['lvl:electronics'] }, per_page: 2, page: 2 });
  t.equal(p2.ids[0], 't1', 'a pin on page 2');
  t.equal(p2.total, 5);
  const inStock = await search({ q: 'laptop', filters: { in_stock: true }, per_page: 10 });
  t.equal(sum(brandCounts(inStock)), inStock.total, 'with a different filter the counts still match the total');
});

t.test("pins obey the rule parser's brand filter when it leaves nothing (intent-check retried without it and put it back)", async (t) => {
  // "zara laptop": the parser reads the brand Zara; no Zara laptop, and no product has both words, so the brand filter stays.
  await rule({
    conditions: { patterns: [{ match: 'contains', text: 'laptop' }] },
    consequences: {
      pins: [
        { product_id: 'h1', position: 1 },
        { product_id: 'ph1', position: 2 },
        { product_id: 'ar1', position: 3 },
      ],
    },
  });
  const res = await h.api.call('GET', '/v1/search?q=zara%20laptop&ai=off', { key });
  t.equal(res.status, 200);
  t.same(res.body.query.filters, { brand: ['Zara'] }, 'the parsed brand filter is kept');
  t.same(res.body.ids, ['ar1'], 'only the pinned Zara product passes the brand filter');
  t.equal(res.body.total, 1);
  const explicit = await h.api.call('GET', '/v1/search?q=laptop&filter[brand]=Zara&ai=off', { key });
  t.same(explicit.body.ids, res.body.ids, 'the same pins as the explicit brand filter shows');
});

t.test('a rule filter on an attribute the store no longer maps is skipped (in the trace), not an empty search', async (t) => {
  const mapping = (items: unknown[]) => h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items } });
  const storageFilter = async () => (await h.api.call('GET', '/v1/search?q=smartphone&filter[storage]=128GB', { key })).status;
  t.teardown(() => mapping(MAPPING));
  await mapping([...MAPPING, { raw_name: 'Storage', canonical_name: 'storage', facet: true }]);
  await waitFor(async () => (await storageFilter()) === 200, 10_000, 'storage mapped');
  await rule({
    conditions: { patterns: [{ match: 'contains', text: 'smartphone' }] },
    consequences: { add_filters: { storage: ['128GB'] }, boosts: [{ filters: { storage: ['256GB'] }, weight: 2 }] },
  });
  t.equal((await search({ q: 'smartphone', debug: true })).total, 0, 'while mapped the filter applies (no phone has that storage)');
  await mapping(MAPPING);
  await waitFor(async () => (await storageFilter()) === 400, 10_000, 'storage unmapped');
  const res = await search({ q: 'smartphone', debug: true });
  t.same([...res.ids].sort(), ['ph1', 'ph2'], 'the search is not emptied');
  t.equal(res.total, 2);
  const step = res.debug.steps.find((x: { step: string }) => x.step === 'merchandise-rules');
  t.same(step.add_filters, {}, 'the filter is not added');
  t.same(step.boosts, [], 'nor the boost');
  t.match(step.matched, [
    {
      applied: true,
      notes: ['boosts.0: storage is not a filter of this store; skipped', 'add_filters.storage: storage is not a filter of this store; skipped'],
    },
  ]);
});

t.test('a stored rule filter of the wrong shape (written before filters were checked) is skipped, not an empty search', async (t) => {
  t.teardown(clearRules);
  const id = await rule({ conditions: { patterns: [{ match: 'contains', text: 'smartphone' }] }, consequences: { add_filters: { in_stock: true } } });
  // What an older version stored: a price list and an in_stock word, which today's API refuses (400 invalid_filter).
  const consequences = { add_filters: { price: ['10'], in_stock: ['maybe'] }, boosts: [{ filters: { brand: { gte: 1 } }, weight: 2 }] };
  await h.api.deps
    .db('merch_rules')
    .where({ id })
    .update({ consequences: JSON.stringify({ ...(await h.api.deps.db('merch_rules').where({ id }).first()).consequences, ...consequences }) });
  await h.api.deps.notices.publish('rules', tenantId);
  const res = await waitFor(
    async () => {
      const b = await search({ q: 'smartphone', debug: true });
      const step = b.debug.steps.find((x: { step: string }) => x.step === 'merchandise-rules');
      return step.add_filters?.in_stock === true ? null : { b, step };
    },
    10_000,
    'the stored rule reloaded',
  );
  t.same([...res.b.ids].sort(), ['ph1', 'ph2'], 'the search is not emptied');
  t.same(res.step.add_filters, {}, 'no filter added');
  t.same(res.step.boosts, [], 'no boost');
  t.same(res.step.matched[0].notes, [
    'boosts.0: brand filters by values (a,b), not by a range; skipped',
    'add_filters.price: price filters by a range: filter[price][gte]=n and/or filter[price][lte]=n; skipped',
    'add_filters.in_stock: in_stock is true or false; skipped',
  ]);
});

t.test('conflicts in search: order, one redirect, pins by position, hides unioned, banners in order', async (t) => {
  const low = await rule({
    priority: 1,
    conditions: { patterns: [{ match: 'contains', text: 'laptop' }] },
    consequences: {
      redirect: { url: 'https://low.example' },
      banners: [{ html: 'low' }],
      pins: [
        { product_id: 'h1', position: 1 },
        { product_id: 'h2', position: 2 },
      ],
      hides: ['lap2'],
    },
  });
  const high = await rule({
    priority: 2,
    conditions: { patterns: [{ match: 'contains', text: 'laptop' }] },
    consequences: {
      redirect: { url: 'https://high.example' },
      banners: [{ html: 'high' }],
      pins: [{ product_id: 'w1', position: 1 }],
      hides: ['lap3'],
    },
  });
  const res = await search({ q: 'laptop', debug: true });
  t.same(res.redirect, { url: 'https://high.example', rule_id: high });
  t.same(
    res.banners.map((b) => b.html),
    ['high', 'low'],
  );
  t.same(res.ids, ['w1', 'h2', 'lap1'], 'position 1 to the higher rule, position 2 kept from the lower, both hides applied');
  const trace = res.debug.steps.find((x: { step: string }) => x.step === 'merchandise-rules').matched;
  t.same(
    trace.map((e: { rule_id: string }) => e.rule_id),
    [high, low],
  );
  t.match(trace[1].notes, ['redirect: rule ' + high + ' came first', 'pin h1: position 1 taken by an earlier rule']);
});

t.test('toggles: merch_rules false and disabled_rule_ids (dashboard override), each listed in the trace', async (t) => {
  const a = await rule({ conditions: is('laptop'), consequences: { banners: [{ html: 'a' }] } });
  await rule({ conditions: is('laptop'), consequences: { banners: [{ html: 'b' }] } });
  t.same(
    (await search({ q: 'laptop' })).banners.map((b) => b.html),
    ['a', 'b'],
  );
  const off = await search({ q: 'laptop', debug: true, config_override: { merch_rules: false } }, session);
  t.same(off.banners, []);
  const reasons = off.debug.steps.find((x: { step: string }) => x.step === 'merchandise-rules').matched.map((e: { reason: string }) => e.reason);
  t.same(reasons, ['merch_rules_off', 'merch_rules_off']);
  const one = await search({ q: 'laptop', debug: true, config_override: { disabled_rule_ids: [a] } }, session);
  t.same(
    one.banners.map((b) => b.html),
    ['b'],
  );
  t.match(one.debug.steps.find((x: { step: string }) => x.step === 'merchandise-rules').matched, [
    { rule_id: a, applied: false, reason: 'disabled_by_config' },
    { applied: true },
  ]);
  t.same((await search({ q: 'laptop', config_override: { merch_rules: false } })).banners.length, 2, 'API keys cannot override');
});

t.test('a rule change reaches another API process', async (t) => {
  const api2 = await h.startApi();
  t.teardown(() => api2.close());
  const on2 = async () => (await api2.call('POST', '/v1/search', { key, body: { q: 'tablet' } })).body.banners.map((b: { html: string }) => b.html);
  t.same(await on2(), [], 'api2 has compiled (and cached) the rules without this one');
  const id = await rule({ conditions: is('tablet'), consequences: { banners: [{ html: 'new' }] } });
  let seen: string[] = [];
  for (let i = 0; i < 200 && !seen.length; i++) {
    seen = await on2();
    if (!seen.length) await new Promise((r) => setTimeout(r, 10));
  }
  t.same(seen, ['new'], 'api2 applies the new rule (notice over Redis)');
  await h.api.call('PUT', `/v1/rules/${id}`, {
    key,
    body: { name: 'r', enabled: false, conditions: is('tablet'), consequences: { banners: [{ html: 'new' }] } },
  });
  for (let i = 0; i < 200 && seen.length; i++) {
    seen = await on2();
    if (seen.length) await new Promise((r) => setTimeout(r, 10));
  }
  t.same(seen, [], 'and stops when it is disabled');
});

t.test("another tenant's rules never apply", async (t) => {
  const other = await h.tenant('Other');
  const res = await h.api.call('POST', '/v1/rules', {
    key: other.key,
    body: { name: 'x', conditions: is('laptop'), consequences: { banners: [{ html: 'other' }] } },
  });
  t.equal(res.status, 201);
  t.same((await search({ q: 'laptop' })).banners, []);
  t.equal((await h.api.call('GET', `/v1/rules/${res.body.id}`, { key })).status, 404);
});
