import t from 'tap';
import { RuleIndex, resolveRules, organicWindow, placePins, addFacets, RuleIn, type RuleRow } from '../../shared/merchandising/index.js';
import { FACET_LIMIT, type EngineHit } from '../../shared/engines/lexical/port.js';

let n = 0;
function row(over: Record<string, unknown>, createdAt = Date.UTC(2024, 0, 1) + n * 1000): RuleRow {
  n++;
  const { id, ...rest } = over;
  const fields = RuleIn.parse({ name: `r${n}`, consequences: { banners: [{ html: `b${n}` }] }, ...rest });
  return { id: (id as string) ?? `rule${n}`, tenant_id: 't', created_at: new Date(createdAt), updated_at: new Date(createdAt), ...fields } as RuleRow;
}
const pat = (match: string, text: string, lang?: string) => ({ patterns: [{ match, text, ...(lang ? { lang } : {}) }] });
const ids = (index: RuleIndex, q: string, lang = 'en') =>
  index
    .candidates(q, lang)
    .map((c) => c.rule.id)
    .sort();
const opts = { filters: {}, enabled: true, disabledIds: new Set<string>(), forcedIds: new Set<string>(), now: Date.now(), filterProblem: () => null };

t.test('patterns: is, starts_with and contains on whole words of the normalized query, any language', async (t) => {
  const index = new RuleIndex([
    row({ id: 'is', conditions: pat('is', 'Laptop') }),
    row({ id: 'starts', conditions: pat('starts_with', 'apple iphone') }),
    row({ id: 'contains', conditions: pat('contains', 'cotton') }),
    row({ id: 'arabic', conditions: pat('contains', 'شاشة', 'ar') }),
    row({ id: 'any', conditions: { patterns: [] } }),
  ]);
  t.same(ids(index, 'laptop'), ['any', 'is']);
  t.same(ids(index, 'laptop bag'), ['any'], 'is needs the whole query');
  t.same(ids(index, 'apple iphone 13'), ['any', 'starts']);
  t.same(ids(index, 'red apple iphone'), ['any'], 'starts_with needs the first words');
  t.same(ids(index, 'apple iphones'), ['any'], 'whole words only');
  t.same(ids(index, 'blue cotton shirt'), ['any', 'contains']);
  t.same(ids(index, 'شاشه حمايه', 'ar'), ['any', 'arabic'], 'teh marbuta folded on both sides');
  t.same(ids(index, 'شاشه', 'en'), ['any'], 'a pattern for Arabic queries only');
  t.equal(index.size, 5);
});

t.test('conflict order: priority, specificity, longer pattern, older rule', async (t) => {
  const redirect = (url: string) => ({ redirect: { url } });
  const a = row({ id: 'old-contains', conditions: pat('contains', 'phone'), consequences: redirect('https://a.example') });
  const b = row({ id: 'new-is', conditions: pat('is', 'samsung phone'), consequences: redirect('https://b.example') });
  const c = row({ id: 'starts-long', conditions: pat('starts_with', 'samsung phone'), consequences: redirect('https://c.example') });
  const d = row({ id: 'starts-short', conditions: pat('starts_with', 'samsung'), consequences: redirect('https://d.example') });
  const q = 'samsung phone';
  t.equal(resolveRules(new RuleIndex([a, b, c, d]).candidates(q, 'en'), opts).redirect?.rule_id, 'new-is', 'is beats starts_with and contains');
  t.equal(resolveRules(new RuleIndex([a, c, d]).candidates(q, 'en'), opts).redirect?.rule_id, 'starts-long', 'longer pattern first');
  const e = row({ id: 'priority', priority: 5, conditions: pat('contains', 'phone'), consequences: redirect('https://e.example') });
  const plan = resolveRules(new RuleIndex([a, b, c, d, e]).candidates(q, 'en'), opts);
  t.equal(plan.redirect?.rule_id, 'priority', 'priority first');
  t.same(
    plan.trace.map((x) => x.rule_id),
    ['priority', 'new-is', 'starts-long', 'starts-short', 'old-contains'],
  );
  t.match(plan.trace[1], { applied: true, notes: ['redirect: rule priority came first'] });
  const older = row({ id: 'z-older', conditions: pat('is', 'tv'), consequences: redirect('https://older.example') }, 1000);
  const newer = row({ id: 'a-newer', conditions: pat('is', 'tv'), consequences: redirect('https://newer.example') }, 2000);
  t.equal(resolveRules(new RuleIndex([newer, older]).candidates('tv', 'en'), opts).redirect?.rule_id, 'z-older', 'then the older rule');
});

