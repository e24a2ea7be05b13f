/** Usage: per-request counters (billed searches) kept in Redis. */
export * from './usage-counter.js';
