import type { Knex } from 'knex';

/**
 * The plain baseline measured beside our search: Postgres `english` full-text ranking over
 * name, brand and description, all terms first, then any term to fill up to k.
 */
export async function prepareBaseline(db: Knex, tenantId: string): Promise<void> {
  await db.raw('DROP TABLE IF EXISTS eval_baseline');
  await db.raw(
    `CREATE TABLE eval_baseline AS
       SELECT id, to_tsvector('english', coalesce(data->'name'->>'en', '') || ' ' || coalesce(data->>'brand', '') || ' ' || coalesce(data->'description'->>'en', '')) AS tsv
         FROM products WHERE tenant_id = ?`,
    [tenantId],
  );
  await db.raw('CREATE INDEX ON eval_baseline USING gin (tsv)');
}

export async function baselineSearch(db: Knex, query: string, k: number): Promise<string[]> {
  const all = await db.raw(
    `SELECT id FROM eval_baseline, plainto_tsquery('english', ?) q WHERE tsv @@ q ORDER BY ts_rank(tsv, q) DESC, id LIMIT ?`,
    [query, k],
  );
  const ids: string[] = all.rows.map((r: { id: string }) => r.id);
  if (ids.length >= k) return ids;
  const any = await db.raw(
    `SELECT id FROM eval_baseline, (SELECT replace(plainto_tsquery('english', ?)::text, '&', '|')::tsquery AS q) x
      WHERE x.q::text <> '' AND tsv @@ x.q AND NOT (id = ANY(?)) ORDER BY ts_rank(tsv, x.q) DESC, id LIMIT ?`,
    [query, ids, k - ids.length],
  );
  return [...ids, ...any.rows.map((r: { id: string }) => r.id)];
}
