/** Usage: per-request counters in Redis, rolled up into Postgres by a scheduled stage. */
export * from './usage-counter.js';
export * from './usage.repo.js';
export * from './rollup.js';
