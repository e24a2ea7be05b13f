import t from 'tap';
import fc from 'fast-check';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';

/**
 * Generated search inputs (odd unicode q, bounds of page and per_page, sort values, facet lists,
 * filters of every shape on built-in and mapped attributes), each sent as GET /v1/search and as the
 * same SearchRequest to POST /v1/search, and suggest's q as GET /v1/suggest. No answer is a 5xx,
 * every 4xx carries the error body with field details, and GET and POST answer alike.
 * FUZZ_SEED replays a run, FUZZ_RUNS changes its size.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 20240611);

const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200', RATE_LIMIT_SECRET_PER_S: '1000000' });
const { id: tenantId, key } = await h.tenant();
const mapping = ['RAM', 'Size', 'Weight', 'Color'].map((raw) => ({ raw_name: raw, canonical_name: raw.toLowerCase(), facet: true }));
await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: mapping } });
const product = (id: string, en: string, ar: string, attributes: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  id,
  name: { en, ar },
  price: 50,
  currency: 'USD',
  brand: 'Nike',
  attributes,
  categories: [{ id: 'c1', path: [{ en: 'Shoes', ar: 'أحذية' }] }],
  ...extra,
});
await loadProducts(h, key, tenantId, [
  product('s1', 'Trail shoe one', 'حذاء رياضي', { RAM: '8GB', Size: '42', Weight: 9, Color: 'Red' }),
  product('s2', 'Trail shoe two', 'حذاء جري', { RAM: '16GB', Size: ['44', '45'], Weight: 9.5, Color: ['Blue', 'Red'] }),
  product('s3', 'Running shoe 3000', 'حذاء ٣٠٠٠', { Size: 'XL', Weight: 12 }, { in_stock: false, sale_price: 40, brand: 'Adidas' }),
  product('s4', 'Phone case', 'غطاء هاتف', {}, { price: 9.99 }),
]);

// Words of the store and stop words (split on spaces), then punctuation, tsquery operators, emoji, marks, controls and odd forms.
const pieces = [
  ...'shoe trail phone حذاء الحذاء حِذَاءٌ حــــذاء هاتف the and of في من و under 50 ٥٠ 3000 red nike cheapest'.split(' '),
  ...'! ? ... & | :* <-> \' " \\ % _ ( ) - + * 😀 👍🏽 🏳️‍🌈 ﻻ ﷺ 𝕤𝕙𝕠𝕖 ＳＨＯＥ İ ß ﬁ'.split(' '),
  ...['\u200f', '\u200e', '\u200d', '\u200c', '\u200b', '\ufeff', '\u00a0', 'e\u0301', '\u064b', '\u0640', '9'.repeat(40), 'x'.repeat(60)],
];
const rare = <T>(usual: fc.Arbitrary<T>, odd: T[]) => fc.oneof({ weight: 12, arbitrary: usual }, { weight: 1, arbitrary: fc.constantFrom(...odd) });
const qArb = fc.oneof(
  { weight: 6, arbitrary: fc.array(fc.constantFrom(...pieces), { maxLength: 12 }).chain((ws) => fc.constantFrom(ws.join(' '), ws.join(''))) },
  { weight: 1, arbitrary: fc.integer({ min: 1, max: 1000 }).map((n) => Array(n).fill('shoe').join(' ')) },
  { weight: 1, arbitrary: fc.string({ maxLength: 300 }) },
);
const filterName = rare(fc.constantFrom('brand', 'category', 'price', 'in_stock', 'ram', 'size', 'weight', 'color'), [
  'nope',
  'Color',
  'constructor',
  'toString',
]);
const filterValue = fc.oneof(
  fc.array(
    fc.constantFrom('Nike', 'nike', 'Adidas', 'c1', 'Shoes', 'Red', 'Blue', '42', '44', '9', '9.5', 'XL', '8GB', 'true', 'false', 'maybe', '😀', 'حذاء'),
    { minLength: 1, maxLength: 4 },
  ),
  fc.constantFrom('Nike', 'Red', '42', 'true', 'false', 'x'),
  fc.boolean(),
  // A range with at least one bound (GET has no way to send an empty one).
  fc
    .record(
      {
        gte: fc.oneof(fc.integer({ min: -100, max: 100 }), fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 })),
        lte: fc.integer({ min: -100, max: 100 }),
      },
      { requiredKeys: [] },
    )
    .filter((r) => Object.keys(r).length > 0),
);
const facetName = fc.constantFrom('brand', 'category_tree', 'price', 'in_stock', 'ram', 'size', 'weight', 'color', 'category', 'nope');
const inputArb = fc.record(
  {
    q: qArb,
    page: rare(fc.integer({ min: 1, max: 3 }), [0, 999, 1000, 1001]),
    per_page: rare(fc.integer({ min: 1, max: 5 }), [0, 100, 101]),
    sort: rare(fc.constantFrom('relevance', 'price_asc', 'price_desc', 'newest', 'popular'), ['cheapest', 'PRICE_ASC']),
    facets: fc.array(facetName, { maxLength: 4 }),
    filters: fc.dictionary(filterName, filterValue, { maxKeys: 3 }),
    lang: rare(fc.constantFrom('auto', 'en', 'ar'), ['fr', 'AR']),
  },
  { requiredKeys: ['q'] },
);
type Input = { q: string; page?: number; per_page?: number; sort?: string; facets?: string[]; filters?: Record<string, unknown>; lang?: string };

/** The GET form of a SearchRequest. */
function toQuery(input: Input): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(input)) {
    if (k === 'filters') continue;
    params.append(k, Array.isArray(v) ? v.join(',') : String(v));
  }
  for (const [name, value] of Object.entries(input.filters ?? {})) {
    if (Array.isArray(value)) params.append(`filter[${name}]`, value.join(','));
    else if (value && typeof value === 'object') for (const [bound, n] of Object.entries(value)) params.append(`filter[${name}][${bound}]`, String(n));
    else params.append(`filter[${name}]`, String(value));
  }
  return params.toString();
}

