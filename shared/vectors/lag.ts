import type { Knex } from 'knex';

/** Products whose latest version has no vector in the serving generation yet, and how long the oldest has waited. */
export interface VectorLag {
  pending: number;
  oldest_s: number | null;
}

export async function vectorLag(db: Knex, tenantId: string): Promise<VectorLag> {
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
