/**
 * How one embedding lookup is bounded: `signal` aborts a provider call in flight, `retries`
 * replaces the embedder's own retry count (absent: its own). An in-process embedder ignores both.
 */
export interface EmbedCall {
  signal?: AbortSignal;
  retries?: number;
}

/**
 * The Embedder port: turns texts into vectors. Every vector is stored with the embedder's `id`
 * and `dims`, so vectors of different embedders never mix in one generation.
 */
export interface Embedder {
  /** Stable id of the model and its version (`catalog-v3`, `openai-text-embedding-3-small`); no `:`. */
  readonly id: string;
  readonly dims: number;
  /** One unit-length vector per text, in order. */
  embed(texts: string[], opts?: EmbedCall): Promise<Float32Array[]>;
}

/** Where a store's embedders come from: the trained per-store catalog embedder, or one shared provider. */
export interface EmbedderSource {
  readonly kind: 'catalog' | 'openai';
  /** The embedder with this id for the store (null: unknown, e.g. a model version since deleted); `call` bounds a provider call it makes first. */
  byId(tenantId: string, embedderId: string, call?: EmbedCall): Promise<Embedder | null>;
  /** The embedder a full rebuild uses now; for `catalog`, trains a new version on `texts` first. */
  prepare(tenantId: string, texts: () => AsyncIterable<string[]>): Promise<Embedder>;
  /** Products the newest trained model saw (catalog only; null: none yet). */
  trainedOn?(tenantId: string): Promise<number | null>;
}

/** Unit length in place (zero vectors stay zero). */
export function normalize(v: Float32Array): Float32Array {
  let n = 0;
  for (let i = 0; i < v.length; i++) n += v[i] * v[i];
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < v.length; i++) v[i] /= n;
  return v;
}
