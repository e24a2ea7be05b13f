/** Lets the event loop run (lock renewals, other jobs) between the long steps of training. */
export const tick = () => new Promise<void>((r) => setImmediate(r));

/** A sparse matrix as coordinate lists (rows x cols). */
export interface Sparse {
  rows: number;
  cols: number;
  r: Uint32Array;
  c: Uint32Array;
  v: Float32Array;
}

/** A (rows x cols) times X (cols x l, row-major) -> rows x l; with `transpose`, A' times X. */
async function multiply(a: Sparse, x: Float64Array, l: number, transpose: boolean): Promise<Float64Array> {
  const out = new Float64Array((transpose ? a.cols : a.rows) * l);
  const from = transpose ? a.r : a.c;
  const to = transpose ? a.c : a.r;
  for (let k = 0; k < a.v.length; k++) {
    if (k % 100_000 === 0) await tick();
    const v = a.v[k];
    const xo = from[k] * l;
    const oo = to[k] * l;
    for (let j = 0; j < l; j++) out[oo + j] += v * x[xo + j];
  }
  return out;
}

/** Orthonormal columns of an n x l row-major matrix, in place (modified Gram-Schmidt). */
async function orthonormalize(m: Float64Array, n: number, l: number): Promise<void> {
  for (let j = 0; j < l; j++) {
    if (j % 8 === 0) await tick();
    for (let p = 0; p < j; p++) {
      let dot = 0;
      for (let i = 0; i < n; i++) dot += m[i * l + j] * m[i * l + p];
      for (let i = 0; i < n; i++) m[i * l + j] -= dot * m[i * l + p];
    }
    let norm = 0;
    for (let i = 0; i < n; i++) norm += m[i * l + j] * m[i * l + j];
    norm = Math.sqrt(norm) || 1;
    for (let i = 0; i < n; i++) m[i * l + j] /= norm;
  }
}

/** Eigenvalues and vectors (columns of `vectors`) of a symmetric l x l matrix, cyclic Jacobi. */
async function symmetricEigen(s: Float64Array, l: number): Promise<{ values: Float64Array; vectors: Float64Array }> {
  const a = Float64Array.from(s);
  const v = new Float64Array(l * l);
  for (let i = 0; i < l; i++) v[i * l + i] = 1;
  for (let sweep = 0; sweep < 30; sweep++) {
    await tick();
    let off = 0;
    for (let p = 0; p < l; p++) for (let q = p + 1; q < l; q++) off += a[p * l + q] ** 2;
    if (off < 1e-18) break;
    for (let p = 0; p < l; p++) {
      for (let q = p + 1; q < l; q++) {
        const apq = a[p * l + q];
        if (Math.abs(apq) < 1e-30) continue;
        const theta = (a[q * l + q] - a[p * l + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const sn = t * c;
        for (let k = 0; k < l; k++) {
          const akp = a[k * l + p];
          const akq = a[k * l + q];
          a[k * l + p] = c * akp - sn * akq;
          a[k * l + q] = sn * akp + c * akq;
        }
        for (let k = 0; k < l; k++) {
          const apk = a[p * l + k];
          const aqk = a[q * l + k];
          a[p * l + k] = c * apk - sn * aqk;
          a[q * l + k] = sn * apk + c * aqk;
        }
        for (let k = 0; k < l; k++) {
          const vkp = v[k * l + p];
          const vkq = v[k * l + q];
          v[k * l + p] = c * vkp - sn * vkq;
          v[k * l + q] = sn * vkp + c * vkq;
        }
      }
    }
  }
  const values = new Float64Array(l);
  for (let i = 0; i < l; i++) values[i] = a[i * l + i];
  return { values, vectors: v };
}

/** Seeded uniform numbers, so a retrain on the same catalog gives the same model. */
function random(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  };
}

/**
 * Truncated SVD by randomized range finding (Halko et al.): the top `k` left singular vectors
 * of A (rows x k, row-major) and singular values. `power` iterations sharpen the spectrum.
 */
export async function truncatedSvd(a: Sparse, k: number, oversample = 16, power = 2): Promise<{ u: Float64Array; sigma: Float64Array }> {
  const l = Math.min(k + oversample, a.rows, a.cols);
  const rnd = random(42);
  const omega = new Float64Array(a.cols * l).map(() => rnd());
  let y = await multiply(a, omega, l, false);
  await orthonormalize(y, a.rows, l);
  for (let i = 0; i < power; i++) {
    await tick();
    const z = await multiply(a, y, l, true);
    await orthonormalize(z, a.cols, l);
    await tick();
    y = await multiply(a, z, l, false);
    await orthonormalize(y, a.rows, l);
  }
  // B' = A'Q (cols x l); BB' = (A'Q)'(A'Q) is l x l.
  await tick();
  const bt = await multiply(a, y, l, true);
  const bbt = new Float64Array(l * l);
  for (let i = 0; i < a.cols; i++) {
    if (i % 5000 === 0) await tick();
    const o = i * l;
    for (let p = 0; p < l; p++) {
      const x = bt[o + p];
      if (x === 0) continue;
      for (let q = 0; q < l; q++) bbt[p * l + q] += x * bt[o + q];
    }
  }
  await tick();
  const { values, vectors } = await symmetricEigen(bbt, l);
  const order = [...values.keys()].sort((x, z) => values[z] - values[x]).slice(0, Math.min(k, l));
  const kk = order.length;
  const u = new Float64Array(a.rows * kk);
  for (let i = 0; i < a.rows; i++) {
    if (i % 5000 === 0) await tick();
    for (let j = 0; j < kk; j++) {
      let s = 0;
      const col = order[j];
      for (let p = 0; p < l; p++) s += y[i * l + p] * vectors[p * l + col];
      u[i * kk + j] = s;
    }
  }
  return { u, sigma: Float64Array.from(order, (j) => Math.sqrt(Math.max(0, values[j]))) };
}
