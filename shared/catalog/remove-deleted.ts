import type { ProductRow } from './products.repo.js';

interface Products {
  existingIds(tenantId: string, ids: string[]): Promise<Set<string>>;
  findMany(tenantId: string, ids: string[]): Promise<ProductRow[]>;
}

/**
 * Takes a batch's products out of an index (the lexical engine, the vector store) through
 * `remove`: the ids it deleted that are not stored again since, and the ids it wrote that are no
 * longer stored. A product stored again between that check and the removal (its own batch's job
 * may have written it just before) is read back and pushed onto `rows`, to be written again by the
 * caller. A delete committed after the check takes the product out with its own removals.
 * Returns the ids that stay removed.
 */
export async function removeDeleted(
  products: Products,
  tenantId: string,
  batch: { ids: string[]; deletes: string[] },
  rows: ProductRow[],
  remove: (ids: string[]) => Promise<void>,
): Promise<string[]> {
  const found = new Set(rows.map((r) => r.id));
  const back = await products.existingIds(tenantId, batch.deletes);
  const gone = [...new Set([...batch.deletes.filter((id) => !back.has(id)), ...batch.ids.filter((id) => !found.has(id))])];
  if (!gone.length) return gone;
  await remove(gone);
  const again = await products.findMany(tenantId, gone);
  rows.push(...again);
  const stored = new Set(again.map((r) => r.id));
  return gone.filter((id) => !stored.has(id));
}

/**
 * After a write into an index: takes out again the products of `ids` no longer stored (deleted
 * while they were being written, their removal having landed before the write). A delete
 * committed after this check is followed by its own removal, which comes after the write.
 */
export async function removeUnstored(
  products: Pick<Products, 'existingIds'>,
  tenantId: string,
  ids: string[],
  remove: (ids: string[]) => Promise<void>,
): Promise<void> {
  const kept = await products.existingIds(tenantId, ids);
  const lost = ids.filter((id) => !kept.has(id));
  if (lost.length) await remove(lost);
}
