/** How a cache sizes its values: at most `maxBytes` in all (every tenant), each value `sizeOf(value)` bytes. */
export interface CacheBudget<T> {
  maxBytes: number;
  sizeOf: (value: T) => number;
}

interface Stored<T> {
  tenantId: string;
  value: T;
  at: number;
  bytes: number;
}

/**
 * Recent values per tenant, in process, each with the time it was stored (RefreshingCache decides
 * what an age means). A tenant's entries are dropped as soon as its index or synonyms change
 * (notices over Redis pub/sub), so a cached answer is never older than the index it came from.
 * Sized by bytes over every tenant (an estimate per value, `CacheBudget.sizeOf`): when a new value
 * passes `maxBytes`, the values stored longest ago go first, whichever tenant they belong to.
 */
export class ResultCache<T> {
  /** Every entry by `<tenant>\0<key>`, in the order stored (a value stored again moves last). */
  private entries = new Map<string, Stored<T>>();
  private byTenant = new Map<string, Set<string>>();
  private bytes = 0;
  /** Counts clears; a result made before its tenant's last clear is not stored (it may be stale). */
  private clock = 0;
  private clearedAt = new Map<string, number>();
  private allClearedAt = 0;

  constructor(private budget: CacheBudget<T>) {}

  /** Bytes held now (the sum of the stored values' estimates) and how many values. */
  size(): { bytes: number; entries: number } {
    return { bytes: this.bytes, entries: this.entries.size };
  }

  /** An entry, with the time it was stored. */
  entry(tenantId: string, key: string): { value: T; at: number } | undefined {
    const e = this.entries.get(`${tenantId}\u0000${key}`);
    return e && { value: e.value, at: e.at };
  }

  /** Taken before computing a result; `set` refuses it if the tenant's entries were cleared since. */
  mark(): number {
    return this.clock;
  }

  set(tenantId: string, key: string, value: T, since: number, now = Date.now()): void {
    if (this.allClearedAt > since || (this.clearedAt.get(tenantId) ?? 0) > since) return;
    const bytes = this.budget.sizeOf(value);
    if (bytes > this.budget.maxBytes) return;
    const id = `${tenantId}\u0000${key}`;
    this.drop(id);
    // Maps keep insertion order: the first entry is the one stored longest ago.
    while (this.bytes + bytes > this.budget.maxBytes) this.drop(this.entries.keys().next().value as string);
    this.entries.set(id, { tenantId, value, at: now, bytes });
    this.bytes += bytes;
    let ids = this.byTenant.get(tenantId);
    if (!ids) this.byTenant.set(tenantId, (ids = new Set()));
    ids.add(id);
  }

  /** Forgets one tenant's results, or everyone's for '*'. */
  clear(tenantId: string): void {
    this.clock++;
    if (tenantId === '*') {
      this.allClearedAt = this.clock;
      this.entries.clear();
      this.byTenant.clear();
      this.clearedAt.clear();
      this.bytes = 0;
    } else {
      this.clearedAt.set(tenantId, this.clock);
      for (const id of this.byTenant.get(tenantId) ?? []) this.drop(id);
    }
  }

  private drop(id: string): void {
    const e = this.entries.get(id);
    if (!e) return;
    this.entries.delete(id);
    this.bytes -= e.bytes;
    const ids = this.byTenant.get(e.tenantId)!;
    ids.delete(id);
    if (!ids.size) this.byTenant.delete(e.tenantId);
  }
}