function hasErrorBody(body: any): boolean {
  const e = body?.error;
  return (
    typeof e?.code === 'string' &&
    typeof e.message === 'string' &&
    typeof e.request_id === 'string' &&
    Array.isArray(e.details) &&
    e.details.length > 0 &&
    e.details.every((d: any) => typeof d.field === 'string' && typeof d.code === 'string')
  );
}

const inputs = fc.sample(inputArb, { numRuns: RUNS, seed: SEED }) as Input[];

t.test(`${RUNS} generated search inputs (seed ${SEED}): no 5xx, 4xx with details, GET and POST agree`, async (t) => {
  const problems: string[] = [];
  const statuses = new Map<number, number>();
  const codes = new Map<string, number>();
  for (const input of inputs) {
    const get = await h.api.call('GET', `/v1/search?${toQuery(input)}`, { key });
    const post = await h.api.call('POST', '/v1/search', { key, body: input });
    const label = JSON.stringify(input).slice(0, 300);
    for (const [form, res] of [
      ['GET', get],
      ['POST', post],
    ] as const) {
      statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
      if (res.status === 400) codes.set(res.body.error.code, (codes.get(res.body.error.code) ?? 0) + 1);
      if (res.status >= 500) problems.push(`${form} ${label} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      else if (res.status >= 400 && !hasErrorBody(res.body)) problems.push(`${form} ${label} -> ${res.status} without the error body's details`);
    }
    if (get.status !== post.status)
      problems.push(`${label}: GET ${get.status} ${get.body?.error?.code ?? ''}, POST ${post.status} ${post.body?.error?.code ?? ''}`);
    else if (get.status === 200) {
      const same = (b: any) => JSON.stringify([b.ids, b.total, b.page, b.per_page, b.facets.map((f: { name: string }) => f.name)]);
      if (same(get.body) !== same(post.body)) problems.push(`${label}: GET ${same(get.body)} != POST ${same(post.body)}`);
    }
  }
  for (const input of inputs) {
    const res = await h.api.call('GET', `/v1/suggest?q=${encodeURIComponent(input.q)}`, { key });
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
    if (res.status >= 500 || (res.status >= 400 && !hasErrorBody(res.body)))
      problems.push(`suggest ${JSON.stringify(input.q).slice(0, 200)} -> ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
  }
  t.comment(`statuses: ${[...statuses].map(([s, n]) => `${s}=${n}`).join(' ')}; search 400s: ${[...codes].map(([c, n]) => `${c}=${n}`).join(' ')}`);
  for (const p of problems.slice(0, 30)) t.comment(p);
  t.same(problems, [], `${problems.length} problems`);
  t.ok((statuses.get(200) ?? 0) > RUNS / 2, 'many generated inputs were valid and answered');
  t.ok((statuses.get(400) ?? 0) > RUNS / 10, 'some were refused as bad input');
});
