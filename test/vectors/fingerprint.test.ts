import t from 'tap';
import { MemoryIndex } from '../../shared/engines/vectors/memory-index.js';
import type { VectorPayload } from '../../shared/engines/vectors/port.js';

// The fingerprint learn-events keeps its similar lists by: it changes exactly when nearest-neighbour answers can.
const payload = (over: Partial<VectorPayload> = {}): VectorPayload => ({ categoryIds: ['c'], brand: 'B', price: 10, inStock: true, visible: true, ...over });
const vectors = () => [new Float32Array([1, 0, 0, 0]), new Float32Array([0, 1, 0, 0]), new Float32Array([0.6, 0.8, 0, 0])];
const index = (opts: { ids?: string[]; vs?: Float32Array[]; payloads?: VectorPayload[]; generation?: number } = {}) =>
  new MemoryIndex(opts.generation ?? 1, 4, opts.ids ?? ['a', 'b', 'c'], opts.vs ?? vectors(), opts.payloads ?? [payload(), payload(), payload()]);

t.test('equal for the same ids, vectors and visibility; price, stock, brand and categories do not count', async (t) => {
  const base = index().fingerprint();
  t.equal(index().fingerprint(), base);
  t.equal(index({ payloads: [payload({ price: 99, inStock: false, brand: 'X', categoryIds: ['d'] }), payload(), payload()] }).fingerprint(), base);
  t.match(base, /^3:[0-9a-f]+$/, 'the count of vectors, then the hash');
});

t.test('different when anything a neighbour list depends on changes', async (t) => {
  const base = index().fingerprint();
  const moved = vectors();
  moved[2] = new Float32Array([0.8, 0.6, 0, 0]);
  t.not(index({ vs: moved }).fingerprint(), base, 'a vector');
  const tiny = vectors();
  tiny[0] = new Float32Array([1, 1e-7, 0, 0]);
  t.not(index({ vs: tiny }).fingerprint(), base, 'a vector by its last bit');
  t.not(index({ ids: ['a', 'b', 'd'] }).fingerprint(), base, 'an id');
  t.not(index({ payloads: [payload(), payload({ visible: false }), payload()] }).fingerprint(), base, 'visibility');
  t.not(index({ generation: 2 }).fingerprint(), base, 'the generation (a new model)');
  t.not(index({ ids: ['a', 'b'], vs: vectors().slice(0, 2), payloads: [payload(), payload()] }).fingerprint(), base, 'a product removed');
});
