import type { LexicalEngine, ProductCard } from '../engines/lexical/port.js';

const TTL_MS = 10 * 60_000;
const MAX_PER_TENANT = 50_000;

/**
 * Product cards held per process (filled from the engine, dropped per store on an index notice
 * and after ten minutes; at most 50,000 per store, about 20 MB), so hot recommendation lists read no database. Cards of products that are
 * gone or hidden are simply not returned by the engine, so they never show.
 */
export class CardCache {
  private tenants = new Map<string, Map<string, { card: ProductCard; at: number }>>();

  constructor(private engine: LexicalEngine) {}

  clear(tenantId: string): void {
    this.tenants.delete(tenantId);
  }

  /** Cards of `ids` in their order (missing ones left out), `categoryId` restricting when given. */
  async cards(tenantId: string, ids: string[], categoryId: string | null = null): Promise<ProductCard[]> {
    if (!ids.length) return [];
    return (!categoryId && this.held(tenantId, ids)) || this.read(tenantId, ids, categoryId, Date.now());
  }

  /** The cards of `ids` in their order when every one is held and fresh (the usual case: no engine read, nothing else made), else null. */
  held(tenantId: string, ids: string[]): ProductCard[] | null {
    const held = this.tenants.get(tenantId);
    if (!held) return null;
    const now = Date.now();
    const out: ProductCard[] = [];
    for (const id of ids) {
      const e = held.get(id);
      if (!e || !(now - e.at < TTL_MS)) return null;
      out.push(e.card);
    }
    return out;
  }

  /** Reads the cards not held (all of them with a category) from the engine and holds them (not those read for a category). */
  private async read(tenantId: string, ids: string[], categoryId: string | null, now: number): Promise<ProductCard[]> {
    let held = this.tenants.get(tenantId);
    if (!held) this.tenants.set(tenantId, (held = new Map()));
    const missing = categoryId ? ids : ids.filter((id) => !(now - (held!.get(id)?.at ?? 0) < TTL_MS));
    const found = new Map<string, ProductCard>();
    if (missing.length) {
      const res = await this.engine.search({
        tenantId,
        tokens: [],
        ids: missing,
        filters: categoryId ? { category: [categoryId] } : undefined,
        offset: 0,
        limit: missing.length,
        // Cards by id, in any order: the engine's lean read (no ranking, nothing counted).
        noTextRank: true,
      });
      for (const h of res.hits) found.set(h.id, h.card);
      if (!categoryId) {
        if (held.size > MAX_PER_TENANT) held.clear();
        for (const [id, card] of found) held.set(id, { card, at: now });
      }
    }
    return ids.map((id) => found.get(id) ?? (categoryId ? undefined : held!.get(id)?.card)).filter((c): c is ProductCard => !!c);
  }
}
