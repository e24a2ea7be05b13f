import type { EmbedderSource } from '../engines/embedder/port.js';
import type { VectorFilter, VectorHit, VectorStore } from '../engines/vectors/port.js';
import { Breaker } from '../platform/breaker.js';

const MAX_CACHED = 5000;

/**
 * A query's vector, or why there is none: `no vectors` (the store has none, or its embedder is
 * unknown), `embedder failed` (the provider refused or failed), `embed timeout` (no answer within
 * the search's deadline), `embedder cooling down` (not asked: the provider failed too often in a
 * row, see Breaker).
 */
export type QueryVector =
  { vector: Float32Array; reason?: undefined } | { vector: null; reason: 'no vectors' | 'embedder failed' | 'embed timeout' | 'embedder cooling down' };

const NONE: QueryVector = { vector: null, reason: 'no vectors' };
const COOLING: QueryVector = { vector: null, reason: 'embedder cooling down' };

/**
 * The search path's side of the vectors: a query embedded once per store, embedder and text
 * (kept in a bounded per-process cache, so a repeated or paged query never embeds again), and
 * nearest products in the serving generation. A provider's embedding is bounded: one call, no
 * retries, aborted after `embedTimeoutMs` (the batch pipelines keep their long timeout and retries).
 * A provider (not the in-process catalog embedder) that keeps failing is skipped for a while (`breaker`).
 */
export class QueryVectors {
  private cache = new Map<string, Promise<QueryVector>>();
  private breaker: Breaker | null;

  /** `planAllows`: whether the store's plan has the `hybrid_search` feature (absent: every store may). */
  constructor(
    private vectors: VectorStore,
    private embedders: EmbedderSource,
    private planAllows?: (tenantId: string) => Promise<boolean>,
    private embedTimeoutMs = 400,
    breaker?: Breaker,
  ) {
    this.breaker = embedders.kind === 'catalog' ? null : (breaker ?? new Breaker());
  }

  /** Whether the store's plan lets its searches use the vector side (hybrid_search is a plan feature as well as a ranking setting). */
  allowed(tenantId: string): Promise<boolean> {
    return this.planAllows ? this.planAllows(tenantId) : Promise.resolve(true);
  }

  /** The query's vector with the serving generation's embedder, or why there is none. */
  async embed(tenantId: string, text: string): Promise<QueryVector> {
    const { active } = await this.activeOf(tenantId);
    if (!active || !text.trim()) return NONE;
    const key = `${tenantId}\u0000${active}\u0000${text}`;
    let hit = this.cache.get(key);
    if (hit) {
      // Most recently used last: the oldest leave first.
      this.cache.delete(key);
      this.cache.set(key, hit);
      return hit;
    }
    // A provider that failed too often in a row is not asked until its cool-down is over: no search waits on it meanwhile.
    if (this.breaker && !this.breaker.allow()) return COOLING;
    // An embedder that fails or does not answer in time leaves the search lexical, as a store without vectors: never a failed search. Not held.
    const held: Promise<QueryVector> = this.embedOnce(tenantId, active, text).then((v) => {
      if (v.reason && v.reason !== 'no vectors' && this.cache.get(key) === held) this.cache.delete(key);
      return v;
    });
    if (this.cache.size >= MAX_CACHED) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(key, held);
    return held;
  }

  /** One bounded lookup: the deadline aborts the provider's call (its socket closed, no timer left), never retried. */
  private async embedOnce(tenantId: string, embedderId: string, text: string): Promise<QueryVector> {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), this.embedTimeoutMs);
    const call = { signal: abort.signal, retries: 0 };
    try {
      const e = await this.embedders.byId(tenantId, embedderId, call);
      if (!e) {
        this.breaker?.release();
        return NONE;
      }
      const vector = (await e.embed([text], call))[0];
      this.breaker?.success();
      return { vector };
    } catch {
      this.breaker?.failure();
      return { vector: null, reason: abort.signal.aborted ? 'embed timeout' : 'embedder failed' };
    } finally {
      clearTimeout(timer);
    }
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
