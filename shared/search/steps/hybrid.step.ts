import type { EngineHit } from '../../engines/lexical/port.js';
import type { VectorHit } from '../../engines/vectors/port.js';
import type { SearchState, SearchStep } from './state.js';

/** Vector candidates read per search. */
const CANDIDATES = 50;
/**
 * Reciprocal rank fusion constant and the vector side's weight beside the lexical one (1) when
 * reordering lexical matches. Measured on the raw dev collections: 0.5 lowered Chorus nDCG@10 by
 * 0.010; 0.1 moved Chorus by +0.002 and CrowdFlower by -0.012. The catalog embedder knows
 * relatedness, not relevance, so lexical matches keep their order (weight 0) and the vector side
 * fills and rescues; an embedder that knows relevance (EMBEDDER=openai) can be given a weight here.
 */
const RRF_K = 60;
const VECTOR_WEIGHT = 0;
/**
 * The vector side's weight when no product matched every word and the any-word relaxation answered.
 * Fused as equals (1) it raised CrowdFlower nDCG@10 by 0.002 once; after the ranking of issue 21
 * (rarity, product types, the page fill) the same fusion lowered it by 0.0021 (0.5: 0.0014), the
 * vector order pulling related but unrequested products above the relaxation's best: the
 * relaxation's order is kept and vector candidates only fill its page.
 */
const RELAXED_VECTOR_WEIGHT = 0;
/** Cosine below which a vector-only candidate does not enter a page of lexical matches. */
const MIN_ADD_COSINE = 0.75;
/** Cosine below which a vector candidate does not rescue a zero-result query. */
const MIN_RESCUE_COSINE = 0.35;

/**
 * Hybrid search (ranking `hybrid_search`), after the any-word fallback: the query is embedded once
 * (cached per process) and its nearest products read from the vector store; their cards come from
 * the engine under the search's filters, so a vector candidate is shown only if it passes every
 * filter. A query nothing matched is answered by the vector candidates; a query that only the
 * any-word relaxation answered keeps its order, vector candidates (cosine >= 0.35) filling a page
 * it could not fill (see RELAXED_VECTOR_WEIGHT); otherwise page 1 is the
 * reciprocal rank fusion of the lexical hits and the vector candidates (see VECTOR_WEIGHT: with the
 * catalog embedder, the lexical order is kept), a vector-only candidate entering only to fill a
 * page the lexical side could not fill, and only when close to the query (cosine >= 0.75).
 * Sorted searches (price, newest) and pages after the first are left lexical, and so is a search
 * the vector store fails for (reason `vector store failed`) or whose plan cannot be read (`plan check failed`).
 */
