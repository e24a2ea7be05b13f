import type { LexicalEngine, ProductCard } from '../engines/lexical/port.js';
import type { VectorStore } from '../engines/vectors/port.js';
import type { CardCache } from './card-cache.js';
import type { RecentViews } from './recent-views.js';
import type { SignalsRepo } from './signals.repo.js';

export const RECOMMEND_TYPES = ['similar', 'also_viewed', 'trending', 'recently_viewed'] as const;
export type RecommendType = (typeof RECOMMEND_TYPES)[number];
export type RecommendSource = 'attributes' | 'vectors' | 'co_views' | 'popularity' | 'session';

export interface RecommendInput {
  type: RecommendType;
  productId: string | null;
  categoryId: string | null;
  session: string | null;
  limit: number;
}

export interface RecommendOut {
  type: RecommendType;
  ids: string[];
  products: ProductCard[];
  source: RecommendSource;
}

export interface RecommenderDeps {
  engine: LexicalEngine;
  vectors: VectorStore;
  signals: Pick<SignalsRepo, 'coViews' | 'trending'> & { similar?(tenantId: string, productId: string): Promise<string[] | null> };
  recent: RecentViews;
  cards: CardCache;
  /** The product's categories and brand (the attribute fallback of similar). */
  attributesOf(tenantId: string, productId: string): Promise<{ categoryIds: string[]; brand: string | null } | null>;
}

const CACHE_MS = 30_000;
/** Nearest products held per product (unfiltered similar lists), until the store's vectors or index change. */
const NEIGHBOURS_HELD = 24;
const MAX_NEIGHBOUR_LISTS = 100_000;

type Step = { source: RecommendSource; ids: (need: number) => Promise<string[]> };

/**
 * The four recommendation types (spec 4.6), each a chain of sources tried in order until the list
 * is full: similar = vectors -> attributes -> popularity; also_viewed = co_views -> vectors ->
 * attributes -> popularity; trending = popularity (events) -> popularity (catalog);
 * recently_viewed = session -> popularity. `source` is the first source that gave a product.
 * Never empty while the catalog (or the category asked for) has a visible product.
 */
export class Recommender {
  /** Answers per store for CACHE_MS (not recently_viewed, which is per session); dropped on index, vectors and signals notices. */
  private cache = new Map<string, Map<string, { out: Promise<RecommendOut>; json?: Promise<string>; at: number }>>();
  /** Each product's NEIGHBOURS_HELD nearest (vectors), per store: a product page asked again scans no vectors. */
  private neighbours = new Map<string, Map<string, Promise<string[]>>>();

  constructor(private d: RecommenderDeps) {}

  clear(tenantId: string): void {
    this.cache.delete(tenantId);
    this.neighbours.delete(tenantId);
  }

  async recommend(tenantId: string, input: RecommendInput): Promise<RecommendOut> {
    return this.entry(tenantId, input).out;
  }

  /** The answer as the response's JSON text, serialized once per held answer (the route sends it as is). */
  recommendJson(tenantId: string, input: RecommendInput): Promise<string> {
    const e = this.entry(tenantId, input);
    return (e.json ??= e.out.then(recommendJson));
  }

  private entry(tenantId: string, input: RecommendInput): { out: Promise<RecommendOut>; json?: Promise<string>; at: number } {
    if (input.type === 'recently_viewed') return { out: this.compute(tenantId, input), at: 0 };
    const key = `${input.type}\u0000${input.productId}\u0000${input.categoryId}\u0000${input.limit}`;
    let held = this.cache.get(tenantId);
    if (!held) this.cache.set(tenantId, (held = new Map()));
    const hit = held.get(key);
    if (hit && Date.now() - hit.at < CACHE_MS) return hit;
    if (held.size > 10_000) held.clear();
    const out = this.compute(tenantId, input);
    const e = { out, at: Date.now() };
    held.set(key, e);
    out.catch(() => held!.delete(key));
    return e;
  }

  private async compute(tenantId: string, input: RecommendInput): Promise<RecommendOut> {
    const exclude = new Set(input.productId ? [input.productId] : []);
    const chain = this.chain(tenantId, input, exclude);
    const ids: string[] = [];
    const products: ProductCard[] = [];
    let source: RecommendSource | null = null;
    for (const step of chain) {
      if (products.length >= input.limit) break;
      const want = input.limit - products.length;
      const fresh = (await step.ids(want + exclude.size + ids.length)).filter((id) => !exclude.has(id) && !ids.includes(id));
      const cards = await this.d.cards.cards(tenantId, fresh.slice(0, want * 2), input.categoryId);
      for (const c of cards.slice(0, want)) {
        ids.push(c.id);
        products.push(c);
      }
      if (cards.length && !source) source = step.source;
      // The session's own list is the answer when it has any (no database read to top it up).
      if (cards.length && step.source === 'session') break;
    }
    return { type: input.type, ids, products, source: source ?? this.fallbackSource(input.type) };
  }

