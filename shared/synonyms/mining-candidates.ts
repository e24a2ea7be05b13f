/**
 * Synonym candidates from shopper behaviour; pure functions over rows read by the mining stage.
 *
 * (a) one_way: a zero-result search followed in the same session, within `windowMs`, by a
 *     different search that got clicks: input = the zero-result query, output = the reformulation.
 * (b) equivalent: two different queries whose searches led to clicks on the same products.
 *
 * Queries are compared normalized. A pair where one query's words contain the other's is a
 * refinement or a relaxation ("laptop" -> "laptop bag"), not a synonym, and is never proposed.
 */

export interface MinedSearch {
  id: string;
  session: string;
  normalized: string;
  total: number;
  at: Date;
}

export interface MinedClick {
  search_id: string;
  product_id: string;
  session: string;
  normalized: string;
}

export interface MiningOptions {
  /** Fewest distinct sessions behind a candidate (equivalent: on each side). */
  minSessions: number;
  /** How long after a zero-result search a reformulation still counts. */
  windowMs?: number;
  /** Longest term proposed (the synonym rule limit). */
  maxTermLength?: number;
}

export interface Candidate {
  kind: 'one_way' | 'equivalent';
  terms: string[];
  input: string | null;
  outputs: string[];
  score: number;
  evidence: Record<string, unknown>;
}

export const DEFAULT_WINDOW_MS = 10 * 60_000;
const EXAMPLES = 5;
/** Queries kept per product for pairing: bounds the pair count on very popular products. */
const QUERIES_PER_PRODUCT = 50;

const words = (q: string) => new Set(q.split(' ').filter(Boolean));
/** True when every word of one query is in the other (refinement or relaxation). */
export function nested(a: string, b: string): boolean {
  const [x, y] = [words(a), words(b)];
  const within = (s: Set<string>, t: Set<string>) => [...s].every((w) => t.has(w));
  return within(x, y) || within(y, x);
}
/** Confidence from volume: 0 with no sessions, 0.5 at 5, towards 1 beyond. */
const support = (sessions: number) => sessions / (sessions + 5);
const round = (n: number) => Math.round(n * 1000) / 1000;
function group<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = out.get(k);
    if (list) list.push(row);
    else out.set(k, [row]);
  }
  return out;
}
const inc = <K>(m: Map<K, number>, k: K, by = 1) => m.set(k, (m.get(k) ?? 0) + by);
const topKeys = (m: Map<string, number>, n: number) =>
  [...m]
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, n)
    .map(([k]) => k);

export function mineCandidates(searches: MinedSearch[], clicks: MinedClick[], opts: MiningOptions): Candidate[] {
  return [...reformulations(searches, clicks, opts), ...coClicks(clicks, opts)];
}

/** (a) zero-result query -> reformulated query that got clicks, per session. */
export function reformulations(searches: MinedSearch[], clicks: MinedClick[], opts: MiningOptions): Candidate[] {
  const windowMs = opts.windowMs ?? DEFAULT_WINDOW_MS;
  const maxLen = opts.maxTermLength ?? 200;
  const clicksBySearch = group(clicks, (c) => c.search_id);
  const bySession = group(searches, (s) => s.session);
  const zeroSessions = new Map<string, Set<string>>();
  const pairs = new Map<
    string,
    { input: string; output: string; sessions: Set<string>; zero: Set<string>; reformed: Set<string>; products: Map<string, number> }
  >();

  for (const [session, list] of bySession) {
    list.sort((a, b) => a.at.getTime() - b.at.getTime() || (a.id < b.id ? -1 : 1));
    list.forEach((z, i) => {
      if (z.total !== 0 || z.normalized.length > maxLen) return;
      (zeroSessions.get(z.normalized) ?? zeroSessions.set(z.normalized, new Set()).get(z.normalized)!).add(session);
      for (let j = i + 1; j < list.length; j++) {
        const s = list[j];
        if (s.at.getTime() - z.at.getTime() > windowMs) break;
        if (s.normalized === z.normalized) continue;
        const clicked = clicksBySearch.get(s.id)?.map((c) => c.product_id);
        if (!clicked) continue;
        if (nested(z.normalized, s.normalized) || s.normalized.length > maxLen) break;
        const key = `${z.normalized}\u0000${s.normalized}`;
        const pair = pairs.get(key) ?? {
          input: z.normalized,
          output: s.normalized,
          sessions: new Set(),
          zero: new Set(),
          reformed: new Set(),
          products: new Map(),
        };
        pairs.set(key, pair);
        pair.sessions.add(session);
        pair.zero.add(z.id);
        if (!pair.reformed.has(s.id)) for (const p of clicked) inc(pair.products, p);
        pair.reformed.add(s.id);
        break;
      }
    });
  }

  const out: Candidate[] = [];
  for (const p of pairs.values()) {
    const sessions = p.sessions.size;
    if (sessions < opts.minSessions) continue;
    const zeroResultSessions = zeroSessions.get(p.input)?.size ?? sessions;
    const share = sessions / zeroResultSessions;
    const clickCount = [...p.products.values()].reduce((a, b) => a + b, 0);
    out.push({
      kind: 'one_way',
      terms: [],
      input: p.input,
      outputs: [p.output],
      score: round(share * support(sessions)),
      evidence: {
        source: 'zero_result_reformulation',
        queries: [p.input, p.output],
        sessions,
        searches: p.zero.size + p.reformed.size,
        clicks: clickCount,
        example_products: topKeys(p.products, EXAMPLES),
        zero_result_searches: p.zero.size,
        reformulated_searches: p.reformed.size,
        zero_result_sessions: zeroResultSessions,
        reformulation_share: round(share),
      },
    });
  }
  return out;
}

