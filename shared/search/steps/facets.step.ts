import { toFacets } from '../facets.js';
import type { SearchStep } from './state.js';

/** The engine's facet counts in the response's Facet shape, in the order asked. */
export const facets: SearchStep = {
  name: 'facets',
  run(s) {
    s.facets = toFacets(s.facetNames, s.result.facets);
  },
};
