import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { Config } from '../../platform/config.js';
import type { LexicalEngine } from './port.js';
import { PostgresEngine } from './postgres.engine.js';
import { TypesenseEngine } from './typesense.engine.js';
import { SetUsage } from './typesense.set-usage.js';
import { timedEngine } from './timed.engine.js';

/** The configured lexical engine (its searches timed for /metrics); the only place that knows which adapters exist. */
export function createLexicalEngine(config: Config, db: Knex, redis: Redis): LexicalEngine {
  return timedEngine(pickEngine(config, db, redis));
}

function pickEngine(config: Config, db: Knex, redis: Redis): LexicalEngine {
  if (config.searchEngine === 'typesense' && config.typesense) {
    return new TypesenseEngine({
      url: config.typesense.url,
      apiKey: config.typesense.apiKey,
      collectionPrefix: config.queuePrefix,
      setUsage: new SetUsage(redis, `${config.queuePrefix}:alt-sets`),
    });
  }
  return new PostgresEngine(db);
}
