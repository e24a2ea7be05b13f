import { ResultCache } from './result-cache.js';
import { cacheLookups } from '../platform/metrics.js';

/** A key's fixed place in [0, 1). */
function spread(key: string): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return (h >>> 0) % 1000 / 1000;
}

/** Background refreshes under way at once, per process. */
const MAX_REFRESHING = 2;

/**
 * Values per tenant and key, in process (search results, suggest's product previews). Dropped
 * per tenant when its index changes; concurrent requests for one key share one load.
 */
export class RefreshingCache<T> {
  private cache: ResultCache<T>;
  private pending = new Map<string, Promise<T>>();
  private refreshing = 0;

  private counts: Record<'hit' | 'stale' | 'miss', { inc(): void }>;

  /** `ttlMs` 0: nothing is kept and every get loads. `name` labels its hit and miss counts on /metrics. */
  constructor(private ttlMs: number, name = 'results') {
    this.cache = new ResultCache();
    this.counts = { hit: cacheLookups.labels(name, 'hit'), stale: cacheLookups.labels(name, 'stale'), miss: cacheLookups.labels(name, 'miss') };
  }

  /**
   * A fresh value from the cache; values up to twice `ttlMs` old are still answered while one
   * refresh runs in the background (index changes clear them at once anyway, the age limit only
   * covers a missed notice), so an expiring entry never makes a shopper wait on the engine.
   */
  async get(tenantId: string, key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
    if (this.ttlMs <= 0) return load();
    const hit = this.cache.entry(tenantId, key);
    const age = hit ? now - hit.at : Infinity;
    // Each key keeps its own ttl, 80-100 % of ttlMs, so values made together do not all expire together.
    if (age <= 0.8 * this.ttlMs || age <= this.ttlMs * (0.8 + 0.2 * spread(key))) {
      this.counts.hit.inc();
      return hit!.value;
    }
    const id = `${tenantId}\u0000${key}`;
    if (age <= 2 * this.ttlMs) {
      // Refresh a few at a time, not one engine query per expiring key at once.
      if (this.refreshing < MAX_REFRESHING && !this.pending.has(id)) {
        this.refreshing++;
        this.fetch(id, tenantId, key, load).catch(() => undefined).finally(() => this.refreshing--);
      }
      this.counts.stale.inc();
      return hit!.value;
    }
    this.counts.miss.inc();
    return this.fetch(id, tenantId, key, load);
  }

  private fetch(id: string, tenantId: string, key: string, load: () => Promise<T>): Promise<T> {
    let p = this.pending.get(id);
    if (!p) {
      // A query that started before a clear does not fill the cache after it.
      const since = this.cache.mark();
      // load() runs a microtask later, so even one that throws at once ends in the promise (and frees its refresh slot).
      const query: Promise<T> = Promise.resolve().then(load)
        .then((value) => {
          this.cache.set(tenantId, key, value, since);
          return value;
        })
        .finally(() => {
          if (this.pending.get(id) === query) this.pending.delete(id);
        });
      this.pending.set(id, (p = query));
    }
    return p;
  }

  /** Forgets one tenant's values, or everyone's for '*'. */
  clear(tenantId: string): void {
    this.cache.clear(tenantId);
    // Requests from now on must not join a query that may have read the old index.
    for (const id of this.pending.keys()) if (tenantId === '*' || id.startsWith(`${tenantId}\u0000`)) this.pending.delete(id);
  }
}
