import { z } from 'zod';
import { DEV_SEALING_KEY, parseSealingKey } from './sealed.js';
import type { BreakerOptions } from './breaker.js';

/** Environment variables the service reads, with defaults that run on one box. */
/**
 * A cron pattern as BullMQ's job schedulers read it: 5 fields (minute first) or 6 (seconds first).
 * Checked here, since a bad one otherwise passes and stops every worker process at start on a
 * parser's stack trace, after some of the schedules were already written.
 */
const CRON_NAME = '(?:MON|TUE|WED|THU|FRI|SAT|SUN|JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)';
const CRON_NAMES = new RegExp(`^${CRON_NAME}(?:-${CRON_NAME})?(?:,${CRON_NAME}(?:-${CRON_NAME})?)*$`, 'i');
const Cron = z
  .string()
  .trim()
  .refine((s) => {
    const fields = s.split(/\s+/);
    // Digits and the operators, or day and month names (MON-FRI, JAN,MAR); the scheduler's parser judges the rest.
    return (fields.length === 5 || fields.length === 6) && fields.every((f) => /^[0-9*?/,#LW-]+$/.test(f) || CRON_NAMES.test(f));
  }, 'a cron pattern of 5 or 6 fields, such as "0 3 * * *"');
/** An IANA time zone name the runtime knows (a misspelt one would fail the same way as a bad cron). */
const TimeZone = z.string().refine((tz) => {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}, 'an IANA time zone such as Asia/Riyadh');

const Env = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().default('0.0.0.0'),
  DATABASE_URL: z.string().url().default('postgres://postgres@127.0.0.1:5432/postgres'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  QUEUE_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default('pss'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  MIGRATE_ON_START: z.enum(['true', 'false']).optional(),
  API_PROCESSES: z.coerce.number().int().min(1).max(64).default(1),
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(4 * 1024 * 1024),
  JSON_LARGE_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(256 * 1024),
  JSON_LARGE_BODY_CONCURRENCY: z.coerce.number().int().min(1).default(1),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(30_000),
  EVENTS_BUFFER_ROWS: z.coerce.number().int().min(100).max(1_000_000).default(50_000),
  RATE_LIMIT_PUBLIC_PER_S: z.coerce.number().int().positive().default(50),
  RATE_LIMIT_SECRET_PER_S: z.coerce.number().int().positive().default(200),
  RATE_LIMIT_SESSION_PER_S: z.coerce.number().int().positive().default(100),
  AUTH_FAILURES_PER_MINUTE: z.coerce.number().int().positive().default(30),
  AUTH_FAILURES_PER_PREFIX_PER_MINUTE: z.coerce.number().int().positive().default(60),
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  API_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(3000),
  SESSION_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  IDEMPOTENCY_TTL_HOURS: z.coerce.number().positive().min(24).default(48),
  IDEMPOTENCY_LEASE_S: z.coerce.number().int().min(3).max(300).default(15),
  IDEMPOTENCY_FLUSH_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  SECRET_ENCRYPTION_KEY: z.string().optional(),
  SEARCH_ENGINE: z.enum(['postgres', 'typesense']).default('postgres'),
  TYPESENSE_URL: z.string().url().optional(),
  TYPESENSE_API_KEY: z.string().optional(),
  QDRANT_URL: z.string().url().optional(),
  OPENAI_BASE_URL: z.string().url().optional(),
  OPENAI_API_KEY: z.string().optional(),
  LLM_MODEL: z.string().min(1).default('gpt-4o-mini'),
  LLM_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(600),
  LLM_PRICE_INPUT_USD_PER_MTOK: z.coerce.number().min(0).default(0.15),
  LLM_PRICE_OUTPUT_USD_PER_MTOK: z.coerce.number().min(0).default(0.6),
  AI_BUDGET_MICROS_USD: z.coerce.number().int().min(0).default(5_000_000),
  AI_CACHE_TTL_S: z.coerce
    .number()
    .int()
    .min(1)
    .default(7 * 86400),
  AI_FAILURE_TTL_S: z.coerce
    .number()
    .int()
    .min(1)
    .default(10 * 60),
  PROVIDER_BREAKER_FAILURES: z.coerce.number().int().min(1).max(1000).default(5),
  PROVIDER_BREAKER_COOLDOWN_MS: z.coerce.number().int().min(100).default(30_000),
  PROVIDER_BREAKER_MAX_COOLDOWN_MS: z.coerce.number().int().min(100).default(300_000),
  TRANSLATION_PROVIDER: z.enum(['auto', 'none']).default('auto'),
  TRANSLATION_MODEL: z.string().min(1).default('gpt-4o-mini'),
  TRANSLATION_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  TRANSLATION_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(3),
  TRANSLATION_PRICE_INPUT_PER_MTOK: z.coerce.number().min(0).default(0.15),
  TRANSLATION_PRICE_OUTPUT_PER_MTOK: z.coerce.number().min(0).default(0.6),
  TRANSLATION_BATCH_FIELDS: z.coerce.number().int().min(1).max(200).default(25),
  TRANSLATION_BATCH_CHARS: z.coerce.number().int().min(200).default(8000),
  TRANSLATION_PARALLEL_CALLS: z.coerce.number().int().min(1).max(64).default(4),
  TRANSLATION_CHUNK_FIELDS: z.coerce.number().int().min(1).max(2000).default(200),
  WORKER_CONCURRENCY: z.string().default(''),
  WORKER_LOCK_MS: z.coerce.number().int().min(500).default(10_000),
  REDIS_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).default(2_000),
  SEARCH_CACHE_TTL_MS: z.coerce.number().int().min(0).default(60_000),
  SEARCH_CACHE_MAX_MB: z.coerce.number().min(1).default(64),
  SEARCH_CACHE_WRITE_GRACE_MS: z.coerce.number().int().min(0).default(0),
  RESPONSE_SCHEMA_CHECK: z.enum(['true', 'false']).default('false'),
  VOCAB_DEBOUNCE_MS: z.coerce.number().int().min(100).default(30_000),
  SWEEP_EVERY_MS: z.coerce.number().int().min(10_000).default(300_000),
  PURGE_EVERY_MS: z.coerce.number().int().min(60_000).default(3_600_000),
  // A process marks a set it keeps using once an hour (typesense.set-usage.ts REFRESH_MS): a set in use must outlive that.
  ALT_SET_RETENTION_HOURS: z.coerce.number().int().min(2).max(8760).default(24),
  // The search log and events feed 90-day synonym mining and 60-day click learning: never less.
  ANALYTICS_RETENTION_DAYS: z.coerce.number().int().min(90).max(3650).default(90),
  JOB_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
  // A merchant's sync job may pause over a weekend or a holiday: a day at the very least.
  SYNC_IDLE_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  MINING_CRON: Cron.default('0 3 * * *'),
  MINING_TZ: TimeZone.optional(),
  FAULT_STAGE_DELAY_MS: z.coerce.number().int().min(0).default(0),
  VISIBLE_WITHIN_S: z.coerce.number().positive().default(5),
  SHARED_DATA_DIR: z.string().default('../shared/data'),
  BILLING_PROVIDER: z.enum(['mock', 'stripe', 'paddle']).default('mock'),
  BILLING_DEFAULT_PLAN: z.string().min(1).max(32).default('free'),
  PUBLIC_BASE_URL: z.string().url().optional(),
  MOCK_WEBHOOK_SECRET: z.string().min(16).optional(),
  STRIPE_API_KEY: z.string().optional(),
  STRIPE_API_URL: z.string().url().optional(),
  STRIPE_WEBHOOK_SECRET: z.string().optional(),
  STRIPE_PRICES: z.string().default(''),
  PADDLE_API_KEY: z.string().optional(),
  PADDLE_API_URL: z.string().url().default('https://api.paddle.com'),
  PADDLE_WEBHOOK_SECRET: z.string().optional(),
  PADDLE_WEBHOOK_TOLERANCE_S: z.coerce.number().int().min(1).max(3600).default(300),
  PADDLE_PRICES: z.string().default(''),
  BILLING_DUNNING_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  BILLING_PERIODS_EVERY_MS: z.coerce.number().int().min(1000).default(60_000),
  BILLING_RECONCILE_CRON: Cron.default('30 4 * * *'),
  BILLING_MAX_CONCURRENT: z.coerce.number().int().min(1).max(8).default(3),
  BILLING_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(1000),
  BILLING_PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  USAGE_METERING: z.enum(['on', 'off']).default('on'),
  USAGE_ROLLUP_EVERY_MS: z.coerce.number().int().min(500).default(10_000),
  METRICS_TOKEN: z.string().min(16).optional(),
  METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  METRICS_HOST: z.string().default('127.0.0.1'),
  WORKER_METRICS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
  QUEUE_DASHBOARD_WRITE: z.enum(['true', 'false']).default('false'),
  OPERATOR_TENANT_IDS: z.string().default(''),
  WEBHOOK_ALLOW_PRIVATE: z.enum(['true', 'false']).default('false'),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  WEBHOOK_MAX_RESPONSE_BYTES: z.coerce
    .number()
    .int()
    .min(0)
    .default(64 * 1024),
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(1).default(30_000),
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(30).default(12),
  WEBHOOK_DISABLE_AFTER: z.coerce.number().int().min(1).default(3),
  EXPORT_DIR: z.string().default('./var/exports'),
  EXPORT_LINK_TTL_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(24),
  VECTOR_STORE: z.enum(['postgres', 'qdrant']).default('postgres'),
  QDRANT_API_KEY: z.string().optional(),
  EMBEDDER: z.enum(['catalog', 'openai']).default('catalog'),
  EMBEDDING_MODEL: z.string().min(1).default('text-embedding-3-small'),
  EMBEDDING_PRICE_USD_PER_MTOK: z.coerce.number().min(0).default(0.02),
  EMBEDDING_BATCH: z.coerce.number().int().min(1).max(2048).default(128),
  QUERY_EMBED_TIMEOUT_MS: z.coerce.number().int().min(50).max(10_000).default(400),
  VECTOR_MEMORY_MB: z.coerce.number().int().min(1).default(512),
  CO_VIEWS_EVERY_MS: z.coerce
    .number()
    .int()
    .min(1000)
    .default(15 * 60_000),
});

export interface Config {
  env: 'development' | 'test' | 'production';
  port: number;
  host: string;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  logLevel: 'debug' | 'info' | 'warn' | 'error' | 'silent';
  migrateOnStart: boolean;
  /** `npm run api`: API processes sharing the port (node:cluster), one per core the API may use. */
  apiProcesses: number;
  bodyLimitBytes: number;
  /** Request bodies of at least `bytes` (catalog batches) are parsed and handled `concurrency` at a time per API process: they bound its heap. */
  largeBodies: { bytes: number; concurrency: number };
  authCacheTtlMs: number;
  /** Shopper events an API process holds unwritten at most (while Postgres is unreachable): past it /v1/events answers 503. */
  eventsBufferRows: number;
  rateLimits: { public: number; secret: number; session: number };
  /** Failed authentications allowed per minute, per client address and per key prefix, before 429 auth_throttled. */
  authFailureLimits: { perAddress: number; perPrefix: number };
  /** Proxies in front of the API whose X-Forwarded-For entries are trusted for the client address (0: the socket's address). */
  trustedProxyHops: number;
  /** Postgres statement_timeout of the API process's pool (0: none): no request waits on one statement longer. Workers have none. */
  apiStatementTimeoutMs: number;
  sessionTtlHours: number;
  idempotencyTtlHours: number;
  /** An in-flight Idempotency-Key claim's lease (renewed every third of it while its request runs). */
  idempotencyLeaseS: number;
  /** How often an API process moves answers kept in Redis during a Postgres outage into Postgres. */
  idempotencyFlushMs: number;
  /** AES-256-GCM key sealing secrets kept at rest (idempotent replays of new keys). */
  secretEncryptionKey: Buffer;
  /** True when SECRET_ENCRYPTION_KEY was not set and the published development key is used (the API warns). */
  secretEncryptionKeyIsDefault: boolean;
  searchEngine: 'postgres' | 'typesense';
  typesense?: { url: string; apiKey: string };
  /** Typesense: a synonym set of alternatives no process has written or used for this long is deleted (sweep-alternatives, every `retention.everyMs`). */
  altSetRetentionHours: number;
  qdrantUrl?: string;
  openaiBaseUrl?: string;
  /**
   * AI query rewriting: the chat model, its hard timeout, prices (USD per million tokens), the
   * default monthly budget per store, the cache life and how long a permanent failure is remembered.
   */
  llm: {
    apiKey?: string;
    model: string;
    timeoutMs: number;
    priceInput: number;
    priceOutput: number;
    budgetMicros: number;
    cacheTtlS: number;
    failureTtlS: number;
  };
  /** The search path's breaker for each outside provider (query embedder, AI rewrite model), per process. */
  providerBreaker: BreakerOptions;
  /**
   * Machine translation (Translator port). `provider` is set when OPENAI_BASE_URL or OPENAI_API_KEY
   * is (and TRANSLATION_PROVIDER is not `none`); without it backfills queue items for people.
   */
  translation: {
    provider?: { baseUrl?: string; apiKey?: string };
    model: string;
    timeoutMs: number;
    maxRetries: number;
    /** USD per million input and output tokens (cost_month_usd, ai_cost_micros_usd, estimates). */
    price: { input: number; output: number };
    /** Texts and characters per provider call, calls in flight per chunk, fields per pipeline chunk. */
    batchFields: number;
    batchChars: number;
    parallelCalls: number;
    chunkFields: number;
  };
  /** Per-queue worker concurrency, e.g. `catalog=4,jobs=2`. */
  workerConcurrency: Record<string, number>;
  /**
   * BullMQ lock: the jobs of a worker that died are found stalled within this plus the stalled-check
   * interval (half of it, at most 5 s) and re-run by another worker.
   */
  workerLockMs: number;
  /** Longest a request waits on one Redis command (queueing a job, a counter) before failing as dependency_unavailable. */
  redisCommandTimeoutMs: number;
  /** Catalog changes within one window rebuild the vocabulary and suggestions once, after the window. */
  vocabDebounceMs: number;
  /** How often sweep-unindexed looks for products left unindexed. */
  sweepEveryMs: number;
  /**
   * Data retention (purge-expired, every `everyMs`): days the search log and events, finished jobs
   * rows and finished notification deliveries are kept (shared/maintenance/retention.ts); days a
   * full catalog sync may go without a batch before it expires (its seen set purged, 410 `sync_expired`).
   */
  retention: { everyMs: number; analyticsDays: number; jobDays: number; deliveryDays: number; syncIdleDays: number };
  /** When the daily synonym mining fan-out runs (cron, and its time zone; default the process's). */
  mining: { cron: string; tz?: string };
  /** Life of a cached search result (0: no cache); index and synonym changes drop entries sooner. */
  searchCacheTtlMs: number;
  /** Bytes (MiB) the result cache of one API process may hold, all tenants together; suggest previews and facet counts a quarter each beside it. */
  searchCacheMaxMb: number;
  /** After a catalog write, how long a tenant's cached results are still answered while refreshed (0: dropped at once). */
  searchCacheWriteGraceMs: number;
  /** Fault injection for tests: every stage waits this long before running (ignored in production). */
  faultStageDelayMs: number;
  /** Every answer checked against its route's documented schema (a mismatch is a 500); on in tests, off in production. */
  checkResponses: boolean;
  visibleWithinS: number;
  sharedDataDir: string;
  /** Operations (README, Operations): /metrics access, the queue dashboard, outbound notifications, tenant data exports. */
  ops: {
    /** Bearer token for GET /metrics on the API port; without it (and without metricsPort) /metrics answers 404. */
    metricsToken?: string;
    /** An admin listener serving only /metrics, without token, on metricsHost (the API's; with API_PROCESSES > 1 the primary's, aggregated). */
    metricsPort?: number;
    metricsHost: string;
    workerMetricsPort?: number;
    /** The queue dashboard may retry, remove and promote jobs (otherwise it only shows them). */
    queueDashboardWrite: boolean;
    /** Stores whose admin keys and dashboard sessions may open the queue dashboard (it shows every store's jobs). */
    operatorTenantIds: string[];
    webhooks: { allowPrivate: boolean; timeoutMs: number; maxResponseBytes: number; retryBaseMs: number; maxAttempts: number; disableAfter: number };
    exportDir: string;
    exportLinkTtlHours: number;
  };
  /**
   * Billing: the payment provider, where the service is reached from outside (checkout return
   * and mock pages; default: the request's own origin), webhook secrets, price ids per
   * `plan:interval` (`starter:month=price_123,...`), dunning days before past_due ends, schedules.
   */
  billing: {
    provider: 'mock' | 'stripe' | 'paddle';
    /** The plan of a tenant without a subscription (free; tests and the demo use enterprise so nothing caps them). */
    defaultPlan: string;
    publicBaseUrl?: string;
    mockWebhookSecret: string;
    stripe: { apiKey?: string; apiUrl?: string; webhookSecret?: string; prices: Record<string, string> };
    paddle: { apiKey?: string; apiUrl: string; webhookSecret?: string; toleranceS: number; prices: Record<string, string> };
    dunningDays: number;
    periodsEveryMs: number;
    reconcileCron: string;
    /**
     * Changes of a subscription (change-plan, add-on purchase, cancel) running at once per API
     * process, each holding a pooled connection and its store's lock through the provider's call;
     * how long one waits for a free place, or for its store's lock, before a retryable answer;
     * and the bound on each HTTP request to Stripe or Paddle.
     */
    changes: { maxConcurrent: number; waitMs: number; providerTimeoutMs: number };
  };
  /** Usage metering and the searches quota on the search path (off only for benchmarks), and how often counters roll up into Postgres. */
  usage: { metering: boolean; rollupEveryMs: number };
  /**
   * Vectors: the store (`postgres`: vectors in Postgres searched in the API process; `qdrant`), the
   * embedder (`catalog`: trained per store; `openai`: an OpenAI-compatible /embeddings server), its
   * model, price and batch size, the hard limit of a search's query embedding by a provider (no
   * retries; past it the search answers lexically), the memory the in-process store may hold, and
   * how often the recommendation and click-learning stages recompute.
   */
  vectors: {
    store: 'postgres' | 'qdrant';
    qdrant?: { url: string; apiKey?: string };
    embedder: 'catalog' | 'openai';
    embeddingModel: string;
    embeddingPricePerMtok: number;
    embeddingBatch: number;
    queryEmbedTimeoutMs: number;
    memoryBytes: number;
    recomputeEveryMs: number;
  };
}

export class ConfigError extends Error {}

/** Parses the environment once; throws a ConfigError listing every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const sealingKey = e.SECRET_ENCRYPTION_KEY ? parseSealingKey(e.SECRET_ENCRYPTION_KEY) : null;
  if (e.SECRET_ENCRYPTION_KEY && !sealingKey) {
    throw new ConfigError('invalid configuration:\n  SECRET_ENCRYPTION_KEY: 32 bytes as 64 hex characters or base64 (e.g. `openssl rand -hex 32`)');
  }
  if (!sealingKey && e.NODE_ENV === 'production') {
    throw new ConfigError(
      'invalid configuration:\n  SECRET_ENCRYPTION_KEY: required in production (32 bytes as 64 hex characters, e.g. `openssl rand -hex 32`)',
    );
  }
  if (e.NODE_ENV === 'production' && e.BILLING_PROVIDER === 'mock' && !e.MOCK_WEBHOOK_SECRET) {
    throw new ConfigError('invalid configuration:\n  MOCK_WEBHOOK_SECRET: required in production when BILLING_PROVIDER=mock');
  }
  if (e.VECTOR_STORE === 'qdrant' && !e.QDRANT_URL) throw new ConfigError('invalid configuration:\n  VECTOR_STORE=qdrant needs QDRANT_URL');
  if (e.SEARCH_ENGINE === 'typesense' && (!e.TYPESENSE_URL || !e.TYPESENSE_API_KEY)) {
    throw new ConfigError('invalid configuration:\n  SEARCH_ENGINE=typesense needs TYPESENSE_URL and TYPESENSE_API_KEY');
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    queuePrefix: e.QUEUE_PREFIX,
    logLevel: e.LOG_LEVEL,
    migrateOnStart: e.MIGRATE_ON_START ? e.MIGRATE_ON_START === 'true' : e.NODE_ENV !== 'production',
    apiProcesses: e.API_PROCESSES,
    bodyLimitBytes: e.BODY_LIMIT_BYTES,
    largeBodies: { bytes: e.JSON_LARGE_BODY_BYTES, concurrency: e.JSON_LARGE_BODY_CONCURRENCY },
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS,
    eventsBufferRows: e.EVENTS_BUFFER_ROWS,
    rateLimits: { public: e.RATE_LIMIT_PUBLIC_PER_S, secret: e.RATE_LIMIT_SECRET_PER_S, session: e.RATE_LIMIT_SESSION_PER_S },
    authFailureLimits: { perAddress: e.AUTH_FAILURES_PER_MINUTE, perPrefix: e.AUTH_FAILURES_PER_PREFIX_PER_MINUTE },
    trustedProxyHops: e.TRUSTED_PROXY_HOPS,
    apiStatementTimeoutMs: e.API_STATEMENT_TIMEOUT_MS,
    sessionTtlHours: e.SESSION_TTL_HOURS,
    idempotencyTtlHours: e.IDEMPOTENCY_TTL_HOURS,
    idempotencyLeaseS: e.IDEMPOTENCY_LEASE_S,
    idempotencyFlushMs: e.IDEMPOTENCY_FLUSH_MS,
    secretEncryptionKey: sealingKey ?? DEV_SEALING_KEY,
    secretEncryptionKeyIsDefault: !sealingKey,
    searchEngine: e.SEARCH_ENGINE,
    typesense: e.TYPESENSE_URL ? { url: e.TYPESENSE_URL, apiKey: e.TYPESENSE_API_KEY ?? '' } : undefined,
    altSetRetentionHours: e.ALT_SET_RETENTION_HOURS,
    qdrantUrl: e.QDRANT_URL,
    openaiBaseUrl: e.OPENAI_BASE_URL,
    llm: {
      apiKey: e.OPENAI_API_KEY || undefined,
      model: e.LLM_MODEL,
      timeoutMs: e.LLM_TIMEOUT_MS,
      priceInput: e.LLM_PRICE_INPUT_USD_PER_MTOK,
      priceOutput: e.LLM_PRICE_OUTPUT_USD_PER_MTOK,
      budgetMicros: e.AI_BUDGET_MICROS_USD,
      cacheTtlS: e.AI_CACHE_TTL_S,
      failureTtlS: e.AI_FAILURE_TTL_S,
    },
    providerBreaker: {
      failures: e.PROVIDER_BREAKER_FAILURES,
      coolDownMs: e.PROVIDER_BREAKER_COOLDOWN_MS,
      maxCoolDownMs: Math.max(e.PROVIDER_BREAKER_MAX_COOLDOWN_MS, e.PROVIDER_BREAKER_COOLDOWN_MS),
    },
    translation: {
      provider:
        e.TRANSLATION_PROVIDER !== 'none' && (e.OPENAI_BASE_URL || e.OPENAI_API_KEY) ? { baseUrl: e.OPENAI_BASE_URL, apiKey: e.OPENAI_API_KEY } : undefined,
      model: e.TRANSLATION_MODEL,
      timeoutMs: e.TRANSLATION_TIMEOUT_MS,
      maxRetries: e.TRANSLATION_MAX_RETRIES,
      price: { input: e.TRANSLATION_PRICE_INPUT_PER_MTOK, output: e.TRANSLATION_PRICE_OUTPUT_PER_MTOK },
      batchFields: e.TRANSLATION_BATCH_FIELDS,
      batchChars: e.TRANSLATION_BATCH_CHARS,
      parallelCalls: e.TRANSLATION_PARALLEL_CALLS,
      chunkFields: e.TRANSLATION_CHUNK_FIELDS,
    },
    workerConcurrency: parseConcurrency(e.WORKER_CONCURRENCY),
    workerLockMs: e.WORKER_LOCK_MS,
    redisCommandTimeoutMs: e.REDIS_COMMAND_TIMEOUT_MS,
    vocabDebounceMs: e.VOCAB_DEBOUNCE_MS,
    sweepEveryMs: e.SWEEP_EVERY_MS,
    retention: {
      everyMs: e.PURGE_EVERY_MS,
      analyticsDays: e.ANALYTICS_RETENTION_DAYS,
      jobDays: e.JOB_RETENTION_DAYS,
      deliveryDays: e.WEBHOOK_DELIVERY_RETENTION_DAYS,
      syncIdleDays: e.SYNC_IDLE_DAYS,
    },
    mining: { cron: e.MINING_CRON, tz: e.MINING_TZ },
    searchCacheTtlMs: e.SEARCH_CACHE_TTL_MS,
    searchCacheMaxMb: e.SEARCH_CACHE_MAX_MB,
    searchCacheWriteGraceMs: e.SEARCH_CACHE_WRITE_GRACE_MS,
    checkResponses: e.RESPONSE_SCHEMA_CHECK === 'true',
    faultStageDelayMs: e.NODE_ENV === 'production' ? 0 : e.FAULT_STAGE_DELAY_MS,
    visibleWithinS: e.VISIBLE_WITHIN_S,
    sharedDataDir: e.SHARED_DATA_DIR,
    billing: {
      provider: e.BILLING_PROVIDER,
      defaultPlan: e.BILLING_DEFAULT_PLAN,
      publicBaseUrl: e.PUBLIC_BASE_URL?.replace(/\/$/, ''),
      mockWebhookSecret: e.MOCK_WEBHOOK_SECRET ?? 'mock_whsec_development_only',
      stripe: {
        apiKey: e.STRIPE_API_KEY,
        apiUrl: e.STRIPE_API_URL,
        webhookSecret: e.STRIPE_WEBHOOK_SECRET,
        prices: parsePairs(e.STRIPE_PRICES, 'STRIPE_PRICES'),
      },
      paddle: {
        apiKey: e.PADDLE_API_KEY,
        apiUrl: e.PADDLE_API_URL,
        webhookSecret: e.PADDLE_WEBHOOK_SECRET,
        toleranceS: e.PADDLE_WEBHOOK_TOLERANCE_S,
        prices: parsePairs(e.PADDLE_PRICES, 'PADDLE_PRICES'),
      },
      dunningDays: e.BILLING_DUNNING_DAYS,
      periodsEveryMs: e.BILLING_PERIODS_EVERY_MS,
      reconcileCron: e.BILLING_RECONCILE_CRON,
      changes: { maxConcurrent: e.BILLING_MAX_CONCURRENT, waitMs: e.BILLING_WAIT_MS, providerTimeoutMs: e.BILLING_PROVIDER_TIMEOUT_MS },
    },
    usage: { metering: e.USAGE_METERING === 'on', rollupEveryMs: e.USAGE_ROLLUP_EVERY_MS },
    ops: {
      metricsToken: e.METRICS_TOKEN,
      metricsPort: e.METRICS_PORT,
      metricsHost: e.METRICS_HOST,
      workerMetricsPort: e.WORKER_METRICS_PORT,
      queueDashboardWrite: e.QUEUE_DASHBOARD_WRITE === 'true',
      operatorTenantIds: e.OPERATOR_TENANT_IDS.split(',')
        .map((x) => x.trim())
        .filter(Boolean),
      webhooks: {
        allowPrivate: e.WEBHOOK_ALLOW_PRIVATE === 'true',
        timeoutMs: e.WEBHOOK_TIMEOUT_MS,
        maxResponseBytes: e.WEBHOOK_MAX_RESPONSE_BYTES,
        retryBaseMs: e.WEBHOOK_RETRY_BASE_MS,
        maxAttempts: e.WEBHOOK_MAX_ATTEMPTS,
        disableAfter: e.WEBHOOK_DISABLE_AFTER,
      },
      exportDir: e.EXPORT_DIR,
      exportLinkTtlHours: e.EXPORT_LINK_TTL_HOURS,
    },
    vectors: {
      store: e.VECTOR_STORE,
      qdrant: e.QDRANT_URL ? { url: e.QDRANT_URL, apiKey: e.QDRANT_API_KEY } : undefined,
      embedder: e.EMBEDDER,
      embeddingModel: e.EMBEDDING_MODEL,
      embeddingPricePerMtok: e.EMBEDDING_PRICE_USD_PER_MTOK,
      embeddingBatch: e.EMBEDDING_BATCH,
      queryEmbedTimeoutMs: e.QUERY_EMBED_TIMEOUT_MS,
      memoryBytes: e.VECTOR_MEMORY_MB * 1024 * 1024,
      recomputeEveryMs: e.CO_VIEWS_EVERY_MS,
    },
  };
}

/** `a=b,c=d` as a map (price ids per `plan:interval`). */
function parsePairs(spec: string, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [key, value] = part.split('=');
    if (!key || !value) throw new ConfigError(`invalid configuration:\n  ${name}: "${part}" is not plan:interval=price_id`);
    out[key] = value;
  }
  return out;
}

function parseConcurrency(spec: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of spec
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)) {
    const [queue, n] = part.split('=');
    const value = Number(n);
    if (!queue || !Number.isInteger(value) || value < 1) {
      throw new ConfigError(`invalid configuration:\n  WORKER_CONCURRENCY: "${part}" is not queue=N`);
    }
    out[queue] = value;
  }
  return out;
}
