/**
 * Recent values per tenant, in process, each with the time it was stored (RefreshingCache decides
 * what an age means). A tenant's entries are dropped as soon as its index or synonyms change
 * (notices over Redis pub/sub), so a cached answer is never older than the index it came from.
 */
export class ResultCache<T> {
  private tenants = new Map<string, Map<string, { value: T; at: number }>>();
  /** Counts clears; a result made before its tenant's last clear is not stored (it may be stale). */
  private clock = 0;
  private clearedAt = new Map<string, number>();
  private allClearedAt = 0;

  constructor(private perTenant = 2000) {}

  /** An entry, with the time it was stored. */
  entry(tenantId: string, key: string): { value: T; at: number } | undefined {
    return this.tenants.get(tenantId)?.get(key);
  }

  /** Taken before computing a result; `set` refuses it if the tenant's entries were cleared since. */
  mark(): number {
    return this.clock;
  }

  set(tenantId: string, key: string, value: T, since: number, now = Date.now()): void {
    if (this.allClearedAt > since || (this.clearedAt.get(tenantId) ?? 0) > since) return;
    let entries = this.tenants.get(tenantId);
    if (!entries) this.tenants.set(tenantId, (entries = new Map()));
    // Maps keep insertion order: the first key is the oldest entry (a refreshed one moves last).
    entries.delete(key);
    if (entries.size >= this.perTenant) entries.delete(entries.keys().next().value as string);
    entries.set(key, { value, at: now });
  }

  /** Forgets one tenant's results, or everyone's for '*'. */
  clear(tenantId: string): void {
    this.clock++;
    if (tenantId === '*') {
      this.allClearedAt = this.clock;
      this.tenants.clear();
      this.clearedAt.clear();
    } else {
      this.clearedAt.set(tenantId, this.clock);
      this.tenants.delete(tenantId);
    }
  }
}