  private fallbackSource(type: RecommendType): RecommendSource {
    return type === 'recently_viewed' ? 'session' : type === 'also_viewed' ? 'co_views' : type === 'similar' ? 'vectors' : 'popularity';
  }

  /** The product's NEIGHBOURS_HELD nearest products, itself left out (held until the store's vectors or index change). */
  private nearestTo(tenantId: string, pid: string): Promise<string[]> {
    let held = this.neighbours.get(tenantId);
    if (!held) this.neighbours.set(tenantId, (held = new Map()));
    let ids = held.get(pid);
    if (!ids) {
      // The list learn-events computed, else one scan of the store's vectors.
      ids = (this.d.signals.similar?.(tenantId, pid) ?? Promise.resolve(null)).then(async (listed) => {
        if (listed) return listed;
        const m = await this.d.vectors.vectorsOf(tenantId, [pid]);
        const v = m.get(pid);
        return v ? (await this.d.vectors.nearest(tenantId, v, NEIGHBOURS_HELD, { exclude: [pid] })).map((h) => h.id) : [];
      });
      if (held.size >= MAX_NEIGHBOUR_LISTS) held.clear();
      held.set(pid, ids);
      const mine = held;
      ids.catch(() => mine.delete(pid));
    }
    return ids;
  }

  private chain(tenantId: string, input: RecommendInput, exclude: Set<string>): Step[] {
    const pid = input.productId;
    const cat = input.categoryId;
    const vectors: Step = {
      source: 'vectors',
      ids: async (n) => {
        if (!pid) return [];
        if (!cat && n <= NEIGHBOURS_HELD) return (await this.nearestTo(tenantId, pid)).filter((id) => !exclude.has(id)).slice(0, n);
        const v = (await this.d.vectors.vectorsOf(tenantId, [pid])).get(pid);
        if (!v) return [];
        const hits = await this.d.vectors.nearest(tenantId, v, n, { exclude: [...exclude], categoryIds: cat ? [cat] : undefined });
        return hits.map((h) => h.id);
      },
    };
    const attributes: Step = {
      source: 'attributes',
      ids: async (n) => {
        if (!pid) return [];
        const a = await this.d.attributesOf(tenantId, pid);
        if (!a) return [];
        const leaf = a.categoryIds.filter((c) => !c.startsWith('lvl:'));
        const filters: Record<string, string[]> | null = leaf.length ? { category: leaf } : a.brand ? { brand: [a.brand] } : null;
        if (!filters) return [];
        // Same category (and same brand first), best sellers first.
        const res = await this.d.engine.search({ tenantId, tokens: [], filters, exclude: [...exclude], sort: 'popular', offset: 0, limit: n });
        const hits = res.hits.map((h) => h.id);
        if (!a.brand || !leaf.length) return hits;
        const same = new Set(res.hits.filter((h) => h.card.brand === a.brand).map((h) => h.id));
        return [...hits.filter((id) => same.has(id)), ...hits.filter((id) => !same.has(id))];
      },
    };
    const trends: Step = { source: 'popularity', ids: (n) => this.d.signals.trending(tenantId, cat, n) };
    const catalog: Step = {
      source: 'popularity',
      ids: async (n) => {
        const res = await this.d.engine.search({
          tenantId,
          tokens: [],
          filters: cat ? { category: [cat] } : undefined,
          exclude: [...exclude],
          sort: 'popular',
          offset: 0,
          limit: n,
        });
        return res.hits.map((h) => h.id);
      },
    };
    switch (input.type) {
      case 'similar':
        return [vectors, attributes, trends, catalog];
      case 'also_viewed':
        return [{ source: 'co_views', ids: async (n) => (pid ? this.d.signals.coViews(tenantId, pid, n) : []) }, vectors, attributes, trends, catalog];
      case 'trending':
        return [trends, catalog];
      case 'recently_viewed':
        return [{ source: 'session', ids: async (n) => (input.session ? this.d.recent.list(tenantId, input.session, n) : []) }, trends, catalog];
    }
  }
}

/** Each held card's JSON, made once: the card cache keeps the same card objects across answers for ten minutes. */
const cardJson = new WeakMap<ProductCard, string>();

/** `RecommendOut` as JSON text (the same as JSON.stringify), each card serialized once while the card cache holds it. */
export function recommendJson(out: RecommendOut): string {
  let products = '';
  for (const card of out.products) {
    let json = cardJson.get(card);
    if (json === undefined) cardJson.set(card, (json = JSON.stringify(card)));
    products += products ? `,${json}` : json;
  }
  return `{"type":${JSON.stringify(out.type)},"ids":${JSON.stringify(out.ids)},"products":[${products}],"source":${JSON.stringify(out.source)}}`;
}
