import type { Knex } from 'knex';
import type { VectorStore } from '../engines/vectors/port.js';

/** Products whose latest version has no vector in the serving generation yet, and how long the oldest has waited. */
export interface VectorLag {
  pending: number;
  oldest_s: number | null;
}

/** Products compared with the store per call (by id: one product list page, one store lookup). */
const PAGE = 1000;

/**
 * How far the configured vector store trails the catalog. The built-in store's vectors are in the
 * same database: one statement. Another store (Qdrant) is asked which version of each product it
 * serves, a page of products at a time.
 */
export async function vectorLag(db: Knex, vectors: VectorStore, tenantId: string): Promise<VectorLag> {
  return vectors.name === 'postgres' ? builtInLag(db, tenantId) : storeLag(db, vectors, tenantId);
}

/** The built-in store's lag: products without a vector at their version in the serving generation, in one statement. */
async function builtInLag(db: Knex, tenantId: string): Promise<VectorLag> {
  const { rows } = await db.raw(
    `SELECT count(*)::int AS pending, extract(epoch FROM now() - min(p.updated_at)) AS oldest
       FROM products p
       LEFT JOIN vector_generations g ON g.tenant_id = p.tenant_id
       LEFT JOIN product_vectors v ON v.tenant_id = p.tenant_id AND v.generation = g.active AND v.product_id = p.id
      WHERE p.tenant_id = ? AND (v.product_id IS NULL OR v.source_version < (extract(epoch FROM p.updated_at) * 1000)::bigint)`,
    [tenantId],
  );
  const r = rows[0];
  return { pending: r.pending, oldest_s: r.oldest == null ? null : Math.round(Number(r.oldest) * 10) / 10 };
}

async function storeLag(db: Knex, vectors: VectorStore, tenantId: string): Promise<VectorLag> {
  let pending = 0;
  let oldest: number | null = null;
  for (let after = ''; ;) {
    const { rows }: { rows: Array<{ id: string; version: string; waited: string }> } = await db.raw(
      `SELECT id, (extract(epoch FROM updated_at) * 1000)::bigint AS version, extract(epoch FROM now() - updated_at) AS waited
         FROM products WHERE tenant_id = ? AND id > ? ORDER BY id LIMIT ?`,
      [tenantId, after, PAGE],
    );
    if (!rows.length) break;
    const stored = await vectors.versions(
      tenantId,
      rows.map((r) => r.id),
    );
    for (const r of rows) {
      const v = stored.get(r.id);
      if (v !== undefined && v >= Number(r.version)) continue;
      pending++;
      oldest = Math.max(oldest ?? 0, Number(r.waited));
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].id;
  }
  return { pending, oldest_s: oldest == null ? null : Math.round(oldest * 10) / 10 };
}
