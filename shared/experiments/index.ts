import type { Knex } from 'knex';
import { experimentsRepo } from './experiments.repo.js';

/** Experiments: A/B tests of ranking settings and rule sets, sticky per shopper session, with results from events. */
export function experimentsRepos(db: Knex) {
  return { experiments: experimentsRepo(db) };
}

export * from './experiment.schema.js';
export * from './assign.js';
export * from './stats.js';
export * from './results.js';
export * from './experiments-service.js';
export type { ExperimentRow, ExperimentFields, ExperimentsRepo } from './experiments.repo.js';
