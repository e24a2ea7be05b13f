import type { Knex } from 'knex';
import { jobsRepo } from './jobs.repo.js';

/** Jobs: the shared jobs table that long work reports into, and starting a job. */
export function jobsRepos(db: Knex) {
  return { jobs: jobsRepo(db) };
}

export * from './start-job.js';
export { JOB_KINDS, JOB_STATUSES, TERMINAL, type JobKind, type JobRow, type JobStatus } from './jobs.repo.js';
