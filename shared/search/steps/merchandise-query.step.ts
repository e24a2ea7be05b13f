import { organicWindow } from '../../merchandising/index.js';
import type { SearchStep } from './state.js';

/**
 * The rules' part of the engine query: hidden and pinned products leave the organic matches (and
 * so the total and the facet counts), boosts and buries weigh on relevance in the engine, and with
 * pins the page becomes a window of organic rows wide enough for any pins that pass the filters.
 */
export const merchandiseQuery: SearchStep = {
  name: 'merchandise-query',
  run(s, env) {
    const p = s.merchPlan;
    if (!p) return;
    const exclude = [...new Set([...p.hides, ...p.pins.map((x) => x.id)])];
    if (exclude.length) s.query.exclude = exclude;
    if (p.boosts.length && s.query.boost) s.query.boost = { ...s.query.boost, shifts: p.boosts };
    if (!p.pins.length) return;
    Object.assign(
      s.query,
      organicWindow(
        p.pins.map((x) => x.position),
        s.query.offset,
        s.query.limit,
      ),
    );
    // The pinned products under the same filters, read beside the main query (the merchandise step awaits it).
    const lookup = env.engine.search({
      tenantId: s.tenantId,
      tokens: [],
      ids: p.pins.map((x) => x.id),
      exclude: p.hides.size ? [...p.hides] : undefined,
      filters: s.query.filters,
      offset: 0,
      limit: p.pins.length,
      facets: s.facetNames,
      ...(s.query.facetsFollowFilters ? { facetsFollowFilters: true } : {}),
    });
    lookup.catch(() => undefined);
    s.pinLookup = lookup;
  },
  trace: (s) => ({ exclude: s.query.exclude?.length ?? 0, offset: s.query.offset, limit: s.query.limit }),
};
