import type { Knex } from 'knex';
import { vocabularyRepo } from './vocabulary.repo.js';
import { searchLogRepo } from './search-log.repo.js';

/** Search: query understanding, the search steps, ranking, suggest, vocabulary and the search log. */
export function searchRepos(db: Knex) {
  return { vocabulary: vocabularyRepo(db), searchLog: searchLogRepo(db) };
}

export * from './search-service.js';
export * from './suggest-service.js';
export * from './tenant-context.js';
export * from './search-log.js';
export * from './vocabulary-builder.js';
export * from './category-profile.js';
export * from './ranking-config.js';
export { highlight } from './highlight.js';
export type { FacetOut } from './facets.js';
export * from './merch-state.js';
export { Rewriter, type RewriteOutcome } from './rewrite/rewriter.js';
export { AiBudget } from './rewrite/ai-budget.js';
export { BUILTIN_FILTERS } from './facets.js';