export const hybrid: SearchStep = {
  name: 'hybrid',
  async run(s, env) {
    if (!s.ranking.hybrid_search) return;
    if (!env.vectors) return void (s.hybrid = { candidates: 0, fused: 0, added: 0, rescued: false, reason: 'no vector store' });
    const zero = s.result.total === 0;
    const relaxed = !zero && s.relaxed;
    if (!zero && (s.input.page > 1 || (s.query.sort && s.query.sort !== 'relevance'))) return;
    // With the lexical order kept, a full page of all-words matches cannot change: no vector work.
    if (!zero && !relaxed && VECTOR_WEIGHT === 0 && s.result.hits.length >= s.query.limit) {
      return void (s.hybrid = { candidates: 0, fused: 0, added: 0, rescued: false, reason: 'lexical page full' });
    }
    // A plan feature as well as a ranking setting (and a session's config_override): a store whose plan lacks it searches lexically.
    // A plan that cannot be read now (Postgres, a blip) leaves this search lexical too, not failed (not cached, degraded.ts).
    let allowed: boolean;
    try {
      allowed = await env.vectors.allowed(s.tenantId);
    } catch {
      return void (s.hybrid = { candidates: 0, fused: 0, added: 0, rescued: false, reason: 'plan check failed' });
    }
    if (!allowed) return void (s.hybrid = { candidates: 0, fused: 0, added: 0, rescued: false, reason: 'not in plan' });
    const text = s.tokens.join(' ');
    let found: VectorHit[];
    // The vector store (its serving generation, its nearest products) failing leaves the search lexical, not failed (not cached, degraded.ts).
    try {
      const { vector, reason } = await env.vectors.embed(s.tenantId, text);
      if (!vector) return void (s.hybrid = { candidates: 0, fused: 0, added: 0, rescued: false, reason });
      found = await env.vectors.nearest(s.tenantId, vector, CANDIDATES, { exclude: s.query.exclude });
    } catch {
      return void (s.hybrid = { candidates: 0, fused: 0, added: 0, rescued: false, reason: 'vector store failed' });
    }
    const near = found.filter((h) => h.score >= (zero || relaxed ? MIN_RESCUE_COSINE : MIN_ADD_COSINE) || !zero);
    const cosine = new Map(near.map((h) => [h.id, h.score]));
    const passing = near.length
      ? await env.engine.search({
          tenantId: s.tenantId,
          lang: s.query.lang,
          tokens: [],
          ids: near.map((h) => h.id),
          exclude: s.query.exclude,
          filters: s.query.filters,
          offset: 0,
          limit: near.length,
          facets: zero ? s.facetNames : undefined,
          ...(s.query.facetsFollowFilters ? { facetsFollowFilters: true } : {}),
        })
      : null;
    const byId = new Map((passing?.hits ?? []).map((h) => [h.id, h]));
    const ranked = near.filter((h) => byId.has(h.id)).map((h) => ({ ...byId.get(h.id)!, score: h.score }));
    if (zero) {
      if (!ranked.length || !passing) return void (s.hybrid = { candidates: near.length, fused: 0, added: 0, rescued: false });
      const page = ranked.slice(s.query.offset, s.query.offset + s.query.limit);
      s.result = { total: ranked.length, strong: ranked.length, hits: page, facets: passing.facets };
      s.hybrid = { candidates: near.length, fused: 0, added: page.length, rescued: true };
      return;
    }
    s.hybrid = fuse(s, ranked, cosine, relaxed);
  },
  trace: (s) => ({ ...(s.hybrid ?? { off: true }) }),
};

/** Page 1 as the RRF of the lexical page and the vector candidates that pass the filters. */
function fuse(s: SearchState, vec: EngineHit[], cosine: Map<string, number>, relaxed: boolean) {
  const lexical = s.result.hits;
  const score = new Map<string, number>();
  lexical.forEach((h, i) => score.set(h.id, 1 / (RRF_K + i + 1)));
  const lexIds = new Set(lexical.map((h) => h.id));
  const pool = new Map(lexical.map((h) => [h.id, h]));
  let added = 0;
  const fill = lexical.length < s.query.limit;
  vec.forEach((h, i) => {
    if (relaxed) {
      // Any-word matches first, in their order (RELAXED_VECTOR_WEIGHT 0); vector candidates behind them.
      score.set(h.id, (score.get(h.id) ?? 0) + RELAXED_VECTOR_WEIGHT / (RRF_K + i + 1));
      if (!pool.has(h.id)) {
        pool.set(h.id, { ...h, strong: false });
        added++;
      }
      return;
    }
    if (!lexIds.has(h.id) && (!fill || (cosine.get(h.id) ?? 0) < MIN_ADD_COSINE)) return;
    // A vector-only candidate ranks after every lexical match, by its vector rank.
    const own = lexIds.has(h.id) ? VECTOR_WEIGHT / (RRF_K + i + 1) : -1 - i / vec.length;
    score.set(h.id, (score.get(h.id) ?? 0) + own);
    if (!pool.has(h.id)) {
      pool.set(h.id, { ...h, strong: false });
      added++;
    }
  });
  const hits = [...pool.values()].sort((a, b) => score.get(b.id)! - score.get(a.id)!).slice(0, s.query.limit);
  const shown = hits.filter((h) => !lexIds.has(h.id)).length;
  s.result = { ...s.result, total: s.result.total + shown, hits };
  return { candidates: vec.length, fused: hits.length, added: shown, rescued: false };
}