interface QueryClicks {
  clicks: number;
  byProduct: Map<string, { clicks: number; sessions: Set<string>; searches: Set<string> }>;
}

/** (b) pairs of queries whose clicks land on the same products. */
export function coClicks(clicks: MinedClick[], opts: MiningOptions): Candidate[] {
  const maxLen = opts.maxTermLength ?? 200;
  const byQuery = new Map<string, QueryClicks>();
  const queriesByProduct = new Map<string, Map<string, number>>();
  for (const c of clicks) {
    if (!c.normalized || c.normalized.length > maxLen) continue;
    const q = byQuery.get(c.normalized) ?? { clicks: 0, byProduct: new Map() };
    byQuery.set(c.normalized, q);
    q.clicks++;
    const p = q.byProduct.get(c.product_id) ?? { clicks: 0, sessions: new Set<string>(), searches: new Set<string>() };
    q.byProduct.set(c.product_id, p);
    p.clicks++;
    p.sessions.add(c.session);
    p.searches.add(c.search_id);
    inc(queriesByProduct.get(c.product_id) ?? queriesByProduct.set(c.product_id, new Map()).get(c.product_id)!, c.normalized);
  }

  const shared = new Map<string, { a: string; b: string; products: string[] }>();
  for (const [product, counts] of queriesByProduct) {
    const queries = topKeys(counts, QUERIES_PER_PRODUCT).sort();
    for (let i = 0; i < queries.length; i++) {
      for (let j = i + 1; j < queries.length; j++) {
        const key = `${queries[i]}\u0000${queries[j]}`;
        const pair = shared.get(key) ?? { a: queries[i], b: queries[j], products: [] };
        shared.set(key, pair);
        pair.products.push(product);
      }
    }
  }

  const out: Candidate[] = [];
  for (const { a, b, products } of shared.values()) {
    if (nested(a, b)) continue;
    const side = (q: string) => {
      const info = byQuery.get(q)!;
      const sessions = new Set<string>();
      const searches = new Set<string>();
      let sharedClicks = 0;
      for (const p of products) {
        const x = info.byProduct.get(p)!;
        x.sessions.forEach((s) => sessions.add(s));
        x.searches.forEach((s) => searches.add(s));
        sharedClicks += x.clicks;
      }
      return { sessions, searches, sharedClicks, clicks: info.clicks };
    };
    const [sa, sb] = [side(a), side(b)];
    const minSide = Math.min(sa.sessions.size, sb.sessions.size);
    if (minSide < opts.minSessions) continue;
    const sharedClicks = sa.sharedClicks + sb.sharedClicks;
    const overlap = sharedClicks / (sa.clicks + sb.clicks);
    const productClicks = new Map(products.map((p) => [p, byQuery.get(a)!.byProduct.get(p)!.clicks + byQuery.get(b)!.byProduct.get(p)!.clicks]));
    out.push({
      kind: 'equivalent',
      terms: [a, b],
      input: null,
      outputs: [],
      score: round(overlap * support(minSide)),
      evidence: {
        source: 'co_clicks',
        queries: [a, b],
        sessions: new Set([...sa.sessions, ...sb.sessions]).size,
        searches: sa.searches.size + sb.searches.size,
        clicks: sharedClicks,
        example_products: topKeys(productClicks, EXAMPLES),
        shared_products: products.length,
        sessions_by_query: { [a]: sa.sessions.size, [b]: sb.sessions.size },
        click_overlap: round(overlap),
      },
    });
  }
  return out;
}
