import type { Knex } from 'knex';
import type { Config } from '../../config.js';
import type { LexicalEngine } from './port.js';
import { PostgresEngine } from './postgres.engine.js';

/** The configured lexical engine; the only place that knows which adapters exist. */
export function createLexicalEngine(config: Config, db: Knex): LexicalEngine {
  return new PostgresEngine(db);
}
