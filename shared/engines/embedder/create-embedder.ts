import type { Knex } from 'knex';
import type { Config } from '../../platform/config.js';
import type { EmbedderSource } from './port.js';
import { CatalogEmbedderSource } from './catalog.embedder.js';

/** The configured embedder source (EMBEDDER): the per-store catalog embedder by default. */
export function createEmbedderSource(config: Config, db: Knex): EmbedderSource {
  return new CatalogEmbedderSource(db);
}
