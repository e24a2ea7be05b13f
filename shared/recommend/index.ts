import type { Knex } from 'knex';
import { signalsRepo } from './signals.repo.js';

/** Recommend: the four recommendation types and the signals (co-views, trends, click stats) they and click learning use. */
export function recommendRepos(db: Knex) {
  return { signals: signalsRepo(db) };
}

export * from './recommender.js';
export * from './card-cache.js';
export * from './signals-cache.js';
export * from './recent-views.js';
export * from './click-learning.js';
export * from './click-feedback.js';
export { MIN_SEARCHES, MIN_EXAMINATIONS, REPEAT_HOURS } from './click-stats.sql.js';
export { HALF_LIFE_DAYS, WINDOW_DAYS, type ClickStat, type SignalsRepo } from './signals.repo.js';
