import type { Knex } from 'knex';
import type { Config } from '../../platform/config.js';
import type { VectorStore } from './port.js';
import { PostgresVectorStore } from './postgres.vectors.js';

/** The configured vector store (VECTOR_STORE): the built-in one by default. */
export function createVectorStore(config: Config, db: Knex): VectorStore {
  return new PostgresVectorStore(db, config.vectors.memoryBytes);
}
