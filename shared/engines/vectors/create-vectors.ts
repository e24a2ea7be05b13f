import type { Knex } from 'knex';
import type { Config } from '../../platform/config.js';
import type { VectorStore } from './port.js';
import { PostgresVectorStore } from './postgres.vectors.js';
import { QdrantVectorStore } from './qdrant.vectors.js';

/** The configured vector store (VECTOR_STORE): the built-in one by default, Qdrant with QDRANT_URL. */
export function createVectorStore(config: Config, db: Knex): VectorStore {
  if (config.vectors.store === 'qdrant' && config.vectors.qdrant) return new QdrantVectorStore(db, config.vectors.qdrant);
  return new PostgresVectorStore(db, config.vectors.memoryBytes);
}
