import { addFacets, placePins } from '../../merchandising/index.js';
import type { SearchStep } from './state.js';

/**
 * Pinned products that pass the search's filters (one engine query for them with their facet
 * counts, started beside the main query by merchandise-query) take their positions on the page; the total and the facets add them, so what is counted
 * is what can be shown. A pinned product the filters exclude is not shown.
 */
export const merchandise: SearchStep = {
  name: 'merchandise',
  async run(s) {
    const pins = s.merchPlan?.pins ?? [];
    if (!pins.length || !s.pinLookup) return;
    const res = await s.pinLookup;
    const byId = new Map(res.hits.map((h) => [h.id, h]));
    const passing = pins.filter((p) => byId.has(p.id)).map((p) => ({ hit: byId.get(p.id)!, position: p.position }));
    s.pinned = new Set(passing.map((p) => p.hit.id));
    const offset = (s.input.page - 1) * s.input.perPage;
    const hits = placePins(passing, s.result.hits, s.result.total, s.query.offset, offset, s.input.perPage);
    s.result = { ...s.result, total: s.result.total + passing.length, hits, facets: addFacets(s.result.facets, res.facets) };
  },
  trace: (s) => ({
    pins_passing_filters: [...(s.pinned ?? [])],
    pins_filtered_out: (s.merchPlan?.pins ?? []).filter((p) => !s.pinned?.has(p.id)).map((p) => p.id),
  }),
};
