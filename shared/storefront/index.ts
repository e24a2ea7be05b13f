/** Storefront: the Algolia search protocol (InstantSearch, Autocomplete, Insights) over the service's search, suggest and events. */
export * from './protocol.js';
export * from './storefront-search.js';
export { isBilledQuery } from './billing.js';
export { SUPPORTED_PARAMS, IGNORED_PARAMS, AlgoliaParamsSchema } from './params.js';
export { InsightsBody, InsightsEvent, toEventRows } from './insights.js';
