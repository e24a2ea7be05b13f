import type { Knex } from 'knex';

/** Where a tenant's products stand in the engine: what the fault tests check "indexed exactly once" with. */
export interface IndexReport {
  /** Products stored but with no search document (with its card) in the serving generation. */
  missing: string[];
  /** Products with more than one search document in the serving generation (never allowed). */
  duplicated: string[];
  /** Products whose latest stored version is not marked indexed. */
  unindexed: number;
  /** Search documents of products that are not stored (deleted, never sent). */
  strays: number;
}

/** Compares the stored catalog of a tenant with its serving search documents and index state. */
export async function indexReport(db: Knex, tenantId: string): Promise<IndexReport> {
  // A check, not a request: the service's statement timeout is for requests, and a loaded machine passed it here.
  const { rows } = await db.transaction(async (trx): Promise<{ rows: unknown[] }> => {
    await trx.raw(`SET LOCAL statement_timeout = '120s'`);
    return await trx.raw(
      `WITH docs AS (
       SELECT d.product_id, count(*) AS n FROM search_docs d
         JOIN search_generations g ON g.tenant_id = d.tenant_id AND g.active = d.generation
         JOIN search_cards c ON c.tenant_id = d.tenant_id AND c.generation = d.generation AND c.product_id = d.product_id
        WHERE d.tenant_id = ? GROUP BY d.product_id)
     SELECT coalesce(p.id, docs.product_id) AS id, p.id IS NOT NULL AS stored, coalesce(docs.n, 0) AS docs,
            (s.indexed_version IS NULL OR s.indexed_version < s.version) AS stale
       FROM (SELECT id FROM products WHERE tenant_id = ?) p
       FULL JOIN docs ON docs.product_id = p.id
       LEFT JOIN product_index_state s ON s.tenant_id = ? AND s.product_id = p.id`,
      [tenantId, tenantId, tenantId],
    );
  });
  const report: IndexReport = { missing: [], duplicated: [], unindexed: 0, strays: 0 };
  for (const r of rows as Array<{ id: string; stored: boolean; docs: number; stale: boolean | null }>) {
    if (!r.stored) report.strays++;
    else if (Number(r.docs) === 0) report.missing.push(r.id);
    else if (Number(r.docs) > 1) report.duplicated.push(r.id);
    if (r.stored && r.stale) report.unindexed++;
  }
  return report;
}

/** True when every stored product has exactly one serving document and is marked indexed in its latest version. */
export function complete(r: IndexReport): boolean {
  return r.missing.length === 0 && r.duplicated.length === 0 && r.unindexed === 0 && r.strays === 0;
}

/** How many search documents a generation of a tenant holds. */
export async function docsIn(db: Knex, tenantId: string, generation: number): Promise<number> {
  const row = await db('search_docs').where({ tenant_id: tenantId, generation }).count({ n: '*' }).first();
  return Number(row!.n);
}
