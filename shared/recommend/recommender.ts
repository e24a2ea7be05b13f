import type { LexicalEngine, ProductCard } from '../engines/lexical/port.js';
import type { VectorStore } from '../engines/vectors/port.js';
import type { CardCache } from './card-cache.js';
import { RECENT_KEPT, type RecentViews } from './recent-views.js';
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
  signals: Pick<SignalsRepo, 'coViews' | 'trending'> & {
    similar?(tenantId: string, productId: string): Promise<string[] | null>;
    /** True when the store's co-views and trends are answered from memory (no read). */
    holds?(tenantId: string): boolean;
  };
  recent: RecentViews;
  cards: Pick<CardCache, 'cards' | 'held'>;
  /** The product's categories and brand (the attribute fallback of similar). */
  attributesOf(tenantId: string, productId: string): Promise<{ categoryIds: string[]; brand: string | null } | null>;
}

const CACHE_MS = 30_000;
/** Nearest products held per product (unfiltered similar lists), until the store's vectors or index change. */
const NEIGHBOURS_HELD = 24;
const MAX_NEIGHBOUR_LISTS = 100_000;

/** One source of a chain; `trends` and `catalog` both answer as `popularity`. */
type Step = 'co_views' | 'vectors' | 'attributes' | 'trends' | 'catalog' | 'session';
const CHAINS: Record<RecommendType, readonly Step[]> = {
  similar: ['vectors', 'attributes', 'trends', 'catalog'],
  also_viewed: ['co_views', 'vectors', 'attributes', 'trends', 'catalog'],
  trending: ['trends', 'catalog'],
  recently_viewed: ['session', 'trends', 'catalog'],
};
const SOURCE: Record<Step, RecommendSource> = {
  co_views: 'co_views',
  vectors: 'vectors',
  attributes: 'attributes',
  trends: 'popularity',
  catalog: 'popularity',
  session: 'session',
};
type Entry = { out: Promise<RecommendOut>; json?: Promise<Buffer>; at: number };
/** Set when making an answer read anything (database, engine, Redis, a vector scan): only such answers are held. */
type Trace = { read: boolean };

/**
 * The four recommendation types (spec 4.6), each a chain of sources tried in order until the list
 * is full: similar = vectors -> attributes -> popularity; also_viewed = co_views -> vectors ->
 * attributes -> popularity; trending = popularity (events) -> popularity (catalog);
 * recently_viewed = session -> popularity. `source` is the first source that gave a product.
 * Never empty while the catalog (or the category asked for) has a visible product.
 */
export class Recommender {
  /** Answers per store for CACHE_MS (not recently_viewed, which is per session); dropped on index, vectors and signals notices. */
  private cache = new Map<string, Map<string, Entry>>();
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

  /** The answer as the response's JSON bytes, made once per held answer (the route sends them as they are). */
  recommendJson(tenantId: string, input: RecommendInput): Promise<Buffer> {
    const e = this.entry(tenantId, input);
    return (e.json ??= e.out.then(recommendJson));
  }

  private entry(tenantId: string, input: RecommendInput): Entry {
    if (input.type === 'recently_viewed') return { out: this.compute(tenantId, input), at: 0 };
    const key = `${input.type}\u0000${input.productId}\u0000${input.categoryId}\u0000${input.limit}`;
    let held = this.cache.get(tenantId);
    if (!held) this.cache.set(tenantId, (held = new Map()));
    const now = Date.now();
    const hit = held.get(key);
    if (hit && now - hit.at < CACHE_MS) return hit;
    if (held.size > 10_000) held.clear();
    const e: Entry = { out: null as unknown as Promise<RecommendOut>, at: now };
    held.set(key, e);
    e.out = this.computeHeld(tenantId, input, held, key, e);
    return e;
  }

  /**
   * compute, its answer held only when making it read something: one made from memory alone
   * (held signals, similar lists and cards) costs about what a held answer's lookup does, and
   * holding every such answer for CACHE_MS filled the young generation with answers asked once,
   * copied and promoted by each collection. Dropped when it fails (the next request tries again).
   */
  private async computeHeld(tenantId: string, input: RecommendInput, held: Map<string, Entry>, key: string, e: Entry): Promise<RecommendOut> {
    const trace: Trace = { read: false };
    try {
      const out = await this.compute(tenantId, input, trace);
      if (!trace.read && held.get(key) === e) held.delete(key);
      return out;
    } catch (err) {
      if (held.get(key) === e) held.delete(key);
      throw err;
    }
  }

  private async compute(tenantId: string, input: RecommendInput, trace: Trace = { read: false }): Promise<RecommendOut> {
    // The product asked about is never in its own list; only it is left out.
    const pid = input.productId;
    const excluded = pid ? 1 : 0;
    const ids: string[] = [];
    const products: ProductCard[] = [];
    let source: RecommendSource | null = null;
    for (const step of CHAINS[input.type]) {
      if (products.length >= input.limit) break;
      const want = input.limit - products.length;
      const n = want + excluded + ids.length;
      const listed = await this.stepIds(step, tenantId, input, n, trace);
      const fresh: string[] = [];
      for (let i = 0; i < listed.length && fresh.length < want * 2; i++) {
        const id = listed[i];
        if (id !== pid && !ids.includes(id)) fresh.push(id);
      }
      let cards: ProductCard[] = [];
      if (fresh.length) {
        const held = input.categoryId ? null : this.d.cards.held(tenantId, fresh);
        if (!held) trace.read = true;
        cards = held ?? (await this.d.cards.cards(tenantId, fresh, input.categoryId));
      }
      // Hidden or deleted products among the session's newest: the rest of its list (at most RECENT_KEPT) fills the answer.
      if (step === 'session' && cards.length < want && listed.length === n) cards = cards.concat(await this.olderViews(tenantId, input, n));
      const take = Math.min(cards.length, want);
      for (let i = 0; i < take; i++) {
        ids.push(cards[i].id);
        products.push(cards[i]);
      }
      if (cards.length && !source) source = SOURCE[step];
      // The session's own list is the answer when it has any (no database read to top it up).
      if (cards.length && step === 'session') break;
    }
    return { type: input.type, ids, products, source: source ?? this.fallbackSource(input.type) };
  }

