import { ResultCache, type CacheBudget } from './result-cache.js';
import { cacheLookups } from '../platform/metrics.js';

/** A key's fixed place in [0, 1). */
function spread(key: string): number {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) | 0;
  return ((h >>> 0) % 1000) / 1000;
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
  /**
   * When each tenant's data changed (`changed` with a grace), ascending: the changes of the last
   * `writeGraceMs` and, first, the latest one before them. A value is stale from the first change
   * after it was made, and answered only until that change is `writeGraceMs` old.
   */
  private changes = new Map<string, number[]>();

  /**
   * `ttlMs` 0: nothing is kept and every get loads. Without a budget: 16 MiB, each value sized as
   * twice its JSON text. `writeGraceMs`: how long after a `changed` the values made before it are
   * still answered while refreshed (0: `changed` drops them at once). `name` labels its hit and
   * miss counts on /metrics. `keep`: whether a loaded value is stored (false: it is answered to the
   * requests that waited for it, and the next request loads again).
   */
  constructor(
    private ttlMs: number,
    budget: CacheBudget<T> = { maxBytes: 16 * 2 ** 20, sizeOf: jsonBytes },
    private writeGraceMs = 0,
    name = 'results',
    private keep?: (value: T) => boolean,
  ) {
    this.cache = new ResultCache(budget);
    this.counts = { hit: cacheLookups.labels(name, 'hit'), stale: cacheLookups.labels(name, 'stale'), miss: cacheLookups.labels(name, 'miss') };
  }

  /**
   * A tenant's data changed (a catalog write). Without a grace its values are dropped (`clear`);
   * with one they are stale: for `writeGraceMs` each is still answered while one refresh runs in
   * the background (as an aging entry is), then a request waits for a new one. A store writing
   * every second keeps a warm cache, and no answer is older than the write by more than the grace.
   */
  changed(tenantId: string, now = Date.now()): void {
    if (this.writeGraceMs <= 0) return this.clear(tenantId);
    const times = this.changes.get(tenantId);
    if (times) {
      times.push(now);
      this.prune(times, now);
    } else this.changes.set(tenantId, [now]);
    // Requests from now on must not join a load that may have read the data before the change.
    for (const id of this.pending.keys()) if (id.startsWith(`${tenantId}\u0000`)) this.pending.delete(id);
  }

  /** Bytes held now (estimated) and how many values. */
  size(): { bytes: number; entries: number } {
    return this.cache.size();
  }

  /**
   * A fresh value from the cache; values up to twice `ttlMs` old are still answered while one
   * refresh runs in the background (index changes clear them at once anyway, the age limit only
   * covers a missed notice), so an expiring entry never makes a shopper wait on the engine.
   */
  async get(tenantId: string, key: string, load: () => Promise<T>, now = Date.now()): Promise<T> {
    if (this.ttlMs <= 0) return load();
    let hit = this.cache.entry(tenantId, key);
    const times = hit ? this.changes.get(tenantId) : undefined;
    const stale = hit && times ? this.firstChangeFrom(times, hit.at, now) : undefined;
    if (hit && stale !== undefined) {
      const id = `${tenantId}\u0000${key}`;
      // Under steady writes the last change is always recent: the first one after the value counts.
      if (now - stale > this.writeGraceMs) hit = undefined;
      else {
        if (this.refreshing < MAX_REFRESHING && !this.pending.has(id)) {
          this.refreshing++;
          this.fetch(id, tenantId, key, load)
            .catch(() => undefined)
            .finally(() => this.refreshing--);
        }
        this.counts.stale.inc();
        return hit.value;
      }
    }
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
        this.fetch(id, tenantId, key, load)
          .catch(() => undefined)
          .finally(() => this.refreshing--);
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
      // Stored as of its start: a load that began before a change is stale after it.
      const startedAt = Date.now();
      // load() runs a microtask later, so even one that throws at once ends in the promise (and frees its refresh slot).
      const query: Promise<T> = Promise.resolve()
        .then(load)
        .then((value) => {
          // Not kept: an older value, if any, stays (and is answered as its age allows) until a load is kept.
          if (!this.keep || this.keep(value)) this.cache.set(tenantId, key, value, since, startedAt);
          return value;
        })
        .finally(() => {
          if (this.pending.get(id) === query) this.pending.delete(id);
        });
      this.pending.set(id, (p = query));
    }
    return p;
  }

  /** The first change at or after `at` (a value made then may have missed it), or undefined. */
  private firstChangeFrom(times: number[], at: number, now: number): number | undefined {
    this.prune(times, now);
    // A value made before the first kept change gets that one: its real first change, or a later one
    // than that, is past the grace either way (prune keeps the latest change past it first).
    for (const c of times) if (c >= at) return c;
    return undefined;
  }

  /** Drops changes older than the latest one that is past the grace (that one stays, first). */
  private prune(times: number[], now: number): void {
    let drop = 0;
    while (drop + 1 < times.length && times[drop + 1] <= now - this.writeGraceMs) drop++;
    if (drop) times.splice(0, drop);
  }

  /** Forgets one tenant's values, or everyone's for '*'. */
  clear(tenantId: string): void {
    this.cache.clear(tenantId);
    if (tenantId === '*') this.changes.clear();
    else this.changes.delete(tenantId);
    // Requests from now on must not join a query that may have read the old index.
    for (const id of this.pending.keys()) if (tenantId === '*' || id.startsWith(`${tenantId}\u0000`)) this.pending.delete(id);
  }
}

/** A value's size estimate: twice its JSON text (V8 keeps the objects, not the text; about that much). */
export function jsonBytes(value: unknown): number {
  return 2 * (JSON.stringify(value)?.length ?? 0);
}
