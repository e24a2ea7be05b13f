import type { Knex } from 'knex';
import type { Config } from '../../platform/config.js';
import type { LexicalEngine } from './port.js';
import { PostgresEngine } from './postgres.engine.js';
import { TypesenseEngine } from './typesense.engine.js';

/** The configured lexical engine; the only place that knows which adapters exist. */
export function createLexicalEngine(config: Config, db: Knex): LexicalEngine {
  if (config.searchEngine === 'typesense' && config.typesense) {
    return new TypesenseEngine({ url: config.typesense.url, apiKey: config.typesense.apiKey, collectionPrefix: config.queuePrefix });
  }
  return new PostgresEngine(db);
}
