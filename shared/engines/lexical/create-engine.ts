import type { Knex } from 'knex';
import type { Config } from '../../platform/config.js';
import type { LexicalEngine } from './port.js';
import { PostgresEngine } from './postgres.engine.js';
import { TypesenseEngine } from './typesense.engine.js';
import { timedEngine } from './timed.engine.js';

/** The configured lexical engine (its searches timed for /metrics); the only place that knows which adapters exist. */
export function createLexicalEngine(config: Config, db: Knex): LexicalEngine {
  return timedEngine(pickEngine(config, db));
}

function pickEngine(config: Config, db: Knex): LexicalEngine {
  if (config.searchEngine === 'typesense' && config.typesense) {
    return new TypesenseEngine({ url: config.typesense.url, apiKey: config.typesense.apiKey, collectionPrefix: config.queuePrefix });
  }
  return new PostgresEngine(db);
}