t.test('merging: pins by position, hides unioned (and over pins), banners in order, first filter wins', async (t) => {
  const first = row({
    priority: 2,
    conditions: pat('is', 'x'),
    consequences: {
      pins: [
        { product_id: 'p1', position: 1 },
        { product_id: 'p9', position: 4 },
      ],
      hides: ['h1'],
      banners: [{ html: 'A1' }, { html: 'A2', position: 'bottom' }],
      add_filters: { brand: ['Acme'] },
    },
  });
  const second = row({
    priority: 1,
    conditions: pat('is', 'x'),
    consequences: {
      pins: [
        { product_id: 'p2', position: 1 },
        { product_id: 'p1', position: 3 },
        { product_id: 'p3', position: 2 },
      ],
      hides: ['h2', 'p9'],
      banners: [{ image_url: 'https://i.example/b.png' }],
      add_filters: { brand: ['Other'], in_stock: true },
    },
  });
  const plan = resolveRules(new RuleIndex([second, first]).candidates('x', 'en'), opts);
  t.same(
    plan.pins,
    [
      { id: 'p1', position: 1 },
      { id: 'p3', position: 2 },
    ],
    'position 1 and p1 taken by the first rule; p9 hidden by the second',
  );
  t.same([...plan.hides].sort(), ['h1', 'h2', 'p9']);
  t.same(
    plan.banners.map((b) => b.html ?? b.image_url),
    ['A1', 'A2', 'https://i.example/b.png'],
  );
  t.same(
    plan.banners.map((b) => b.position),
    ['top', 'bottom', 'top'],
  );
  t.same(plan.addFilters, { brand: ['Acme'], in_stock: true });
  t.same(plan.trace[1].notes, [
    'pin p2: position 1 taken by an earlier rule',
    'pin p1: pinned by an earlier rule',
    'add_filters.brand: set by an earlier rule',
  ]);
});

t.test('skips: toggles, disabled, time window, filter context; an experiment variant switches a disabled rule on', async (t) => {
  const now = Date.parse('2024-06-01T12:00:00Z');
  const rules = [
    row({ id: 'on', conditions: pat('is', 'x') }),
    row({ id: 'off', enabled: false, conditions: pat('is', 'x') }),
    row({ id: 'future', conditions: { ...pat('is', 'x'), active_from: '2024-06-02T00:00:00Z' } }),
    row({ id: 'past', conditions: { ...pat('is', 'x'), active_until: '2024-06-01T00:00:00Z' } }),
    row({ id: 'window', conditions: { ...pat('is', 'x'), active_from: '2024-06-01T00:00:00Z', active_until: '2024-06-02T00:00:00Z' } }),
    row({ id: 'ctx', conditions: { ...pat('is', 'x'), filters: { category: ['laptops'] } } }),
  ];
  const index = new RuleIndex(rules);
  const reasons = (o: Partial<typeof opts>) =>
    Object.fromEntries(resolveRules(index.candidates('x', 'en'), { ...opts, now, ...o }).trace.map((e) => [e.rule_id, e.applied ? 'applied' : e.reason]));
  t.same(reasons({}), { on: 'applied', off: 'disabled', future: 'not_yet_active', past: 'expired', window: 'applied', ctx: 'filter_context_not_met' });
  t.equal(reasons({ filters: { category: ['LAPTOPS', 'x'] } }).ctx, 'applied', 'any listed value, compared normalized');
  t.equal(reasons({ disabledIds: new Set(['on']) }).on, 'disabled_by_config');
  t.same(new Set(Object.values(reasons({ enabled: false }))), new Set(['merch_rules_off']));
  t.equal(reasons({ forcedIds: new Set(['off']) }).off, 'applied');
  t.equal(index.epoch(Date.parse('2024-05-31T00:00:00Z')), 0);
  t.equal(index.epoch(now), 1, 'one distinct boundary passed (June 1st starts one window and ends another)');
  t.equal(index.epoch(Date.parse('2024-06-03T00:00:00Z')), 2);
});

