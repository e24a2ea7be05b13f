import type { IndexTarget } from './protocol.js';
import type { AlgoliaParams } from './params.js';

/**
 * The storefront endpoint's billing rule, in one place (usage counting may move; this decision
 * stays): one billed search per shopper search. A query is billed when it is the first page of a
 * products index, asks for hits and has analytics on. So InstantSearch's facet-count queries
 * (`hitsPerPage: 0`, `analytics: false`), later pages, and suggestions indices (backed by
 * suggest, which is never billed) are free.
 */
export function isBilledQuery(target: IndexTarget, p: Pick<AlgoliaParams, 'page' | 'hitsPerPage' | 'analytics'>, type: 'default' | 'facet'): boolean {
  return target.kind === 'products' && type === 'default' && p.page === 0 && p.hitsPerPage > 0 && p.analytics;
}
