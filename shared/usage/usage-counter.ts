import type { Redis } from 'ioredis';
import type { Logger } from '../platform/logger.js';
import { usageCount } from '../platform/metrics.js';

/** UTC day and month of a time, as used in usage keys and the usage header. */
export function usagePeriod(now = new Date()): { day: string; month: string } {
  const iso = now.toISOString();
  return { day: iso.slice(0, 10), month: iso.slice(0, 7) };
}

const searchesCounted = usageCount.labels('searches');

/**
 * Billed-search counters per tenant per day in Redis, without a round trip per search: counts
 * gather in memory and are added with INCRBY every `everyMs`; the monthly total this process
 * last read is kept for the X-Service-Usage header.
 */
export class UsageCounter {
  private pending = new Map<string, number>();
  private monthTotals = new Map<string, number>();
  private timer?: NodeJS.Timeout;

  constructor(private redis: Redis, private prefix: string, private logger: Logger, private everyMs = 1000) {}

  start(): void {
    this.timer = setInterval(() => void this.flush().catch((err) => this.logger.warn('usage flush failed', { err })), this.everyMs);
    this.timer.unref();
  }

  /** Counts one billed search; returns this month's count as far as this process knows. */
  countSearch(tenantId: string): number {
    searchesCounted.inc();
    this.pending.set(tenantId, (this.pending.get(tenantId) ?? 0) + 1);
    return this.used(tenantId);
  }

  used(tenantId: string): number {
    return (this.monthTotals.get(tenantId) ?? 0) + (this.pending.get(tenantId) ?? 0);
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
    for (const [tenantId, n] of batch) {
      p.incrby(`${this.prefix}:usage:search:${tenantId}:${day}`, n).expire(`${this.prefix}:usage:search:${tenantId}:${day}`, 40 * 86400);
      p.incrby(`${this.prefix}:usage:search:${tenantId}:${month}`, n).expire(`${this.prefix}:usage:search:${tenantId}:${month}`, 70 * 86400);
    }
    let results: Awaited<ReturnType<typeof p.exec>>;
    try {
      results = (await p.exec()) ?? [];
    } catch (err) {
      // Not sent: keep the counts for the next flush instead of losing billed searches.
      for (const [tenantId, n] of batch) this.pending.set(tenantId, (this.pending.get(tenantId) ?? 0) + n);
      throw err;
    }
    [...batch.entries()].forEach(([tenantId, n], i) => {
      const [dayErr] = results![i * 4] ?? [];
      // Surely not counted (never sent): counted at the next flush. A timed-out one may have been.
      if (dayErr && dayErr.message !== 'Command timed out') this.pending.set(tenantId, (this.pending.get(tenantId) ?? 0) + n);
      const [err, total] = results![i * 4 + 2] ?? [];
      if (!err) this.monthTotals.set(tenantId, Number(total));
    });
  }

  /** The day's count as stored in Redis (for roll-ups and tests). */
  async dayCount(tenantId: string, day: string): Promise<number> {
    return Number((await this.redis.get(`${this.prefix}:usage:search:${tenantId}:${day}`)) ?? 0);
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.flush().catch(() => undefined);
  }
}
