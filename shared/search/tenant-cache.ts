interface Entry<T> {
  value: T;
  loadedAt: number;
  usedAt: number;
}

/**
 * A per-process value per tenant built from its stored data (suggestion dictionary, vocabulary
 * with its typo index). Only a tenant's first request waits for its load; after a change notice,
 * or once older than `ttlMs` (in case a notice was missed), one reload runs in the background
 * while the old value keeps answering. Tenants unused for `idleMs` are dropped to give their
 * memory back.
 */
export class TenantCache<T> {
  private entries = new Map<string, Entry<T>>();
  private loading = new Map<string, Promise<T>>();
  /** Tenants whose data changed after their running load had started reading. */
  private dirty = new Set<string>();
  /** Bumped by forget(): a load that started before it neither stores nor is joined. */
  private epochs = new Map<string, number>();
  private sweptAt = Date.now();

  private ttlMs: number;
  private idleMs: number;
  private replaced: (tenantId: string) => void;

  constructor(
    private build: (tenantId: string) => Promise<T>,
    options: {
      ttlMs?: number;
      idleMs?: number;
      /** Called once a new value replaces an old one (e.g. to drop results computed with the old one). */
      replaced?: (tenantId: string) => void;
    } = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.idleMs = options.idleMs ?? 30 * 60_000;
    this.replaced = options.replaced ?? (() => undefined);
  }

  async get(tenantId: string): Promise<T> {
    const now = Date.now();
    if (now - this.sweptAt > 60_000) this.sweep(now);
    const entry = this.entries.get(tenantId);
    if (!entry) return this.reload(tenantId);
    entry.usedAt = now;
    if (now - entry.loadedAt > this.ttlMs) this.refresh(tenantId);
    return entry.value;
  }

  /** The value held for a tenant, without loading or refreshing it. */
  peek(tenantId: string): T | undefined {
    return this.entries.get(tenantId)?.value;
  }

  /** A tenant's data changed ('*': every tenant's): reload what this process holds, in the background. */
  changed(tenantId: string): void {
    for (const id of tenantId === '*' ? [...this.entries.keys()] : [tenantId]) {
      if (!this.entries.has(id) && !this.loading.has(id)) continue;
      if (this.loading.has(id)) this.dirty.add(id);
      else this.refresh(id);
    }
  }

  /**
   * Drops what this process holds for a tenant ('*': every tenant), so the next get waits for a
   * load that starts after this call (a write in this process is seen by its next request).
   */
  forget(tenantId: string): void {
    const ids = tenantId === '*' ? new Set([...this.entries.keys(), ...this.loading.keys()]) : [tenantId];
    for (const id of ids) {
      this.entries.delete(id);
      this.loading.delete(id);
      this.dirty.delete(id);
      this.epochs.set(id, (this.epochs.get(id) ?? 0) + 1);
    }
  }

  private refresh(tenantId: string): void {
    void this.reload(tenantId).catch(() => undefined);
  }

  private reload(tenantId: string): Promise<T> {
    let p = this.loading.get(tenantId);
    if (!p) {
      const loading: Promise<T> = this.load(tenantId).finally(() => {
        if (this.loading.get(tenantId) !== loading) return;
        this.loading.delete(tenantId);
        // A change landed while this load was reading: what it read may predate the change.
        if (this.dirty.delete(tenantId)) this.refresh(tenantId);
      });
      this.loading.set(tenantId, (p = loading));
    }
    return p;
  }

  private async load(tenantId: string): Promise<T> {
    const started = Date.now();
    const epoch = this.epochs.get(tenantId) ?? 0;
    try {
      const value = await this.build(tenantId);
      if ((this.epochs.get(tenantId) ?? 0) !== epoch) return value;
      const prev = this.entries.get(tenantId);
      this.entries.set(tenantId, { value, loadedAt: started, usedAt: prev?.usedAt ?? Date.now() });
      if (prev) this.replaced(tenantId);
      return value;
    } catch (err) {
      // Keep serving the old value; try again after another `ttlMs`, not on every request.
      const prev = this.entries.get(tenantId);
      if (prev) prev.loadedAt = Date.now();
      throw err;
    }
  }

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [id, e] of this.entries) if (now - e.usedAt > this.idleMs) this.entries.delete(id);
  }
}