const hit = (id: string): EngineHit => ({ id, score: 1, card: { id } as EngineHit['card'] });

t.test('pins across pages: a window of organic rows serves every page, closing up past the end', async (t) => {
  const organic = Array.from({ length: 10 }, (_, i) => `o${i + 1}`);
  const pinPos = [
    { id: 'P1', position: 1 },
    { id: 'P4', position: 4 },
    { id: 'P30', position: 30 },
  ];
  const combined: string[] = [];
  for (let page = 0; page < 5; page++) {
    const w = organicWindow(
      pinPos.map((p) => p.position),
      page * 3,
      3,
    );
    const slice = organic.slice(w.offset, w.offset + w.limit).map(hit);
    const shown = placePins(
      pinPos.map((p) => ({ hit: hit(p.id), position: p.position })),
      slice,
      organic.length,
      w.offset,
      page * 3,
      3,
    );
    combined.push(...shown.map((h) => h.id));
  }
  t.same(
    combined,
    ['P1', 'o1', 'o2', 'P4', 'o3', 'o4', 'o5', 'o6', 'o7', 'o8', 'o9', 'o10', 'P30'],
    'every product once, pins in place, the far pin closes up',
  );
  const none = placePins([{ hit: hit('P'), position: 5 }], [], 0, 0, 0, 10);
  t.same(
    none.map((h) => h.id),
    ['P'],
    'no organic match: the pin alone',
  );
});

t.test('facets of disjoint sets add up', async (t) => {
  const sum = addFacets(
    {
      brand: [
        { value: 'A', count: 3 },
        { value: 'B', count: 1 },
      ],
      price: { min: 10, max: 50 },
    },
    {
      brand: [
        { value: 'B', count: 3 },
        { value: 'C', count: 1 },
      ],
      price: { min: 5, max: 20 },
    },
  );
  t.same(sum.brand, [
    { value: 'B', count: 4 },
    { value: 'A', count: 3 },
    { value: 'C', count: 1 },
  ]);
  t.same(sum.price, { min: 5, max: 50 });
  t.same(addFacets({ price: { min: null, max: null } }, { price: { min: 5, max: 20 } }).price, { min: 5, max: 20 });
});

t.test(
  "facets with pins: a value the engine's full list left out is not shown with the pin's count alone, and the list keeps the engine's limit",
  async (t) => {
    // The engine answered its 50 most frequent brands (FACET_LIMIT), each of 10 or more products; the pinned product's brand Z is not
    // among them, so its organic count is unknown (up to 10): shown as 1 it would be wrong.
    const organic = Array.from({ length: FACET_LIMIT }, (_, i) => ({ value: `b${String(i).padStart(2, '0')}`, count: 60 - i }));
    const sum = addFacets(
      { brand: organic },
      {
        brand: [
          { value: 'Z', count: 1 },
          { value: 'b49', count: 1 },
        ],
      },
    );
    const brands = sum.brand as Array<{ value: string; count: number }>;
    t.equal(brands.length, FACET_LIMIT, 'at most the engine limit');
    t.notOk(
      brands.some((b) => b.value === 'Z'),
      'the pin-only value is left out',
    );
    t.same(
      brands.find((b) => b.value === 'b49'),
      { value: 'b49', count: 12 },
      "a value the list has takes the pin's count",
    );

    // A list shorter than the limit is every value: the pin's own value is counted, and the sum is cut at the limit.
    const short = organic.slice(0, FACET_LIMIT - 1);
    const added = addFacets(
      { brand: short },
      {
        brand: [
          { value: 'Z', count: 1 },
          { value: 'Y', count: 1 },
        ],
      },
    ).brand as Array<{ value: string; count: number }>;
    t.equal(added.length, FACET_LIMIT);
    t.same(added.at(-1), { value: 'Y', count: 1 }, 'Y and Z tie on 1: the first by value stays');
  },
);
