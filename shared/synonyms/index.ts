import type { Knex } from 'knex';
import { synonymsRepo } from './synonyms.repo.js';
import { suggestionsRepo } from './suggestions.repo.js';

/** Synonyms: rules, file import/export, and mining the search log for suggestions. */
export function synonymsRepos(db: Knex) {
  return { synonyms: synonymsRepo(db), suggestions: suggestionsRepo(db) };
}

export * from './service.js';
export * from './start-mining.js';
export * from './synonyms.jobs.js';
export * from './rule.js';
export * from './formats.js';
export { MAX_IMPORT_CHARS } from './import.js';
export type { SynonymRow, SynonymScope } from './synonyms.repo.js';
export type { SuggestionRow } from './suggestions.repo.js';
