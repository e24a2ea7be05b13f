import { normalize } from './port.js';
import { textFeatures } from './features.js';
import { tick, truncatedSvd, type Sparse } from './svd.js';

/** Limits that bound training memory and model size (about 13 MB at 50k features x 64 dims). */
export const MODEL_LIMITS = { maxFeatures: 50_000, minDf: 2, maxDfShare: 0.5 };

/**
 * A catalog embedder model: for each feature (word or character 3-gram), its total count in the
 * catalog and a `dims`-long vector; a text's vector is the PPMI-weighted sum of its features'
 * vectors (an LSA fold-in), unit length.
 */
export class CatalogModel {
  private index: Map<string, number>;

  constructor(
    readonly features: string[],
    readonly dims: number,
    readonly total: number,
    readonly counts: Float32Array,
    readonly vectors: Float32Array,
  ) {
    this.index = new Map(features.map((f, i) => [f, i]));
  }

  embed(text: string): Float32Array {
    const out = new Float32Array(this.dims);
    const feats = textFeatures(text);
    const tf = new Map<number, number>();
    for (const f of feats) {
      const i = this.index.get(f);
      if (i !== undefined) tf.set(i, (tf.get(i) ?? 0) + 1);
    }
    const len = Math.max(1, feats.length);
    for (const [i, c] of tf) {
      const w = Math.log((c * this.total) / (this.counts[i] * len));
      if (w <= 0) continue;
      const o = i * this.dims;
      for (let j = 0; j < this.dims; j++) out[j] += w * this.vectors[o + j];
    }
    return normalize(out);
  }

  /** Bytes: header length, JSON header (features), counts, vectors (float32). */
  toBuffer(): Buffer {
    const header = Buffer.from(JSON.stringify({ features: this.features, dims: this.dims, total: this.total }));
    const len = Buffer.alloc(4);
    len.writeUInt32LE(header.length);
    return Buffer.concat([
      len,
      header,
      Buffer.from(this.counts.buffer, this.counts.byteOffset, this.counts.byteLength),
      Buffer.from(this.vectors.buffer, this.vectors.byteOffset, this.vectors.byteLength),
    ]);
  }

  static fromBuffer(buf: Buffer): CatalogModel {
    const hl = buf.readUInt32LE(0);
    const h = JSON.parse(buf.subarray(4, 4 + hl).toString()) as { features: string[]; dims: number; total: number };
    const body = Buffer.from(buf.subarray(4 + hl)); // aligned copy
    const f = h.features.length;
    const counts = new Float32Array(body.buffer, body.byteOffset, f);
    const vectors = new Float32Array(body.buffer, body.byteOffset + f * 4, f * h.dims);
    return new CatalogModel(h.features, h.dims, h.total, counts, vectors);
  }
}

/**
 * Trains a model on a store's product texts: feature x product PPMI matrix, truncated SVD; a
 * feature's vector is its left singular vector row (so fold-ins give V x Sigma coordinates).
 */
export async function trainCatalogModel(texts: string[], dims: number): Promise<CatalogModel> {
  const docs: string[][] = [];
  for (let i = 0; i < texts.length; i++) {
    if (i % 2000 === 0) await tick();
    docs.push(textFeatures(texts[i]));
  }
  const df = new Map<string, number>();
  for (let j = 0; j < docs.length; j++) {
    if (j % 2000 === 0) await tick();
    for (const f of new Set(docs[j])) df.set(f, (df.get(f) ?? 0) + 1);
  }
  await tick();
  const maxDf = Math.max(MODEL_LIMITS.minDf, docs.length * MODEL_LIMITS.maxDfShare);
  const kept = [...df]
    .filter(([, n]) => n >= MODEL_LIMITS.minDf && n <= maxDf)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MODEL_LIMITS.maxFeatures)
    .map(([f]) => f);
  const index = new Map(kept.map((f, i) => [f, i]));
  const counts = new Float32Array(kept.length);
  const cr: number[] = [];
  const cc: number[] = [];
  const cv: number[] = [];
  const lens = new Float64Array(docs.length);
  await tick();
  for (let j = 0; j < docs.length; j++) {
    if (j % 2000 === 0) await tick();
    const d = docs[j];
    const tf = new Map<number, number>();
    for (const f of d) {
      const i = index.get(f);
      if (i !== undefined) tf.set(i, (tf.get(i) ?? 0) + 1);
    }
    for (const [i, c] of tf) {
      counts[i] += c;
      lens[j] += c;
      cr.push(i);
      cc.push(j);
      cv.push(c);
    }
  }
  let total = 0;
  for (const c of counts) total += c;
  const r = new Uint32Array(cr.length);
  const c = new Uint32Array(cr.length);
  const v = new Float32Array(cr.length);
  let n = 0;
  for (let x = 0; x < cr.length; x++) {
    if (x % 200_000 === 0) await tick();
    const i = cr[x];
    const j = cc[x];
    const cnt = cv[x];
    const pmi = Math.log((cnt * total) / (counts[i] * lens[j]));
    if (pmi <= 0) continue;
    r[n] = i;
    c[n] = j;
    v[n++] = pmi;
  }
  const a: Sparse = { rows: kept.length, cols: docs.length, r: r.subarray(0, n), c: c.subarray(0, n), v: v.subarray(0, n) };
  const k = Math.min(dims, kept.length, docs.length);
  const { u } = await truncatedSvd(a, k);
  const vectors = new Float32Array(kept.length * dims);
  for (let i = 0; i < kept.length; i++) for (let j = 0; j < k; j++) vectors[i * dims + j] = u[i * k + j];
  return new CatalogModel(kept, dims, total, counts, vectors);
}
