import type { Knex } from 'knex';
import { fromBytes, toBytes, type VectorFilter, type VectorGeneration, type VectorHit, type VectorItem, type VectorStore } from './port.js';
import { MemoryIndex } from './memory-index.js';
import { neighbourLists } from './neighbour-lists.js';
import { PostgresGenerations } from './generations.js';

interface Held {
  index: Promise<MemoryIndex | null>;
  stale: boolean;
  /** The background reload under way, if any. */
  reloading?: Promise<unknown>;
  usedAt: number;
  bytes: number;
}

/**
 * The built-in vector store: Postgres (`product_vectors`) is the system of record; each API
 * process loads a store's serving generation into memory on its first vector query, reloads it
 * in the background after a `vectors` notice (the old copy answers meanwhile), and drops the
 * least recently used stores beyond `maxBytes`. About 26 MB per 100k products at 64 dimensions.
 */
export class PostgresVectorStore implements VectorStore {
  readonly name = 'postgres';
  private held = new Map<string, Held>();
  private listeners: Array<(tenantId: string) => void> = [];

  private gens: PostgresGenerations;

  constructor(
    private db: Knex,
    private maxBytes = 512 * 1024 * 1024,
  ) {
    this.gens = new PostgresGenerations(db);
  }

  generations(tenantId: string): Promise<{ active: VectorGeneration | null; building: VectorGeneration | null }> {
    return this.gens.get(tenantId);
  }

  async beginGeneration(tenantId: string, embedderId: string, dims: number): Promise<number> {
    const { generation, dropped } = await this.gens.begin(tenantId, embedderId, dims);
    if (dropped != null) await this.db('product_vectors').where({ tenant_id: tenantId, generation: dropped }).delete();
    return generation;
  }

  async upsert(tenantId: string, generation: number, items: VectorItem[]): Promise<void> {
    if (!items.length) return;
    const gen = await this.gens.live(tenantId, generation);
    if (!gen) return; // dropped meanwhile (a newer rebuild): nothing to write to
    for (const it of items)
      if (it.vector.length !== gen.dims) throw new Error(`vector of ${it.id} has ${it.vector.length} dimensions, generation ${generation} ${gen.dims}`);
    const rows = items.map((it) => ({
      tenant_id: tenantId,
      generation,
      product_id: it.id,
      embedder_id: gen.embedderId,
      dims: gen.dims,
      vector: toBytes(it.vector),
      payload: JSON.stringify(it.payload),
      source_version: it.version ?? 0,
    }));
    await this.db('product_vectors')
      .insert(rows)
      .onConflict(['tenant_id', 'generation', 'product_id'])
      .merge(['embedder_id', 'dims', 'vector', 'payload', 'source_version', 'updated_at'])
      .where('product_vectors.source_version', '<=', this.db.raw('excluded.source_version'));
  }

  async remove(tenantId: string, ids: string[]): Promise<void> {
    if (ids.length) await this.db('product_vectors').where({ tenant_id: tenantId }).whereIn('product_id', ids).delete();
  }

  async activate(tenantId: string, generation: number): Promise<void> {
    if ((await this.gens.activate(tenantId, generation)) === null) return;
    await this.db('product_vectors').where({ tenant_id: tenantId }).andWhere('generation', '<>', generation).delete();
  }

  async dropGeneration(tenantId: string, generation: number): Promise<void> {
    await this.gens.drop(tenantId, generation);
    await this.db('product_vectors').where({ tenant_id: tenantId, generation }).delete();
  }

  async nearest(tenantId: string, vector: Float32Array, limit: number, filter?: VectorFilter): Promise<VectorHit[]> {
    const index = await this.index(tenantId);
    return index ? index.nearest(vector, limit, filter) : [];
  }

  async vectorsOf(tenantId: string, ids: string[]): Promise<Map<string, Float32Array>> {
    const index = await this.index(tenantId);
    const out = new Map<string, Float32Array>();
    for (const id of ids) {
      const v = index?.vector(id);
      if (v) out.set(id, v);
    }
    return out;
  }

