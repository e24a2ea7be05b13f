import type { EmbedderSource } from '../engines/embedder/port.js';
import type { VectorFilter, VectorHit, VectorStore } from '../engines/vectors/port.js';

const MAX_CACHED = 5000;

/**
 * The search path's side of the vectors: a query embedded once per store, embedder and text
 * (kept in a bounded per-process cache, so a repeated or paged query never embeds again), and
 * nearest products in the serving generation.
 */
export class QueryVectors {
  private cache = new Map<string, Promise<Float32Array | null>>();

  /** `planAllows`: whether the store's plan has the `hybrid_search` feature (absent: every store may). */
  constructor(
    private vectors: VectorStore,
    private embedders: EmbedderSource,
    private planAllows?: (tenantId: string) => Promise<boolean>,
  ) {}

  /** Whether the store's plan lets its searches use the vector side (hybrid_search is a plan feature as well as a ranking setting). */
  allowed(tenantId: string): Promise<boolean> {
    return this.planAllows ? this.planAllows(tenantId) : Promise.resolve(true);
  }

  /** The query's vector with the serving generation's embedder (null: the store has no vectors, or its embedder failed). */
  async embed(tenantId: string, text: string): Promise<Float32Array | null> {
    const { active } = await this.activeOf(tenantId);
    if (!active || !text.trim()) return null;
    const key = `${tenantId}\u0000${active}\u0000${text}`;
    let hit = this.cache.get(key);
    if (hit) {
      // Most recently used last: the oldest leave first.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    const made = this.embedders.byId(tenantId, active).then(async (e) => (e ? (await e.embed([text]))[0] : null));
    // An embedder that fails (a provider down or refusing calls) leaves the search lexical, as a store without vectors: never a failed search. Not held.
    const held: Promise<Float32Array | null> = made.catch(() => {
      if (this.cache.get(key) === held) this.cache.delete(key);
      return null;
    });
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, held);
    return held;
  }

  nearest(tenantId: string, vector: Float32Array, limit: number, filter?: VectorFilter): Promise<VectorHit[]> {
    return this.vectors.nearest(tenantId, vector, limit, filter);
  }

  vectorsOf(tenantId: string, ids: string[]): Promise<Map<string, Float32Array>> {
    return this.vectors.vectorsOf(tenantId, ids);
  }

  /** The serving generation's embedder id, read at most every 5 s per store. */
  private actives = new Map<string, { at: number; active: Promise<string | null> }>();
  private activeOf(tenantId: string): Promise<{ active: string | null }> {
    const held = this.actives.get(tenantId);
    if (held && Date.now() - held.at < 5000) return held.active.then((active) => ({ active }));
    const active = this.vectors.generations(tenantId).then((g) => g.active?.embedderId ?? null);
    active.catch(() => this.actives.delete(tenantId));
    this.actives.set(tenantId, { at: Date.now(), active });
    return active.then((a) => ({ active: a }));
  }

  changed(tenantId: string): void {
    this.actives.delete(tenantId);
  }
}
