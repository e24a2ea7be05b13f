import type { Knex } from 'knex';
import { Redis } from 'ioredis';
import type { Config } from './platform/config.js';
import { createDb } from './platform/db/knex.js';
import { createLogger, type Logger } from './platform/logger.js';
import { Queues } from './platform/queue/queues.js';
import { Authenticator } from './access/authenticator.js';
import { RateLimiter } from './access/rate-limiter.js';
import { createRepos, type Repos } from './repos.js';
import { createLexicalEngine } from './engines/lexical/create-engine.js';
import type { LexicalEngine } from './engines/lexical/port.js';
import { SearchLogWriter } from './search/search-log.js';
import { UsageCounter } from './usage/usage-counter.js';
import { TenantContexts } from './search/tenant-context.js';
import { EventWriter } from './events/event-writer.js';
import { indexChangedChannel } from './search/index-notices.js';
import { vocabularyChangedChannel } from './search/vocabulary-notices.js';
import { contextChangedChannel } from './search/context-notices.js';
import { synonymsChangedChannel } from './search/synonym-rules.js';

/** Everything the API, the workers and the scripts use; built once per process. */
export interface Deps {
  config: Config;
  logger: Logger;
  db: Knex;
  redis: Redis;
  queues: Queues;
  repos: Repos;
  engine: LexicalEngine;
  searchLog: SearchLogWriter;
  usage: UsageCounter;
  /** Shopper events, buffered and written in batches off the request path. */
  events: EventWriter;
  /** Per-process cache of what search needs about each tenant (mapping, vocabulary, synonyms). */
  contexts: TenantContexts;
  auth: Authenticator;
  rateLimiter: RateLimiter;
  /** Starts background parts (auth invalidation, rate-limit sync); the API calls it. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/** Wires Postgres, Redis and the queues from config; clients connect lazily or in start(). */
export function createDeps(config: Config, overrides: { logger?: Logger } = {}): Deps {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const db = createDb(config.databaseUrl);
  const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3 });
  let sub: Redis | undefined;
  const queues = new Queues(config.redisUrl, config.queuePrefix);
  const repos = createRepos(db, config);
  const auth = new Authenticator(
    { keyByHash: repos.keys.findByHash, sessionByHash: repos.sessions.findByHash, touchLastUsed: repos.keys.touchLastUsed },
    redis,
    `${config.queuePrefix}:auth-invalidate`,
    config.authCacheTtlMs,
    logger,
  );
  const rateLimiter = new RateLimiter(redis, config.queuePrefix, logger);
  const engine = createLexicalEngine(config, db);
  const searchLog = new SearchLogWriter(repos.searchLog.insertMany, logger);
  const usage = new UsageCounter(redis, config.queuePrefix, logger);
  const events = new EventWriter((rows) => repos.events.insertMany(rows), logger);
  const contexts = new TenantContexts({ db, repos, engine }, config.searchCacheTtlMs);
  return {
    config, logger, db, redis, queues, repos, auth, rateLimiter, engine, searchLog, usage, events, contexts,
    async start() {
      sub = new Redis(config.redisUrl, { lazyConnect: true });
      await auth.start(sub);
      await contexts.listen(sub, {
        synonyms: synonymsChangedChannel(config.queuePrefix), index: indexChangedChannel(config.queuePrefix),
        vocabulary: vocabularyChangedChannel(config.queuePrefix), context: contextChangedChannel(config.queuePrefix),
      });
      rateLimiter.start();
      searchLog.start();
      usage.start();
      events.start();
    },
    async close() {
      rateLimiter.stop();
      await auth.stop();
      await searchLog.stop();
      await usage.stop();
      await events.stop();
      await queues.close();
      await db.destroy();
      if (sub) sub.disconnect();
      redis.disconnect();
    },
  };
}