  async count(tenantId: string): Promise<number> {
    const [{ n }] = await this.db('product_vectors as v')
      .join('vector_generations as g', function () {
        this.on('g.tenant_id', 'v.tenant_id').andOn('g.active', 'v.generation');
      })
      .where('v.tenant_id', tenantId)
      .count({ n: '*' });
    return Number(n);
  }

  async versions(tenantId: string, ids: string[]): Promise<Map<string, number>> {
    if (!ids.length) return new Map();
    const rows: Array<{ product_id: string; source_version: string }> = await this.db('product_vectors as v')
      .join('vector_generations as g', function () {
        this.on('g.tenant_id', 'v.tenant_id').andOn('g.active', 'v.generation');
      })
      .where('v.tenant_id', tenantId)
      .whereIn('v.product_id', ids)
      .select('v.product_id', 'v.source_version');
    return new Map(rows.map((r) => [r.product_id, Number(r.source_version)]));
  }

  async neighbourLists(tenantId: string, k: number, progress?: (share: number) => Promise<void>): Promise<Array<{ id: string; ids: string[] }>> {
    const index = await this.current(tenantId);
    if (!index) return [];
    return neighbourLists({ ids: index.ids, data: index.data, dims: index.dims, visible: (row) => index.payloads[row].visible }, k, progress);
  }

  /** Of the current vectors: waits for a reload a notice asked for (requests are answered by the old copy meanwhile; this is not a request). */
  async fingerprint(tenantId: string): Promise<string | null> {
    return (await this.current(tenantId))?.fingerprint() ?? null;
  }

  /** The held copy once a reload a notice asked for is in (whole-store work, not a request: it may wait). */
  private async current(tenantId: string): Promise<MemoryIndex | null> {
    await this.index(tenantId);
    await this.held.get(tenantId)?.reloading;
    return this.index(tenantId);
  }

  onReplaced(listener: (tenantId: string) => void): void {
    this.listeners.push(listener);
  }

  changed(tenantId: string): void {
    const h = this.held.get(tenantId);
    if (h) h.stale = true;
  }

  async dropTenant(tenantId: string): Promise<void> {
    await this.db('product_vectors').where({ tenant_id: tenantId }).delete();
    await this.gens.forget(tenantId);
    this.held.delete(tenantId);
  }

  /** The store's in-memory index: loaded on first use, reloaded in the background when stale. */
  private async index(tenantId: string): Promise<MemoryIndex | null> {
    let h = this.held.get(tenantId);
    if (!h) {
      h = { index: this.load(tenantId), stale: false, usedAt: Date.now(), bytes: 0 };
      this.held.set(tenantId, h);
      h.index.then(
        (ix) => this.loaded(tenantId, h!, ix),
        () => this.held.delete(tenantId),
      );
    } else if (h.stale) {
      h.stale = false;
      const entry = h;
      const next = this.load(tenantId);
      entry.reloading = next.then(
        (ix) => {
          entry.index = Promise.resolve(ix);
          this.loaded(tenantId, entry, ix);
          for (const fn of this.listeners) fn(tenantId);
        },
        () => {
          entry.stale = true;
        },
      );
    }
    h.usedAt = Date.now();
    return h.index;
  }

  private loaded(tenantId: string, h: Held, ix: MemoryIndex | null): void {
    h.bytes = ix?.bytes ?? 0;
    let total = 0;
    for (const x of this.held.values()) total += x.bytes;
    // Least recently used stores leave memory first; the one just loaded stays.
    for (const [id, x] of [...this.held].sort((a, b) => a[1].usedAt - b[1].usedAt)) {
      if (total <= this.maxBytes) break;
      if (id === tenantId) continue;
      total -= x.bytes;
      this.held.delete(id);
    }
  }

  private async load(tenantId: string): Promise<MemoryIndex | null> {
    const { active } = await this.generations(tenantId);
    if (!active) return null;
    const rows: Array<{ product_id: string; vector: Buffer; payload: any }> = await this.db('product_vectors')
      .where({ tenant_id: tenantId, generation: active.generation })
      .select('product_id', 'vector', 'payload');
    return new MemoryIndex(
      active.generation,
      active.dims,
      rows.map((r) => r.product_id),
      rows.map((r) => fromBytes(r.vector)),
      rows.map((r) => r.payload),
    );
  }
}
