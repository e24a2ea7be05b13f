import type { SignalsRepo } from './signals.repo.js';

/** Trending products held per store (the best by score, with their categories). */
export const TRENDS_HELD = 20_000;
/** Co-view rows held per store (about 100,000 products with 20 each, about 25 MB); a store with more reads its co-views per request. */
export const CO_VIEW_ROWS_HELD = 2_000_000;
/** Similar lists held per store (learn-events computes them for stores up to as many products). */
export const SIMILAR_LISTS_HELD = 100_000;
const TTL_MS = 5 * 60_000;

interface Held {
  at: number;
  stale: boolean;
  snapshot: Promise<Snapshot>;
  /** `snapshot` once it has loaded. */
  ready?: Snapshot;
}

interface Snapshot {
  /** Co-viewed products per product, best first (ids interned: one string per product); null past CO_VIEW_ROWS_HELD. */
  coViews: Map<string, string[]> | null;
  trends: Array<{ id: string; categoryIds: string[] }>;
  /** Each product's nearest products (learn-events' similar lists). */
  similar: Map<string, string[]>;
  /** Trending lists per category, filtered from `trends` on first use. */
  byCategory: Map<string, string[]>;
}

/**
 * Co-views, trends and similar lists of each store held per API process, so also_viewed, trending
 * and similar read no
 * database per request: loaded on a store's first recommendation and again at once on a signals
 * notice (sent when learn-events recomputed them; requests wait for the new copy), and in the
 * background after five minutes (the old copy answering meanwhile). Memory: about 2.4 MB per
 * 10,000 products with co-views (20 each), at most CO_VIEW_ROWS_HELD rows (a bigger store reads
 * each product's co-views per request instead), plus at most TRENDS_HELD trending products (about
 * 3 MB) and at most SIMILAR_LISTS_HELD similar lists (24 ids each, about 24 MB at 100,000); a
 * category asked for beyond those falls through to the recommender's next source (the
 * catalog's best sellers).
 */
export class SignalsCache {
  private held = new Map<string, Held>();

  constructor(
    private repo: Pick<SignalsRepo, 'allCoViews' | 'topTrends' | 'coViews' | 'allSimilar'>,
    private ttlMs = TTL_MS,
    private maxCoViewRows = CO_VIEW_ROWS_HELD,
  ) {}

  /** A signals notice: the store's co-views and trends were recomputed; requests from now on wait for the new ones. */
  changed(tenantId: string): void {
    if (this.held.has(tenantId)) this.start(tenantId);
  }

  forget(tenantId: string): void {
    this.held.delete(tenantId);
  }

  /** True when the store's co-views, trends and similar lists are answered from memory (loaded, and not too many co-views to hold). */
  holds(tenantId: string): boolean {
    return !!this.held.get(tenantId)?.ready?.coViews;
  }

  async coViews(tenantId: string, productId: string, limit: number): Promise<string[]> {
    const s = await this.snapshot(tenantId);
    if (!s.coViews) return this.repo.coViews(tenantId, productId, limit);
    return (s.coViews.get(productId) ?? []).slice(0, limit);
  }

  /** The product's similar list, null when none was computed for it (the caller scans the vectors). */
  async similar(tenantId: string, productId: string): Promise<string[] | null> {
    return (await this.snapshot(tenantId)).similar.get(productId) ?? null;
  }

  async trending(tenantId: string, categoryId: string | null, limit: number): Promise<string[]> {
    const s = await this.snapshot(tenantId);
    if (!categoryId) return s.trends.slice(0, limit).map((t) => t.id);
    let list = s.byCategory.get(categoryId);
    if (!list) {
      list = s.trends.filter((t) => t.categoryIds.includes(categoryId)).map((t) => t.id);
      if (s.byCategory.size > 1000) s.byCategory.clear();
      s.byCategory.set(categoryId, list);
    }
    return list.slice(0, limit);
  }

  private snapshot(tenantId: string): Promise<Snapshot> {
    const h = this.held.get(tenantId);
    if (!h) return this.start(tenantId);
    if (h.stale || Date.now() - h.at > this.ttlMs) {
      // One reload at a time; the old snapshot answers until the new one is in.
      h.stale = false;
      h.at = Date.now();
      const next = this.load(tenantId);
      next.then(
        (s) => {
          if (this.held.get(tenantId) !== h) return;
          h.snapshot = next;
          h.ready = s;
        },
        () => {
          h.stale = true;
        },
      );
    }
    return h.snapshot;
  }

  private start(tenantId: string): Promise<Snapshot> {
    const first = this.load(tenantId);
    const held: Held = { at: Date.now(), stale: false, snapshot: first };
    this.held.set(tenantId, held);
    held.snapshot.then(
      (s) => {
        if (held.snapshot === first) held.ready ??= s;
      },
      () => {
        if (this.held.get(tenantId) === held) this.held.delete(tenantId);
      },
    );
    return held.snapshot;
  }

  private async load(tenantId: string): Promise<Snapshot> {
    const [pairs, trends, lists] = await Promise.all([
      this.repo.allCoViews(tenantId, this.maxCoViewRows + 1),
      this.repo.topTrends(tenantId, TRENDS_HELD),
      this.repo.allSimilar(tenantId, SIMILAR_LISTS_HELD),
    ]);
    const intern = new Map<string, string>();
    const one = (id: string) => intern.get(id) ?? (intern.set(id, id), id);
    const coViews = pairs.length > this.maxCoViewRows ? null : new Map<string, string[]>();
    // Rows come best first per product.
    for (const r of coViews ? pairs : []) {
      const id = one(r.product_id);
      let list = coViews!.get(id);
      if (!list) coViews!.set(id, (list = []));
      list.push(one(r.other_id));
    }
    const similar = new Map(lists.map((l) => [one(l.product_id), l.ids.map(one)]));
    return { coViews, trends: trends.map((t) => ({ id: one(t.product_id), categoryIds: t.category_ids ?? [] })), similar, byCategory: new Map() };
  }
}
