/**
 * The VectorStore port. Vectors are kept per store in generations like the lexical index: a
 * full rebuild (new embedder or model version) fills a building generation, then `activate`
 * serves it and drops the old one. Every vector carries its embedder id and dimensions.
 */

/** What filters need, stored beside each vector so they apply before scoring. */
export interface VectorPayload {
  categoryIds: string[];
  brand: string | null;
  price: number;
  inStock: boolean;
  visible: boolean;
}

export interface VectorItem {
  id: string;
  vector: Float32Array;
  payload: VectorPayload;
  /** Stored product version (ms): an older one never overwrites a newer one. */
  version?: number;
}

export interface VectorFilter {
  /** Only these products. */
  ids?: string[];
  exclude?: string[];
  /** In any of these categories (any level). */
  categoryIds?: string[];
  brands?: string[];
  price?: { gte?: number | null; lte?: number | null };
  inStock?: boolean;
}

export interface VectorHit {
  id: string;
  score: number;
}

export interface VectorGeneration {
  generation: number;
  embedderId: string;
  dims: number;
}

export interface VectorStore {
  readonly name: string;
  /** The serving and the building generation of a store (null when none). */
  generations(tenantId: string): Promise<{ active: VectorGeneration | null; building: VectorGeneration | null }>;
  /** Starts a generation for an embedder; the first one serves at once (nothing to replace). */
  beginGeneration(tenantId: string, embedderId: string, dims: number): Promise<number>;
  /** Writes vectors into one generation; every vector must have the generation's dimensions. */
  upsert(tenantId: string, generation: number, items: VectorItem[]): Promise<void>;
  /** Removes products from every generation. */
  remove(tenantId: string, ids: string[]): Promise<void>;
  /** Serves `generation` and drops the older ones. */
  activate(tenantId: string, generation: number): Promise<void>;
  dropGeneration(tenantId: string, generation: number): Promise<void>;
  /** Nearest products of the serving generation to `vector` (cosine), filters first; visible products only. */
  nearest(tenantId: string, vector: Float32Array, limit: number, filter?: VectorFilter): Promise<VectorHit[]>;
  /** Stored vectors of products in the serving generation. */
  vectorsOf(tenantId: string, ids: string[]): Promise<Map<string, Float32Array>>;
  /** Vectors in the serving generation. */
  count(tenantId: string): Promise<number>;
  /** The stored product version (ms) of each of these products with a vector in the serving generation. */
  versions(tenantId: string, ids: string[]): Promise<Map<string, number>>;
  /**
   * Each product's `k` nearest visible products in the serving generation, for the whole store
   * (similar lists; the built-in store, exact up to 20k vectors, an inverted file past it).
   */
  neighbourLists?(tenantId: string, k: number, progress?: (share: number) => Promise<void>): Promise<Array<{ id: string; ids: string[] }>>;
  /**
   * A fingerprint of what nearest-neighbour answers are computed from (the serving ids, their
   * vectors and visibility), as this process holds them; null without vectors. Equal fingerprints,
   * equal neighbours: learn-events keeps its similar lists while it is unchanged (the built-in store).
   */
  fingerprint?(tenantId: string): Promise<string | null>;
  /** Tells this process the store's vectors changed (a version notice): reload what is held in memory. */
  changed(tenantId: string): void;
  /** Called once a store's reloaded vectors answer (what was computed from the old ones is stale). */
  onReplaced?(listener: (tenantId: string) => void): void;
  dropTenant(tenantId: string): Promise<void>;
}

/** A vector as bytes (float32 little-endian) and back. */
export function toBytes(v: Float32Array): Buffer {
  return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
}
export function fromBytes(b: Buffer): Float32Array {
  const copy = Buffer.from(b);
  return new Float32Array(copy.buffer, copy.byteOffset, copy.byteLength / 4);
}
