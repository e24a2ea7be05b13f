import type { Knex } from 'knex';
import { productsRepo } from './products.repo.js';
import { mappingsRepo } from './mappings.repo.js';

/** Catalog: products and their batch writes, the attribute mapping, search documents, reindex. */
export function catalogRepos(db: Knex) {
  return { products: productsRepo(db), mappings: mappingsRepo(db) };
}

export * from './batch.js';
export * from './canonical.js';
export * from './catalog.jobs.js';
export * from './index-state.js';
export * from './indexer.js';
export * from './mapping.js';
export * from './product.schema.js';
export * from './reindex.js';
export * from './remove-deleted.js';
export * from './search-doc.js';
export * from './syncs.js';
export type { ProductRow, ProductWithState } from './products.repo.js';
export * from './sync-cleanup.js';
