import type { Knex } from 'knex';
import { rulesRepo } from './rules.repo.js';

/** Merchandising: rules that redirect, show banners, pin, hide, boost, bury and filter per query. */
export function merchandisingRepos(db: Knex) {
  return { rules: rulesRepo(db) };
}

export * from './rule.schema.js';
export * from './rule-index.js';
export * from './resolve.js';
export * from './pins.js';
export * from './rules-service.js';
export type { RuleRow, RulesRepo } from './rules.repo.js';
