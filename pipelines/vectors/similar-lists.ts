import type { Deps } from '../../shared/deps.js';
import { SIMILAR_LISTS_HELD } from '../../shared/recommend/index.js';
import { EXACT_MAX } from '../../shared/engines/vectors/neighbour-lists.js';

/** Nearest products listed per product. */
export const SIMILAR_LISTED = 24;
/** Stores with more vectors than this keep answering `similar` by a scan (as many lists as the API processes hold, SIMILAR_LISTS_HELD). */
export const SIMILAR_MAX_PRODUCTS = SIMILAR_LISTS_HELD;
/** Part of the kept fingerprint: lists computed another way (a new length, a new limit, a new method) are recomputed. */
const LISTS_VERSION = `${SIMILAR_LISTED}-${SIMILAR_MAX_PRODUCTS}-${EXACT_MAX}`;

/**
 * Each product's SIMILAR_LISTED nearest visible products in the serving generation (built-in
 * vector store: the worker's in-memory copy; exact up to EXACT_MAX vectors, about 2 ms a product
 * at 20k x 64, an inverted file past it: shared/engines/vectors/neighbour-lists.ts), replacing the
 * store's similar lists in one transaction. With no vectors, another vector store, or more than
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
  // Only a store that lists neighbours itself (the built-in one) gets lists; Qdrant answers nearest itself.
  const listable = !!deps.vectors.neighbourLists && (await deps.vectors.count(tenantId)) <= SIMILAR_MAX_PRODUCTS;
  const lists = listable ? await deps.vectors.neighbourLists!(tenantId, SIMILAR_LISTED, progress) : [];
  const rows = lists.map((l) => ({ product_id: l.id, ids: l.ids }));
  await deps.repos.signals.replaceSimilar(tenantId, rows, fingerprint && `${LISTS_VERSION}:${fingerprint}`);
  return { listed: rows.length, reused: false };
}
