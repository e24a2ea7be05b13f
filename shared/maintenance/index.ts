/** Maintenance: table statistics, vacuum and GIN pending-list upkeep where the server's autovacuum falls short; abandoned index builds; data retention. */
export * from './analyze.js';
export * from './abandoned-builds.js';
export * from './retention.js';
