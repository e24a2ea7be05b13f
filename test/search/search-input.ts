import type { SearchInput } from '../../shared/search/search-service.js';

/** A search as tests ask SearchService for one: page 1 of 20, no filters, facets or session, not logged; `over` changes any of it. */
export function searchInput(q: string, over: Partial<SearchInput> = {}): SearchInput {
  return { q, lang: 'auto', page: 1, perPage: 20, filters: {}, sort: null, facets: null, session: null, debug: false, override: null, log: false, ...over };
}
