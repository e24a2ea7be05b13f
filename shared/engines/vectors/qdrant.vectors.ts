import { createHash } from 'node:crypto';
import type { Knex } from 'knex';
import type { QdrantClient } from '@qdrant/js-client-rest';
import type { VectorFilter, VectorGeneration, VectorHit, VectorItem, VectorStore } from './port.js';
import { PostgresGenerations } from './generations.js';

/** Qdrant point ids are unsigned integers or UUIDs: a product id maps to a stable UUID. */
export function pointId(tenantId: string, productId: string): string {
  const h = createHash('sha1').update(`${tenantId}\u0000${productId}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 3) | 8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const safe = (tenantId: string) => tenantId.replace(/[^A-Za-z0-9_-]/g, '_');
export const aliasOf = (tenantId: string) => `pss_${safe(tenantId)}`;
export const collectionOf = (tenantId: string, generation: number) => `pss_${safe(tenantId)}_g${generation}`;

type Filter = { must: Array<Record<string, unknown>>; must_not?: Array<Record<string, unknown>> };

/** A VectorFilter as a Qdrant filter over the payload written by upsert. */
function toFilter(f: VectorFilter = {}): Filter {
  const must: Filter['must'] = [{ key: 'visible', match: { value: true } }];
  if (f.ids) must.push({ key: 'product_id', match: { any: f.ids } });
  if (f.categoryIds?.length) must.push({ key: 'category_ids', match: { any: f.categoryIds } });
  if (f.brands?.length) must.push({ key: 'brand', match: { any: f.brands } });
  if (f.inStock) must.push({ key: 'in_stock', match: { value: true } });
  if (f.price && (f.price.gte != null || f.price.lte != null)) {
    must.push({ key: 'price', range: { ...(f.price.gte != null ? { gte: f.price.gte } : {}), ...(f.price.lte != null ? { lte: f.price.lte } : {}) } });
  }
  return f.exclude?.length ? { must, must_not: [{ key: 'product_id', match: { any: f.exclude } }] } : { must };
}

/**
 * The Qdrant adapter (VECTOR_STORE=qdrant): one collection per store generation
 * (`pss_<tenant>_g<n>`, cosine distance) behind the alias `pss_<tenant>`, swapped atomically on
 * activate; nearest products through `POST /collections/{alias}/points/query`. Which generation
 * serves and which is building is kept in Postgres (`vector_generations`), like the built-in store.
 */
export class QdrantVectorStore implements VectorStore {
  readonly name = 'qdrant';
  private gens: PostgresGenerations;
  /** The client package loads when the store is made (only with VECTOR_STORE=qdrant: about 20 MB of memory the default never pays). */
  private client: Promise<QdrantClient>;

  constructor(db: Knex, opts: { url: string; apiKey?: string }) {
    this.gens = new PostgresGenerations(db);
    const u = new URL(opts.url);
    this.client = import('@qdrant/js-client-rest').then(
      ({ QdrantClient }) => new QdrantClient({ url: opts.url, port: u.port ? Number(u.port) : null, apiKey: opts.apiKey, checkCompatibility: false }),
    );
    this.client.catch(() => undefined);
  }

  generations(tenantId: string) {
    return this.gens.get(tenantId);
  }

  async beginGeneration(tenantId: string, embedderId: string, dims: number): Promise<number> {
    const client = await this.client;
    const { generation, first, dropped } = await this.gens.begin(tenantId, embedderId, dims);
    if (dropped != null) await client.deleteCollection(collectionOf(tenantId, dropped)).catch(() => undefined);
    const name = collectionOf(tenantId, generation);
    if (!(await client.collectionExists(name)).exists) {
      await client.createCollection(name, { vectors: { size: dims, distance: 'Cosine' } });
    }
    if (first) await client.updateCollectionAliases({ actions: [{ create_alias: { collection_name: name, alias_name: aliasOf(tenantId) } }] });
    return generation;
  }

  async upsert(tenantId: string, generation: number, items: VectorItem[]): Promise<void> {
    if (!items.length) return;
    const client = await this.client;
    const gen = await this.gens.live(tenantId, generation);
    if (!gen) return;
    for (const it of items)
      if (it.vector.length !== gen.dims) throw new Error(`vector of ${it.id} has ${it.vector.length} dimensions, generation ${generation} ${gen.dims}`);
    const point = (it: VectorItem) => ({
      id: pointId(tenantId, it.id),
      vector: Array.from(it.vector),
      payload: {
        product_id: it.id,
        embedder_id: gen.embedderId,
        dims: gen.dims,
        category_ids: it.payload.categoryIds,
        brand: it.payload.brand,
        price: it.payload.price,
        in_stock: it.payload.inStock,
        visible: it.payload.visible,
        version: it.version ?? 0,
      },
    });
    // An older product version never overwrites a newer one (the port's rule): each version's points
    // replace only stored points of that version or older (`update_filter`); new points are inserted.
    const byVersion = new Map<number, VectorItem[]>();
    for (const it of items) {
      let group = byVersion.get(it.version ?? 0);
      if (!group) byVersion.set(it.version ?? 0, (group = []));
      group.push(it);
    }
    await client.batchUpdate(collectionOf(tenantId, generation), {
      wait: true,
      operations: [...byVersion].map(([version, group]) => ({
        upsert: { points: group.map(point), update_filter: { must: [{ key: 'version', range: { lte: version } }] } },
      })),
    });
  }

  async remove(tenantId: string, ids: string[]): Promise<void> {
    if (!ids.length) return;
    const client = await this.client;
    const { active, building } = await this.gens.get(tenantId);
    for (const g of [active, building].filter((x): x is VectorGeneration => !!x)) {
      await client.delete(collectionOf(tenantId, g.generation), { wait: true, points: ids.map((id) => pointId(tenantId, id)) });
    }
  }

  async activate(tenantId: string, generation: number): Promise<void> {
    const client = await this.client;
    const old = await this.gens.activate(tenantId, generation);
    if (old === null) return;
    const alias = aliasOf(tenantId);
    await client.updateCollectionAliases({
      actions: [{ delete_alias: { alias_name: alias } }, { create_alias: { collection_name: collectionOf(tenantId, generation), alias_name: alias } }],
    });
    await client.deleteCollection(collectionOf(tenantId, old)).catch(() => undefined);
  }

  async dropGeneration(tenantId: string, generation: number): Promise<void> {
    const client = await this.client;
    await this.gens.drop(tenantId, generation);
    await client.deleteCollection(collectionOf(tenantId, generation)).catch(() => undefined);
  }

  async nearest(tenantId: string, vector: Float32Array, limit: number, filter?: VectorFilter): Promise<VectorHit[]> {
    const client = await this.client;
    const { active } = await this.gens.get(tenantId);
    if (!active) return [];
    const res = await client
      .query(aliasOf(tenantId), { query: Array.from(vector), limit, filter: toFilter(filter), with_payload: ['product_id'] })
      .catch(absent({ points: [] }));
    return res.points.map((p) => ({ id: String((p.payload as { product_id: string }).product_id), score: p.score }));
  }

  async vectorsOf(tenantId: string, ids: string[]): Promise<Map<string, Float32Array>> {
    const out = new Map<string, Float32Array>();
    for (const p of await this.served(tenantId, ids, ['product_id'], true))
      if (Array.isArray(p.vector)) out.set(String((p.payload as { product_id: string }).product_id), Float32Array.from(p.vector as number[]));
    return out;
  }

  async count(tenantId: string): Promise<number> {
    const client = await this.client;
    const { active } = await this.gens.get(tenantId);
    if (!active) return 0;
    return (await client.count(aliasOf(tenantId), { exact: true }).catch(absent({ count: 0 }))).count;
  }

  async versions(tenantId: string, ids: string[]): Promise<Map<string, number>> {
    const out = new Map<string, number>();
    for (const p of await this.served(tenantId, ids, ['product_id', 'version'], false)) {
      const payload = p.payload as { product_id: string; version?: number };
      out.set(String(payload.product_id), Number(payload.version ?? 0));
    }
    return out;
  }

  /** These products' points in the serving generation, with the payload fields named (none without one). */
  private async served(tenantId: string, ids: string[], fields: string[], withVector: boolean) {
    const { active } = await this.gens.get(tenantId);
    if (!active || !ids.length) return [];
    const client = await this.client;
    return client.retrieve(aliasOf(tenantId), { ids: ids.map((id) => pointId(tenantId, id)), with_payload: fields, with_vector: withVector }).catch(absent([]));
  }

  changed(): void {
    // Nothing held in this process: Qdrant answers from its own state.
  }

  async dropTenant(tenantId: string): Promise<void> {
    const client = await this.client;
    const { active, building } = await this.gens.get(tenantId);
    for (const g of [active, building]) if (g) await client.deleteCollection(collectionOf(tenantId, g.generation)).catch(() => undefined);
    await this.gens.forget(tenantId);
  }
}

/**
 * A read of the serving alias that Qdrant answers 404 (the store's first generation is recorded
 * serving just before its collection and alias are made, so a read in between finds neither)
 * answers as an empty generation would; any other failure is thrown.
 */
function absent<T>(empty: T): (err: unknown) => T {
  return (err) => {
    if ((err as { status?: unknown } | null)?.status === 404) return empty;
    throw err;
  };
}
