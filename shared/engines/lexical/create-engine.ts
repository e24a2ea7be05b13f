import type { Knex } from 'knex';
import type { Config } from '../../platform/config.js';
import type { LexicalEngine } from './port.js';
import { PostgresEngine } from './postgres.engine.js';
import { TypesenseEngine } from './typesense.engine.js';
import { timedEngine } from './timed.engine.js';
import { EngineGate, gatedEngine } from './gated.engine.js';
import { watchEngineQueue } from '../../platform/metrics.js';

/**
 * The configured lexical engine (its searches timed for /metrics, and at most
 * SEARCH_ENGINE_CONCURRENCY at once, served by store in turn); the only place that knows which
 * adapters exist.
 */
export function createLexicalEngine(config: Config, db: Knex): LexicalEngine {
  const timed = timedEngine(pickEngine(config, db));
  if (config.searchEngineConcurrency <= 0) return timed;
  const gate = new EngineGate(config.searchEngineConcurrency);
  watchEngineQueue(() => gate.queued);
  return gatedEngine(timed, gate);
}

function pickEngine(config: Config, db: Knex): LexicalEngine {
  if (config.searchEngine === 'typesense' && config.typesense) {
    return new TypesenseEngine({ url: config.typesense.url, apiKey: config.typesense.apiKey, collectionPrefix: config.queuePrefix });
  }
  return new PostgresEngine(db);
}
