import type { Redis } from 'ioredis';
import type { EventRow } from '../events/index.js';

/** Products kept per session, and how long a quiet session's list lives. */
export const RECENT_KEPT = 50;
const TTL_S = 7 * 86400;

/**
 * Each session's last viewed products in a Redis list (newest first), written as view events
 * arrive, so recently_viewed reads no database. One pipeline per events call.
 */
export class RecentViews {
  constructor(
    private redis: Redis,
    private prefix: string,
  ) {}

  private key(tenantId: string, session: string): string {
    return `${this.prefix}:recent:${tenantId}:${session}`;
  }

  async record(rows: EventRow[]): Promise<void> {
    const views = rows
      .filter((r) => r.product_id && (r.type === 'view' || r.type === 'search_click' || r.type === 'add_to_cart'))
      .sort((a, b) => String(a.occurred_at).localeCompare(String(b.occurred_at)));
    if (!views.length) return;
    const p = this.redis.pipeline();
    for (const r of views) {
      const key = this.key(r.tenant_id, r.session);
      p.lrem(key, 0, r.product_id!)
        .lpush(key, r.product_id!)
        .ltrim(key, 0, RECENT_KEPT - 1)
        .expire(key, TTL_S);
    }
    await p.exec();
  }

  /** Up to `limit` of the session's products, newest first, from the `from`th. */
  async list(tenantId: string, session: string, limit: number, from = 0): Promise<string[]> {
    return this.redis.lrange(this.key(tenantId, session), from, from + limit - 1);
  }
}
