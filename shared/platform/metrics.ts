import { AsyncLocalStorage } from 'node:async_hooks';
import client from 'prom-client';

/**
 * Prometheus metrics of this process. The series live in prom-client's default registry, one per
 * process: a counter is not a client (nothing is opened), and with several API processes
 * (node:cluster) the primary aggregates its workers' registries (AggregatorRegistry).
 */
export const registry = client.register;
client.collectDefaultMetrics({ prefix: 'pss_process_' });

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300, 1800, 3600];

export const httpRequests = new client.Counter({
  name: 'pss_http_requests_total',
  help: 'HTTP requests by route and status',
  labelNames: ['method', 'route', 'status'],
});
export const httpSeconds = new client.Histogram({
  name: 'pss_http_request_duration_seconds',
  help: 'HTTP request latency by route and status',
  labelNames: ['method', 'route', 'status'],
  buckets: SECONDS,
});
/** Search and suggest latency split into the engine's part (every engine call the request made) and the service's (the rest). */
export const searchSeconds = new client.Histogram({
  name: 'pss_search_duration_seconds',
  help: 'search and suggest latency, engine and service parts',
  labelNames: ['kind', 'part'],
  buckets: SECONDS,
});
export const engineCalls = new client.Histogram({
  name: 'pss_engine_call_duration_seconds',
  help: 'lexical engine calls',
  labelNames: ['engine', 'op'],
  buckets: SECONDS,
});
export const cacheLookups = new client.Counter({
  name: 'pss_cache_lookups_total',
  help: 'in-process cache lookups (hit, stale: answered and refreshed, miss)',
  labelNames: ['cache', 'result'],
});
export const jobSeconds = new client.Histogram({
  name: 'pss_job_duration_seconds',
  help: 'pipeline stage run time per queue and stage',
  labelNames: ['queue', 'stage', 'outcome'],
  buckets: JOB_SECONDS,
});
export const webhookDeliveries = new client.Counter({
  name: 'pss_webhook_deliveries_total',
  help: 'outbound notification delivery attempts',
  labelNames: ['kind', 'outcome'],
});
/** Full-sync cleanups resume-syncs stopped restarting after SYNC_CLEANUP_MAX_RESTARTS failures: each needs an operator. */
export const syncCleanupsGivenUp = new client.Counter({
  name: 'pss_sync_cleanups_given_up_total',
  help: 'full-sync cleanups left failed after every restart by resume-syncs',
});
/** Buffered rows (shopper events, search log) Postgres refused for their data: each was dropped and logged, its batch's other rows written. */
export const rowsRefused = new client.Counter({
  name: 'pss_buffered_rows_refused_total',
  help: 'buffered rows Postgres refused for their data (SQLSTATE class 22 or 23) and that were dropped',
  labelNames: ['table'],
});
/** Billed searches served while their store's plan could not be read: counted, but not checked against a hard limit (X-Service-Usage limit=unknown). */
export const searchesWithoutPlan = new client.Counter({
  name: 'pss_searches_without_plan_total',
  help: "billed searches served without their store's plan (unreadable): counted, not checked against a quota",
});
export const usageCount = new client.Counter({ name: 'pss_usage_total', help: 'billed usage counted by this process', labelNames: ['what'] });

new client.Gauge({
  name: 'pss_cache_hit_ratio',
  help: 'hits (fresh or stale) over lookups since the process started',
  labelNames: ['cache'],
  async collect() {
    const byCache = new Map<string, { hit: number; all: number }>();
    for (const v of (await cacheLookups.get()).values) {
      const name = String(v.labels.cache);
      const c = byCache.get(name) ?? { hit: 0, all: 0 };
      c.all += v.value;
      if (v.labels.result !== 'miss') c.hit += v.value;
      byCache.set(name, c);
    }
    for (const [cache, c] of byCache) this.set({ cache }, c.all ? c.hit / c.all : 0);
  },
});

/** Reads a queue's job counts; each process that knows queues registers them (API and workers). */
export interface QueueCounts {
  /** False once its process part has closed: the source is dropped. */
  alive(): boolean;
  names(): string[];
  counts(queue: string): Promise<Record<string, number>>;
}
const queueSources = new Set<QueueCounts>();
export function watchQueues(source: QueueCounts): () => void {
  queueSources.add(source);
  return () => queueSources.delete(source);
}
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized', 'paused'];
new client.Gauge({
  name: 'pss_queue_jobs',
  help: 'jobs per queue and state, read from Redis at scrape time',
  labelNames: ['queue', 'state'],
  async collect() {
    this.reset();
    for (const { queue, counts } of await readQueues()) for (const state of QUEUE_STATES) this.set({ queue, state }, counts[state] ?? 0);
  },
});
new client.Gauge({
  name: 'pss_queue_depth',
  help: 'jobs waiting to run per queue (waiting + prioritized + delayed)',
  labelNames: ['queue'],
  async collect() {
    this.reset();
    for (const { queue, counts } of await readQueues()) this.set({ queue }, (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.delayed ?? 0));
  },
});
let lastRead: { at: number; value: Promise<Array<{ queue: string; counts: Record<string, number> }>> } | null = null;
/** One read per scrape for both gauges; a queue whose read fails is left out (Redis down: no series rather than a failed scrape). */
function readQueues() {
  if (lastRead && Date.now() - lastRead.at < 500) return lastRead.value;
  for (const s of queueSources) if (!s.alive()) queueSources.delete(s);
  const value = Promise.all(
    [...queueSources].flatMap((s) => s.names().map(async (queue) => ({ queue, counts: await s.counts(queue).catch(() => null) }))),
  ).then((rows) => rows.filter((r): r is { queue: string; counts: Record<string, number> } => r.counts !== null));
  lastRead = { at: Date.now(), value };
  return value;
}

/** Engine time accumulated by the request being served (search and suggest routes run inside a timing scope). */
const engineScope = new AsyncLocalStorage<{ engineS: number }>();
export function withEngineTiming<T>(fn: (scope: { engineS: number }) => Promise<T>): Promise<T> {
  const scope = { engineS: 0 };
  return engineScope.run(scope, () => fn(scope));
}
/** Times one engine call; inside a timing scope its time counts as the request's engine part. */
export async function timeEngine<T>(engine: string, op: string, call: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    return await call();
  } finally {
    const s = (performance.now() - t0) / 1000;
    engineCalls.observe({ engine, op }, s);
    const scope = engineScope.getStore();
    if (scope) scope.engineS += s;
  }
}

export const METRICS_CONTENT_TYPE = registry.contentType;
export function metricsText(): Promise<string> {
  return registry.metrics();
}
