import type { Knex } from 'knex';
import { Redis } from 'ioredis';
import type { Config } from './platform/config.js';
import { createDb } from './platform/db/knex.js';
import { idempotencyRepo } from './platform/db/idempotency.repo.js';
import { idempotencyPendingRepo } from './platform/db/idempotency-pending.repo.js';
import { IdempotencyStore } from './platform/db/idempotency-store.js';
import { Sealer } from './platform/sealed.js';
import { createLogger, type Logger } from './platform/logger.js';
import { Notices } from './platform/notices.js';
import { throttledWarn } from './platform/throttled-log.js';
import { Breaker } from './platform/breaker.js';
import { Queues } from './platform/queue/queues.js';
import { createLexicalEngine } from './engines/lexical/create-engine.js';
import type { LexicalEngine } from './engines/lexical/port.js';
import { accessRepos, Authenticator, AuthThrottle, RateLimiter } from './access/index.js';
import { jobsRepos } from './jobs/index.js';
import { catalogRepos } from './catalog/index.js';
import { AiBudget, MerchState, Rewriter, searchRepos, SearchLogWriter, SearchService, SuggestService, TenantContexts } from './search/index.js';
import { merchandisingRepos } from './merchandising/index.js';
import { experimentsRepos } from './experiments/index.js';
import { createLlm } from './engines/llm/create-llm.js';
import { synonymsRepos } from './synonyms/index.js';
import { eventsRepos, EventWriter } from './events/index.js';
import { UsageCounter, usageRepo } from './usage/index.js';
import {
  billingRepos,
  billingService,
  findPlan,
  planPrice,
  BillingNotifications,
  Entitlements,
  planAiBudget,
  SearchMeter,
  type BillingService,
} from './billing/index.js';
import { createPayments, type PaymentProvider } from './engines/payments/index.js';
import { StorefrontSearch } from './storefront/index.js';
import { translationRepos } from './translation/index.js';
import { createTranslator, type Translator } from './engines/translator/index.js';
import { Notifier, notificationsRepos, notifyJobFinished } from './notifications/index.js';
import { tenantDataRepos } from './tenant-data/index.js';
import { createVectorStore } from './engines/vectors/create-vectors.js';
import type { VectorStore } from './engines/vectors/port.js';
import { createEmbedderSource } from './engines/embedder/create-embedder.js';
import type { EmbedderSource } from './engines/embedder/port.js';
import { QueryVectors } from './vectors/index.js';
import { CardCache, ClickBoosts, RecentViews, Recommender, SignalsCache, recommendRepos } from './recommend/index.js';

/** Every area's repositories over one knex pool. */
function createRepos(db: Knex, config: Config) {
  return {
    ...accessRepos(db),
    ...jobsRepos(db),
    ...catalogRepos(db),
    ...searchRepos(db),
    ...synonymsRepos(db),
    ...eventsRepos(db),
    ...translationRepos(db),
    ...merchandisingRepos(db),
    ...experimentsRepos(db),
    ...recommendRepos(db),
    ...billingRepos(db),
    ...notificationsRepos(db),
    ...tenantDataRepos(db),
    usage: usageRepo(db),
    idempotency: idempotencyRepo(db, config.idempotencyTtlHours, new Sealer(config.secretEncryptionKey), config.idempotencyLeaseS),
  };
}
export type Repos = ReturnType<typeof createRepos>;

/** Something that runs in the background of a process (flushes buffers, syncs counters) between start and stop. */
interface Background {
  start(): void;
  stop(): void | Promise<void>;
}

/**
 * Everything the API, the workers and the scripts use; built once per process. Routes and
 * stages receive it; services take the few parts they use.
 */
