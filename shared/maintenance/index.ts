/** Maintenance: table statistics, vacuum and GIN pending-list upkeep where the server's autovacuum falls short. */
export * from './analyze.js';
