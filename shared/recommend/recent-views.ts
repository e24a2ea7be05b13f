import type { Redis } from 'ioredis';
import type { EventRow } from '../events/index.js';

/** Products kept per session, and how long a quiet session's list lives. */
export const RECENT_KEPT = 50;
const TTL_S = 7 * 86400;

/**
 * Each session's last viewed products in a Redis sorted set scored by when each was last viewed
 * (`occurred_at`, not arrival), written as view events arrive, so recently_viewed reads no
 * database. Scored rather than pushed on a list: an events call resent after a lost answer (safe
 * with event ids) or a late one (timestamps go 7 days back) would otherwise put its older views
 * above the newer ones; `ZADD GT` keeps each product's newest time. One pipeline per events call.
 * The key segment is `recent-at` (the lists were `recent`, so an old list is never read as a set).
 */
export class RecentViews {
  constructor(
    private redis: Redis,
    private prefix: string,
  ) {}

  private key(tenantId: string, session: string): string {
    return `${this.prefix}:recent-at:${tenantId}:${session}`;
  }

  async record(rows: EventRow[]): Promise<void> {
    const views = rows.filter((r) => r.product_id && (r.type === 'view' || r.type === 'search_click' || r.type === 'add_to_cart'));
    if (!views.length) return;
    const p = this.redis.pipeline();
    for (let i = 0; i < views.length; i++) {
      const r = views[i];
      const key = this.key(r.tenant_id, r.session);
      // Events of one call sent without a timestamp share the time received: the later in the call is the newer (i / 1000 < 1 ms).
      p.zadd(key, 'GT', new Date(r.occurred_at).getTime() + i / 1000, r.product_id!)
        .zremrangebyrank(key, 0, -RECENT_KEPT - 1)
        .expire(key, TTL_S);
    }
    await p.exec();
  }

  /** Up to `limit` of the session's products, newest first, from the `from`th. */
  async list(tenantId: string, session: string, limit: number, from = 0): Promise<string[]> {
    return this.redis.zrevrange(this.key(tenantId, session), from, from + limit - 1);
  }
}