export interface Deps {
  config: Config;
  logger: Logger;
  db: Knex;
  redis: Redis;
  queues: Queues;
  repos: Repos;
  /** Idempotency-Key answers: Postgres, or Redis while Postgres is down (moved over when it is back). */
  idempotency: IdempotencyStore;
  engine: LexicalEngine;
  /** Machine translation; null when no provider is configured (backfills then queue items for people). */
  translator: Translator | null;
  /** Change notices between processes (index, context, vocabulary, synonyms). */
  notices: Notices;
  /** Per-process cache of what search and suggest need about each tenant (context, vocabulary, dictionary). */
  contexts: TenantContexts;
  /** Per-process compiled merchandising rules and the running experiment of each tenant. */
  merch: MerchState;
  /** AI query rewriting: model (if configured), answer cache, monthly budget. */
  rewriter: Rewriter;
  search: SearchService;
  suggest: SuggestService;
  /** The Algolia search protocol over search and suggest (InstantSearch, Autocomplete). */
  storefront: StorefrontSearch;
  searchLog: SearchLogWriter;
  usage: UsageCounter;
  /** The configured payment provider (mock by default). */
  payments: PaymentProvider;
  billing: BillingService;
  /** Each tenant's plan and limits, cached per process. */
  entitlements: Entitlements;
  /** Billed-search counting and the searches quota on the search path. */
  meter: SearchMeter;
  /** Outbound hook: usage 80/100 % and subscription changes (the notifications area subscribes). */
  billingNotifications: BillingNotifications;
  /** The plan's products_limit of a tenant (null: none); batch upserts refuse new products past it. */
  productsLimit(tenantId: string): Promise<number | null>;
  /** Shopper events, buffered and written in batches off the request path. */
  events: EventWriter;
  auth: Authenticator;
  rateLimiter: RateLimiter;
  /** Outbound notifications: `notifications.notify(tenantId, kind, payload)` tells the store's subscribed receivers. */
  notifications: Notifier;
  /** Vectors (VectorStore port) and the embedders that make them (Embedder port). */
  vectors: VectorStore;
  embedders: EmbedderSource;
  /** The four recommendation types; each session's recently viewed products (Redis). */
  recommender: Recommender;
  recentViews: RecentViews;
  /** Starts background parts (notices, auth invalidation, buffered writers); the API calls it. */
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Wires Postgres, Redis and the queues from config; clients connect lazily or in start().
 * `role: 'api'` gives the pool the request path's statement timeout (API_STATEMENT_TIMEOUT_MS);
 * workers and scripts run long statements and get none.
 */
export function createDeps(config: Config, overrides: { logger?: Logger; role?: 'api' | 'worker' | 'script' } = {}): Deps {
  const logger = overrides.logger ?? createLogger(config.logLevel);
  const db = createDb(config.databaseUrl, undefined, undefined, overrides.role === 'api' ? config.apiStatementTimeoutMs : 0);
  // Every command answers or fails within the bound, also while Redis is down (commands wait in
  // the offline queue for a reconnect until then): a request never hangs on Redis.
  const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 3, commandTimeout: config.redisCommandTimeoutMs });
  redis.on('error', throttledWarn(logger, 'redis error', { client: 'commands' }));
  let sub: Redis | undefined;
  const queues = new Queues(config.redisUrl, config.queuePrefix, config.redisCommandTimeoutMs, throttledWarn(logger, 'redis error', { client: 'queues' }));
  const repos = createRepos(db, config);
  const authFailures = new RateLimiter(redis, config.queuePrefix, logger, 100, 60_000, 'authfail');
  const auth = new Authenticator(
    { keyByHash: repos.keys.findByHash, sessionByHash: repos.sessions.findByHash, touchLastUsed: repos.keys.touchLastUsed },
    redis,
    `${config.queuePrefix}:auth-invalidate`,
    config.authCacheTtlMs,
    logger,
    new AuthThrottle(authFailures, config.authFailureLimits),
  );
  const rateLimiter = new RateLimiter(redis, config.queuePrefix, logger);
  const engine = createLexicalEngine(config, db, redis);
  const notices = new Notices(redis, config.queuePrefix);
  const searchLog = new SearchLogWriter(repos.searchLog.insertMany, logger);
  const usage = new UsageCounter(redis, config.queuePrefix, logger);
  const payments = createPayments(config, db, (code, interval) => {
    const plan = findPlan(code);
    return plan ? planPrice(plan, interval) : null;
  });
  const billingNotifications = new BillingNotifications(logger);
  const entitlements = new Entitlements(
    { subscription: repos.subscriptions.get, searchesThisMonth: (t) => repos.usage.monthTotal(t, 'search') },
    notices,
    config.billing.defaultPlan,
    {},
    logger,
  );
  const meter = new SearchMeter(usage, entitlements, config.usage.metering);
  const billing = billingService({
    db,
    provider: payments,
    notices,
    notifications: billingNotifications,
    changes: config.billing.changes,
  });
  const productsLimit = async (tenantId: string) => (await entitlements.get(tenantId)).plan.products_limit;
  const events = new EventWriter((rows) => repos.events.insertMany(rows), logger, 1000, 500, config.eventsBufferRows);
  const contexts = new TenantContexts(
    {
      engine,
      tenant: repos.tenants.find,
      mapping: repos.mappings.get,
      profiles: repos.vocabulary.categoryProfiles,
      synonyms: repos.synonyms.enabledFor,
      suggestTerms: repos.vocabulary.suggestTerms,
      vocabulary: repos.vocabulary.terms,
    },
    notices,
  );
  const merch = new MerchState(
    {
      rules: (id) => repos.rules.all(id),
      runningExperiment: (id) => repos.experiments.running(id),
    },
    notices,
  );
  // A subscribed store's plan sets its monthly AI budget; otherwise AI_BUDGET_MICROS_USD.
  const aiBudget = new AiBudget(redis, config.queuePrefix, config.llm.budgetMicros, planAiBudget(entitlements));
  // Embedding calls to a provider count into the same ai_cost_micros_usd metric as AI rewriting.
  const embedders = createEmbedderSource(config, db, (tenantId, micros) => aiBudget.add(tenantId, micros));
  const rewriter = new Rewriter(
    createLlm(config),
    redis,
    aiBudget,
    {
      timeoutMs: config.llm.timeoutMs,
      cacheTtlS: config.llm.cacheTtlS,
      failureTtlS: config.llm.failureTtlS,
      prefix: config.queuePrefix,
    },
    new Breaker(config.providerBreaker),
  );
  const vectors = createVectorStore(config, db);
  const queryVectors = new QueryVectors(
    vectors,
    embedders,
    async (tenantId) => (await entitlements.get(tenantId)).plan.features.hybrid_search,
    config.vectors.queryEmbedTimeoutMs,
    new Breaker(config.providerBreaker),
  );
  const clicks = new ClickBoosts((id) => repos.signals.clickStats(id));
  const recentViews = new RecentViews(redis, config.queuePrefix);
  const cards = new CardCache(engine);
  const signals = new SignalsCache(repos.signals);
  const recommender = new Recommender({
    engine,
    vectors,
    signals,
    recent: recentViews,
    cards,
    attributesOf: async (tenantId, productId) => {
      const row = await repos.products.find(tenantId, productId);
      if (!row) return null;
      const data = row.data as { categories?: Array<{ id?: string } | string>; brand?: string | null };
      const categoryIds = (data.categories ?? []).map((c) => (typeof c === 'string' ? c : (c.id ?? ''))).filter(Boolean);
      return { categoryIds, brand: data.brand ?? null };
    },
  });
  notices.on('vectors', (id) => {
    vectors.changed(id);
    queryVectors.changed(id);
    recommender.clear(id);
  });
  notices.on('signals', (id) => {
    clicks.changed(id);
    signals.changed(id);
    recommender.clear(id);
    // Click learning reorders this store's searches: cached results were ranked without the new clicks.
    search.results.clear(id);
  });
  vectors.onReplaced?.((id) => {
    recommender.clear(id);
    search.results.clear(id);
  });
  notices.on('index', (id) => {
    engine.changed?.(id);
    cards.clear(id);
    recommender.clear(id);
  });
  const cacheBytes = config.searchCacheMaxMb * 2 ** 20;
  const search = new SearchService(
    { engine, contexts, log: searchLog, notices, merch, rewriter, vectors: queryVectors, clicks },
    { ttlMs: config.searchCacheTtlMs, maxBytes: cacheBytes, writeGraceMs: config.searchCacheWriteGraceMs },
  );
  const suggest = new SuggestService(
    { engine, contexts, notices, merch },
    { ttlMs: config.searchCacheTtlMs, maxBytes: cacheBytes / 4, writeGraceMs: config.searchCacheWriteGraceMs },
  );
  const storefront = new StorefrontSearch({
    search: (t, input) => search.search(t, input),
    suggest: (t, input) => suggest.suggest(t, input),
    facetNames: async (t) => (await contexts.get(t))?.facetNames ?? new Set(),
    locales: async (t) => (await contexts.get(t))?.locales ?? [],
    categories: (t) => contexts.dictionaries.get(t),
  });
  const translator = createTranslator(config);
  const notifications = new Notifier({
    receivers: repos.webhookReceivers,
    deliveries: repos.webhookDeliveries,
    queues,
    sealer: new Sealer(config.secretEncryptionKey),
    logger,
    config: config.ops.webhooks,
  });
  // Every end of a job row (whichever stage, reconcile or start failure writes it) tells the store once: finish() writes a row once.
  const finishJob = repos.jobs.finish;
  repos.jobs.finish = async (id, status, fields) => {
    const written = await finishJob(id, status, fields);
    if (written && status !== 'canceled') {
      const row = await repos.jobs.get(id);
      if (row)
        await notifyJobFinished((t, k, p) => notifications.notify(t, k, p), row).catch((err) => logger.warn('job notification not queued', { jobId: id, err }));
    }
    return written;
  };
  // Billing's facts reach the store's receivers: usage at 80/100 % and subscription changes. Inside
  // billing's transaction (db) the delivery rows commit with the change they report; queued after.
  billingNotifications.on(async ({ kind, tenantId, ...payload }, db) => {
    const deliveries = await notifications.record(tenantId, kind === 'usage.threshold' ? 'usage.threshold_reached' : kind, payload, db);
    return () => notifications.queue(deliveries);
  });
  const idempotency = new IdempotencyStore(repos.idempotency, idempotencyPendingRepo(redis, config.queuePrefix), logger, {
    ttlHours: config.idempotencyTtlHours,
    flushMs: config.idempotencyFlushMs,
  });
  const background: Background[] = [rateLimiter, authFailures, searchLog, usage, events, idempotency];
  return {
    config,
    logger,
    db,
    redis,
    queues,
    repos,
    idempotency,
    auth,
    rateLimiter,
    notifications,
    engine,
    translator,
    vectors,
    embedders,
    recommender,
    recentViews,
    notices,
    contexts,
    merch,
    rewriter,
    search,
    suggest,
    storefront,
    searchLog,
    usage,
    events,
    payments,
    billing,
    entitlements,
    meter,
    billingNotifications,
    productsLimit,
    /**
     * Subscribes to invalidations and notices and starts the background writers. Search needs no
     * Redis, so a process started while Redis is down must not wait for it: the subscriptions wait
     * for Redis however long it takes (maxRetriesPerRequest: null) and the process starts at once;
     * meanwhile credentials are re-read every second (Authenticator), as during any outage.
     */
    async start() {
      sub = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: null });
      const link = sub;
      const subscribed = Promise.all([auth.start(link), notices.listen(link)]);
      subscribed.catch((err) => logger.warn('notice subscriptions failed', { err }));
      let unavailable: (err: Error) => void = () => undefined;
      const failing = new Promise<void>((resolve) => {
        unavailable = (err) => {
          logger.warn('Redis unavailable at start; subscribing when it answers', { err });
          resolve();
        };
      });
      link.once('error', unavailable);
      // Later errors are the reconnects' (ioredis retries on its own; watchRedis follows the link).
      link.on('error', () => undefined);
      await Promise.race([subscribed, failing]);
      link.off('error', unavailable);
      for (const b of background) b.start();
    },
    async close() {
      await auth.stop();
      for (const b of background) await b.stop();
      await queues.close();
      await engine.close?.();
      await db.destroy();
      if (sub) sub.disconnect();
      redis.disconnect();
    },
  };
}