  private fallbackSource(type: RecommendType): RecommendSource {
    return type === 'recently_viewed' ? 'session' : type === 'also_viewed' ? 'co_views' : type === 'similar' ? 'vectors' : 'popularity';
  }

  /** Up to `n` candidate ids from one source of the chain (the product asked about may be among them). */
  private stepIds(step: Step, tenantId: string, input: RecommendInput, n: number, trace: Trace): Promise<string[]> | string[] {
    const pid = input.productId;
    switch (step) {
      case 'co_views':
        if (!pid) return [];
        if (!this.d.signals.holds?.(tenantId)) trace.read = true;
        return this.d.signals.coViews(tenantId, pid, n);
      case 'vectors':
        if (!pid) return [];
        if (input.categoryId || n > NEIGHBOURS_HELD || !this.neighbours.get(tenantId)?.has(pid)) trace.read = true;
        return this.vectorIds(tenantId, pid, input.categoryId, n);
      case 'attributes':
        if (!pid) return [];
        trace.read = true;
        return this.attributeIds(tenantId, pid, n);
      case 'trends':
        if (!this.d.signals.holds?.(tenantId)) trace.read = true;
        return this.d.signals.trending(tenantId, input.categoryId, n);
      case 'catalog':
        trace.read = true;
        return this.catalogIds(tenantId, pid, input.categoryId, n);
      case 'session':
        trace.read = true;
        return input.session ? this.d.recent.list(tenantId, input.session, n) : [];
    }
  }

  /** The cards of the session's products after its newest `from` (the product asked about left out). */
  private async olderViews(tenantId: string, input: RecommendInput, from: number): Promise<ProductCard[]> {
    const older = await this.d.recent.list(tenantId, input.session!, RECENT_KEPT, from);
    const ids = older.filter((id) => id !== input.productId);
    return ids.length ? this.d.cards.cards(tenantId, ids, input.categoryId) : [];
  }

  private async vectorIds(tenantId: string, pid: string, cat: string | null, n: number): Promise<string[]> {
    if (!cat && n <= NEIGHBOURS_HELD) {
      const near = await this.nearestTo(tenantId, pid);
      const out: string[] = [];
      for (let i = 0; i < near.length && out.length < n; i++) if (near[i] !== pid) out.push(near[i]);
      return out;
    }
    const v = (await this.d.vectors.vectorsOf(tenantId, [pid])).get(pid);
    if (!v) return [];
    const hits = await this.d.vectors.nearest(tenantId, v, n, { exclude: [pid], categoryIds: cat ? [cat] : undefined });
    return hits.map((h) => h.id);
  }

  /** Same category (and same brand first), best sellers first. */
  private async attributeIds(tenantId: string, pid: string, n: number): Promise<string[]> {
    const a = await this.d.attributesOf(tenantId, pid);
    if (!a) return [];
    const leaf = a.categoryIds.filter((c) => !c.startsWith('lvl:'));
    const filters: Record<string, string[]> | null = leaf.length ? { category: leaf } : a.brand ? { brand: [a.brand] } : null;
    if (!filters) return [];
    const res = await this.d.engine.search({ tenantId, tokens: [], filters, exclude: [pid], sort: 'popular', offset: 0, limit: n });
    const hits = res.hits.map((h) => h.id);
    if (!a.brand || !leaf.length) return hits;
    const same = new Set(res.hits.filter((h) => h.card.brand === a.brand).map((h) => h.id));
    return [...hits.filter((id) => same.has(id)), ...hits.filter((id) => !same.has(id))];
  }

  private async catalogIds(tenantId: string, pid: string | null, cat: string | null, n: number): Promise<string[]> {
    const res = await this.d.engine.search({
      tenantId,
      tokens: [],
      filters: cat ? { category: [cat] } : undefined,
      exclude: pid ? [pid] : [],
      sort: 'popular',
      offset: 0,
      limit: n,
    });
    return res.hits.map((h) => h.id);
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
}

/** Each held card's JSON bytes, made once: the card cache keeps the same card objects across answers for ten minutes. */
const cardJson = new WeakMap<ProductCard, Buffer>();

/**
 * `RecommendOut` as JSON bytes (the UTF-8 of JSON.stringify), each card serialized once while the
 * card cache holds it. Bytes rather than text: the response's length is known without measuring
 * the text's UTF-8, and the socket writes them without encoding them again.
 */
export function recommendJson(out: RecommendOut): Buffer {
  const head = `{"type":${JSON.stringify(out.type)},"ids":${JSON.stringify(out.ids)},"products":[`;
  const tail = `],"source":${JSON.stringify(out.source)}}`;
  const cards: Buffer[] = [];
  let size = Buffer.byteLength(head) + Buffer.byteLength(tail) + Math.max(0, out.products.length - 1);
  for (const card of out.products) {
    let json = cardJson.get(card);
    if (json === undefined) cardJson.set(card, (json = Buffer.from(JSON.stringify(card))));
    cards.push(json);
    size += json.length;
  }
  const bytes = Buffer.allocUnsafe(size);
  let at = bytes.write(head, 0);
  for (let i = 0; i < cards.length; i++) {
    if (i) bytes[at++] = 0x2c; // ,
    at += cards[i].copy(bytes, at);
  }
  bytes.write(tail, at);
  return bytes;
}
