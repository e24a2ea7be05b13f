import type { Knex } from 'knex';

/**
 * The plain Postgres baseline measured beside our search: `english` full-text ranking over
 * name, brand and description as stored, all terms first, then any term to fill up to k.
 * One table holds every evaluated tenant's rows, so collections never see each other's products.
 */
export async function prepareBaseline(db: Knex, tenantId: string): Promise<void> {
  await db.raw('CREATE TABLE IF NOT EXISTS eval_baseline (tenant_id text NOT NULL, id text NOT NULL, tsv tsvector NOT NULL)');
  await db.raw('CREATE INDEX IF NOT EXISTS eval_baseline_tsv ON eval_baseline USING gin (tsv)');
  await db.raw('DELETE FROM eval_baseline WHERE tenant_id = ?', [tenantId]);
  await db.raw(
    `INSERT INTO eval_baseline (tenant_id, id, tsv)
       SELECT tenant_id, id, to_tsvector('english', coalesce(data->'name'->>'en', '') || ' ' || coalesce(data->>'brand', '') || ' ' || coalesce(data->'description'->>'en', ''))
         FROM products WHERE tenant_id = ?`,
    [tenantId],
  );
  await db.raw('ANALYZE eval_baseline');
}

export async function baselineSearch(db: Knex, tenantId: string, query: string, k: number): Promise<string[]> {
  const all = await db.raw(
    `SELECT id FROM eval_baseline, plainto_tsquery('english', ?) q WHERE tenant_id = ? AND tsv @@ q ORDER BY ts_rank(tsv, q) DESC, id LIMIT ?`,
    [query, tenantId, k],
  );
  const ids: string[] = all.rows.map((r: { id: string }) => r.id);
  if (ids.length >= k) return ids;
  const any = await db.raw(
    `SELECT id FROM eval_baseline, (SELECT replace(plainto_tsquery('english', ?)::text, '&', '|')::tsquery AS q) x
      WHERE tenant_id = ? AND x.q::text <> '' AND tsv @@ x.q AND NOT (id = ANY(?)) ORDER BY ts_rank(tsv, x.q) DESC, id LIMIT ?`,
    [query, tenantId, ids, k - ids.length],
  );
  return [...ids, ...any.rows.map((r: { id: string }) => r.id)];
}
