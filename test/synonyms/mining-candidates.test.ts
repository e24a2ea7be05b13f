import t from 'tap';
import { coClicks, mineCandidates, nested, reformulations, type MinedClick, type MinedSearch } from '../../shared/synonyms/mining-candidates.js';
import { coverage } from '../../shared/synonyms/mining-coverage.js';

const T0 = Date.parse('2025-01-01T10:00:00Z');
let n = 0;
/** A session's searches, one per entry: [query, total, seconds after T0]; returns the rows and a click helper. */
function session(name: string, steps: Array<[string, number, number]>) {
  const searches: MinedSearch[] = steps.map(([q, total, s]) => ({ id: `s${n++}`, session: name, normalized: q, total, at: new Date(T0 + s * 1000) }));
  const click = (i: number, product: string): MinedClick => ({
    search_id: searches[i].id,
    product_id: product,
    session: name,
    normalized: searches[i].normalized,
  });
  return { searches, click };
}
function log(sessions: Array<{ searches: MinedSearch[]; clicks: MinedClick[] }>) {
  return { searches: sessions.flatMap((s) => s.searches), clicks: sessions.flatMap((s) => s.clicks) };
}
function reform(name: string, from: string, to: string, gapS = 20, product = 'p1') {
  const s = session(name, [
    [from, 0, 0],
    [to, 9, gapS],
  ]);
  return { searches: s.searches, clicks: [s.click(1, product)] };
}

t.test('nested queries', async (t) => {
  t.ok(nested('laptop', 'laptop bag'));
  t.ok(nested('iphone 15 pro', 'iphone 15'));
  t.notOk(nested('labtop', 'laptop'));
});

t.test('zero-result reformulations become one_way candidates with evidence', async (t) => {
  const { searches, clicks } = log([
    reform('a', 'labtop', 'laptop'),
    reform('b', 'labtop', 'laptop'),
    reform('c', 'labtop', 'laptop', 300, 'p2'),
    reform('late', 'labtop', 'laptop', 11 * 60), // outside the 10-minute window
    reform('x', 'nootbook', 'notebook'),
    reform('y', 'nootbook', 'notebook'), // too thin
    reform('r1', 'lamp', 'lamp shade'),
    reform('r2', 'lamp', 'lamp shade'),
    reform('r3', 'lamp', 'lamp shade'), // refinement
  ]);
  const out = reformulations(searches, clicks, { minSessions: 3 });
  t.equal(out.length, 1);
  t.match(out[0], { kind: 'one_way', input: 'labtop', outputs: ['laptop'], terms: [] });
  t.match(out[0].evidence, {
    queries: ['labtop', 'laptop'],
    sessions: 3,
    zero_result_sessions: 4,
    reformulation_share: 0.75,
    clicks: 3,
    searches: 6,
    example_products: ['p1', 'p2'],
  });
  t.equal(out[0].score, Math.round(0.75 * (3 / 8) * 1000) / 1000);
  t.equal(reformulations(searches, clicks, { minSessions: 2 }).length, 2, 'nootbook with minSessions 2');
});

t.test('the first clicked reformulation counts; unclicked ones and repeats are passed over', async (t) => {
  const steps: Array<[string, number, number]> = [
    ['labtop', 0, 0],
    ['labtop', 0, 5],
    ['lapptop', 0, 10],
    ['laptop', 7, 20],
    ['notebook', 7, 30],
  ];
  const sessions = ['a', 'b', 'c'].map((name) => {
    const s = session(name, steps);
    return { searches: s.searches, clicks: [s.click(3, 'p1'), s.click(4, 'p2')] };
  });
  const { searches, clicks } = log(sessions);
  const out = reformulations(searches, clicks, { minSessions: 3 })
    .map((c) => `${c.input}=>${c.outputs[0]}`)
    .sort();
  t.same(out, ['labtop=>laptop', 'lapptop=>laptop']);
});

t.test('queries clicking the same products become equivalent candidates', async (t) => {
  const side = (name: string, q: string, products: string[]) => {
    const s = session(name, [[q, 5, 0]]);
    return { searches: s.searches, clicks: products.map((p) => s.click(0, p)) };
  };
  const { clicks } = log([
    side('m1', 'mobile', ['ph1']),
    side('m2', 'mobile', ['ph1', 'ph2']),
    side('m3', 'mobile', ['ph2']),
    side('s1', 'smartphone', ['ph1']),
    side('s2', 'smartphone', ['ph2']),
    side('s3', 'smartphone', ['ph1', 'case']),
    side('c1', 'phone case', ['case']), // one session only
  ]);
  const out = coClicks(clicks, { minSessions: 3 });
  t.equal(out.length, 1);
  t.match(out[0], { kind: 'equivalent', terms: ['mobile', 'smartphone'], input: null });
  t.match(out[0].evidence, { sessions: 6, shared_products: 2, clicks: 7, sessions_by_query: { mobile: 3, smartphone: 3 }, click_overlap: 0.875 });
  t.same(coClicks(clicks, { minSessions: 4 }), [], 'each side needs minSessions sessions');
  t.equal(mineCandidates([], clicks, { minSessions: 3 }).length, 1);
});

t.test('coverage by existing rules', async (t) => {
  const ow = { kind: 'one_way' as const, terms: [], input: 'labtop', outputs: ['laptop'], score: 1, evidence: {} };
  const eq = { kind: 'equivalent' as const, terms: ['mobile', 'smartphone'], input: null, outputs: [], score: 1, evidence: {} };
  t.ok(coverage([{ kind: 'one_way', terms: [], input: 'Labtop', outputs: ['LAPTOP', 'notebook'] }])(ow), 'normalized compare');
  t.ok(coverage([{ kind: 'equivalent', terms: ['laptop', 'labtop', 'x'], input: null, outputs: [] }])(ow));
  t.notOk(coverage([{ kind: 'one_way', terms: [], input: 'laptop', outputs: ['labtop'] }])(ow), 'other direction');
  t.ok(coverage([{ kind: 'equivalent', terms: ['Smartphone', 'mobile'], input: null, outputs: [] }])(eq));
  t.notOk(coverage([{ kind: 'one_way', terms: [], input: 'mobile', outputs: ['smartphone'] }])(eq), 'one direction only');
  t.ok(
    coverage([
      { kind: 'one_way', terms: [], input: 'mobile', outputs: ['smartphone'] },
      { kind: 'one_way', terms: [], input: 'smartphone', outputs: ['mobile'] },
    ])(eq),
    'both directions',
  );
});
