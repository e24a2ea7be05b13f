import { clickFeedback, clickOrder, FEEDBACK_DEPTH, passBelow, type QueryClicks } from '../../recommend/index.js';
import type { EngineHit } from '../../engines/lexical/port.js';
import type { SearchStep } from './state.js';

/**
 * Cheap rerank (ranking `cheap_rerank_top_n`), a second pass over the first page of a relevance
 * search: (1) click learning (ranking `click_learning`, on by default): when shoppers' clicks on
 * this normalized query were learned, the clicked products that also match the query and its
 * filters (read from the engine with the same query, restricted to them, so a non-matching
 * product is never promoted) join the page's hits, and the top N are reordered by rank x a
 * bounded click factor (at most 5x), the query's deeper matches inherit from the chosen products
 * they resemble (click feedback), and the products shoppers were shown and pass over go below the
 * matches not yet shown (they stay in the results); (2) in-stock first (ranking `in_stock_first`), stable.
 * Business signals (popularity, margin) are weighed by the engine in the first pass.
 */
export const rerank: SearchStep = {
  name: 'rerank',
  async run(s, env) {
    if (s.input.page > 1 || (s.query.sort && s.query.sort !== 'relevance') || !s.result.hits.length) return;
    const n = Math.min(s.ranking.cheap_rerank_top_n, s.query.limit);
    let top = s.result.hits.slice(0, n);
    const before = top.map((h) => h.id);
    const rest = s.result.hits.slice(n);
    let clicked = 0;
    let promoted = 0;
    let inherited = 0;
    let passed = 0;
    let learned: QueryClicks | null = null;
    let reason: string | undefined;
    if (s.ranking.click_learning && env.clicks) {
      // Click statistics are optional: when they cannot be read, the page keeps its order (not cached, degraded.ts).
      try {
        learned = await env.clicks.forQuery(s.tenantId, s.normalized);
      } catch {
        reason = 'click statistics failed';
      }
    }
    if (learned && (learned.boosts.size || learned.passed.size)) {
      const boosts = learned.boosts;
      clicked = boosts.size;
      const shown = new Set(s.result.hits.map((h) => h.id));
      const outside = [...boosts.keys()].filter((id) => !shown.has(id));
      let extra: EngineHit[] = [];
      if (outside.length) {
        const res = await env.engine.search({ ...s.query, ids: outside, offset: 0, limit: outside.length, facets: undefined });
        extra = res.hits;
      }
      // The query's deeper matches: candidates for click feedback (like what shoppers chose, by
      // catalog vectors) and for the places of the products shoppers pass over.
      let deep: EngineHit[] = [];
      let scores = boosts;
      // The catalog vectors are optional here too: a vector store failing leaves the clicked products boosted without their neighbours (not cached, degraded.ts).
      const vectorsOf = async (ids: string[]) => {
        try {
          return await env.vectors!.vectorsOf(s.tenantId, ids);
        } catch {
          reason = 'vector store failed';
          return null;
        }
      };
      const chosen = env.vectors && boosts.size ? await vectorsOf([...boosts.keys()]) : null;
      const skipped = top.some((h) => learned.passed.has(h.id));
      if ((env.vectors && chosen?.size) || skipped) {
        const res = await env.engine.search({ ...s.query, offset: 0, limit: FEEDBACK_DEPTH, facets: undefined });
        deep = res.hits.filter((h) => !shown.has(h.id) && !boosts.has(h.id));
      }
      const vectors = env.vectors && chosen?.size && deep.length ? await vectorsOf(deep.map((h) => h.id)) : null;
      if (chosen && vectors) {
        for (const [id, v] of chosen) vectors.set(id, v);
        scores = clickFeedback(
          boosts,
          vectors,
          deep.map((h) => h.id),
        );
        inherited = scores.size - boosts.size;
      }
      // Products shoppers were shown and pass over go below the matches they have not seen yet.
      const ordered = passBelow(clickOrder([...top, ...extra, ...deep], scores), learned.passed);
      top = ordered.slice(0, n);
      passed = top.filter((h) => learned.passed.has(h.id)).length;
      promoted = top.filter((h) => !shown.has(h.id)).length;
    }
    if (s.ranking.in_stock_first) top = [...top.filter((h) => h.card.in_stock), ...top.filter((h) => !h.card.in_stock)];
    const moved = top.filter((h, i) => before[i] !== h.id).length;
    s.result = { ...s.result, hits: [...top, ...rest.filter((h) => !top.some((t) => t.id === h.id))].slice(0, s.query.limit) };
    s.rerank = { considered: n, clicked, inherited, passed, promoted, moved, reason };
  },
  trace: (s) => ({ ...(s.rerank ?? { skipped: true }) }),
};
