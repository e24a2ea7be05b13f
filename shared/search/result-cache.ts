/**
 * Recent search results per tenant, in process. An entry lives `ttlMs` at most and a tenant's
 * entries are dropped as soon as its index or synonyms change (notices over Redis pub/sub),
 * so a cached answer is never older than the index it came from.
 */
export class ResultCache<T> {
  private tenants = new Map<string, Map<string, { value: T; at: number }>>();

  constructor(private ttlMs = 60_000, private perTenant = 2000) {}

  get(tenantId: string, key: string, now = Date.now()): T | undefined {
    const entries = this.tenants.get(tenantId);
    const hit = entries?.get(key);
    if (!hit) return undefined;
    if (now - hit.at > this.ttlMs) {
      entries!.delete(key);
      return undefined;
    }
    return hit.value;
  }

  set(tenantId: string, key: string, value: T, now = Date.now()): void {
    if (this.ttlMs <= 0) return;
    let entries = this.tenants.get(tenantId);
    if (!entries) this.tenants.set(tenantId, (entries = new Map()));
    // Maps keep insertion order: the first key is the oldest entry.
    if (entries.size >= this.perTenant) entries.delete(entries.keys().next().value as string);
    entries.set(key, { value, at: now });
  }

  /** Forgets one tenant's results, or everyone's for '*'. */
  clear(tenantId: string): void {
    if (tenantId === '*') this.tenants.clear();
    else this.tenants.delete(tenantId);
  }
}
