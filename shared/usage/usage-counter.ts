import type { Redis } from 'ioredis';
import type { Logger } from '../platform/logger.js';
import { randomSecret } from '../platform/ids.js';
import { usageCount } from '../platform/metrics.js';

/** UTC day and month of a time, as used in usage keys and the usage header. */
export function usagePeriod(now = new Date()): { day: string; month: string } {
  const iso = now.toISOString();
  return { day: iso.slice(0, 10), month: iso.slice(0, 7) };
}

/** Metrics counted per request in Redis (the rest of UsageOut is read from their own tables). */
export const COUNTED_METRICS = ['search', 'suggest', 'assistant_message', 'assistant_conversation', 'translated_product'] as const;
export type CountedMetric = (typeof COUNTED_METRICS)[number];

/** Redis keys of the usage counters under a queue prefix. */
export const usageKeys = (prefix: string) => ({
  count: (metric: string, tenantId: string, dayOrMonth: string) => `${prefix}:usage:${metric}:${tenantId}:${dayOrMonth}`,
  /** `metric|tenant|day` members the roll-up reads. */
  dirty: `${prefix}:usage:dirty`,
  /** Random id of this Redis life: a Redis that restarted empty gets a new one at the next flush. */
  epoch: `${prefix}:usage:epoch`,
});

/** The Prometheus series of each metric (labels resolved once, off the per-request path). */
const counted = Object.fromEntries(COUNTED_METRICS.map((m) => [m, usageCount.labels(m === 'search' ? 'searches' : m)])) as Record<
  CountedMetric,
  ReturnType<typeof usageCount.labels>
>;

/**
 * Usage counters per tenant per day (and month) in Redis, without a round trip per request:
 * counts gather in memory and are added with INCRBY every `everyMs` (a process killed with
 * SIGKILL loses at most that much). The monthly search total this process last read is kept for
 * the X-Service-Usage header and the free plan's limit. A roll-up stage copies the day counters
 * into Postgres (shared/usage/rollup.ts).
 */
export class UsageCounter {
  private pending = new Map<string, number>();
  private monthTotals = new Map<string, number>();
  private timer?: NodeJS.Timeout;
  private readonly keys: ReturnType<typeof usageKeys>;

  constructor(
    private redis: Redis,
    prefix: string,
    private logger: Logger,
    private everyMs = 1000,
  ) {
    this.keys = usageKeys(prefix);
  }

  start(): void {
    this.timer = setInterval(() => void this.flush().catch((err) => this.logger.warn('usage flush failed', { err })), this.everyMs);
    this.timer.unref();
  }

  /** Counts one billed search; returns this month's count as far as this process knows. */
  countSearch(tenantId: string): number {
    this.count(tenantId, 'search');
    return this.used(tenantId);
  }

  /** Counts `n` of a metric (never awaited: no I/O here). */
  count(tenantId: string, metric: CountedMetric, n = 1): void {
    counted[metric].inc(n);
    const key = `${metric}|${tenantId}`;
    this.pending.set(key, (this.pending.get(key) ?? 0) + n);
  }

  /** Billed searches this month as far as this process knows (last Redis total + not yet flushed). */
  used(tenantId: string): number {
    return (this.monthTotals.get(tenantId) ?? 0) + (this.pending.get(`search|${tenantId}`) ?? 0);
  }

  async flush(now = new Date()): Promise<void> {
    if (!this.pending.size) return;
    // While Redis is unreachable the counts wait here: a command queued meanwhile may run after
    // its timeout was reported, and counting it again would bill twice.
    if (this.redis.status !== 'ready' && this.redis.status !== 'wait') return;
    const batch = this.pending;
    this.pending = new Map();
    const { day, month } = usagePeriod(now);
    const p = this.redis.pipeline();
    p.set(this.keys.epoch, randomSecret(9), 'NX');
    for (const [key, n] of batch) {
      const [metric, tenantId] = key.split('|');
      const dayKey = this.keys.count(metric, tenantId, day);
      const monthKey = this.keys.count(metric, tenantId, month);
      p.incrby(dayKey, n)
        .expire(dayKey, 40 * 86400)
        .incrby(monthKey, n)
        .expire(monthKey, 70 * 86400)
        .sadd(this.keys.dirty, `${metric}|${tenantId}|${day}`);
    }
    let results: Awaited<ReturnType<typeof p.exec>>;
    try {
      results = (await p.exec()) ?? [];
    } catch (err) {
      // Not sent: keep the counts for the next flush instead of losing billed searches.
      for (const [key, n] of batch) this.pending.set(key, (this.pending.get(key) ?? 0) + n);
      throw err;
    }
    [...batch.entries()].forEach(([key, n], i) => {
      const at = 1 + i * 5;
      const [dayErr] = results![at] ?? [];
      // Surely not counted (never sent): counted at the next flush. A timed-out one may have been.
      if (dayErr && dayErr.message !== 'Command timed out') this.pending.set(key, (this.pending.get(key) ?? 0) + n);
      const [err, total] = results![at + 2] ?? [];
      const [metric, tenantId] = key.split('|');
      if (!err && metric === 'search') this.monthTotals.set(tenantId, Number(total));
    });
  }

  /** The day's billed-search count as stored in Redis (for tests). */
  async dayCount(tenantId: string, day: string, metric: CountedMetric = 'search'): Promise<number> {
    return Number((await this.redis.get(this.keys.count(metric, tenantId, day))) ?? 0);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }
}
