import type { Deps } from '../../shared/deps.js';

/** Nearest products listed per product. */
export const SIMILAR_LISTED = 24;
/** Stores with more vectors than this keep answering `similar` by a scan (the computation would take minutes). */
export const SIMILAR_MAX_PRODUCTS = 50_000;
const CHUNK = 500;
/** Part of the kept fingerprint: lists computed another way (a new length, a new limit) are recomputed. */
const LISTS_VERSION = `${SIMILAR_LISTED}-${SIMILAR_MAX_PRODUCTS}`;

/**
 * Each product's SIMILAR_LISTED nearest products in the serving generation (built-in vector store:
 * the worker's in-memory copy, one exact scan per product, about 2 ms each at 20k x 64), replacing
 * the store's similar lists in one transaction. With no vectors, another vector store, or more than
 * SIMILAR_MAX_PRODUCTS vectors, the lists are emptied (`similar` then scans per request). Products
 * added after a computation are in no other product's list until the next one. While the vectors
 * are those the lists were computed from (the store's fingerprint: ids, vectors, visibility; a
 * price or stock change leaves it), the lists are kept and nothing is scanned (`reused`).
 */
export async function computeSimilarLists(
  deps: Deps,
  tenantId: string,
  progress?: (share: number) => Promise<void>,
): Promise<{ listed: number; reused: boolean }> {
  const fingerprint = (await deps.vectors.fingerprint?.(tenantId)) ?? null;
  const kept = fingerprint ? await deps.repos.signals.similarState(tenantId) : null;
  if (kept && kept.fingerprint === `${LISTS_VERSION}:${fingerprint}`) return { listed: kept.listed, reused: true };
  // Only a store that can list its ids (the built-in one) gets lists; Qdrant answers nearest itself.
  const ids = deps.vectors.servingIds ? await deps.vectors.servingIds(tenantId) : [];
  const rows: Array<{ product_id: string; ids: string[] }> = [];
  if (ids.length <= SIMILAR_MAX_PRODUCTS) {
    for (let i = 0; i < ids.length; i += CHUNK) {
      const vectors = await deps.vectors.vectorsOf(tenantId, ids.slice(i, i + CHUNK));
      for (const [id, v] of vectors) {
        const near = await deps.vectors.nearest(tenantId, v, SIMILAR_LISTED, { exclude: [id] });
        rows.push({ product_id: id, ids: near.map((h) => h.id) });
      }
      await progress?.((i + CHUNK) / ids.length);
      // Let the worker's other jobs and heartbeats in between chunks.
      await new Promise((r) => setImmediate(r));
    }
  }
  await deps.repos.signals.replaceSimilar(tenantId, rows, fingerprint && `${LISTS_VERSION}:${fingerprint}`);
  return { listed: rows.length, reused: false };
}
