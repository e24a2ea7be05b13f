import type { Knex } from 'knex';

export interface SearchLogRow {
  id: string;
  tenant_id: string;
  session: string | null;
  query: string;
  normalized: string;
  lang: string;
  filters: Record<string, unknown>;
  sort: string | null;
  total: number;
  page: number;
  took_ms: number;
  zero_result: boolean;
  /** The running experiment and the session's variant, when the search was in one. */
  experiment_id?: string | null;
  variant?: string | null;
  /** The page's product ids in order (click learning's impressions). */
  shown?: string[] | null;
  created_at?: Date;
}

export function searchLogRepo(db: Knex) {
  return {
    /** One statement for a batch of log rows; ids make a retried flush harmless. */
    async insertMany(rows: SearchLogRow[]): Promise<void> {
      if (!rows.length) return;
      await db.raw(
        `INSERT INTO search_log (id, tenant_id, session, query, normalized, lang, filters, sort, total, page, took_ms, zero_result, experiment_id, variant, shown, created_at)
         SELECT v.id, v.tenant_id, v.session, v.query, v.normalized, v.lang, v.filters, v.sort, v.total, v.page, v.took_ms, v.zero_result,
                v.experiment_id, v.variant, v.shown, coalesce(v.created_at, now())
           FROM jsonb_to_recordset(?::jsonb) AS v(id text, tenant_id text, session text, query text, normalized text, lang text,
                filters jsonb, sort text, total int, page int, took_ms float8, zero_result boolean, experiment_id text, variant text, shown text[], created_at timestamptz)
         ON CONFLICT (id) DO NOTHING`,
        [JSON.stringify(rows)],
      );
    },
    /** Successful queries of the last 30 days by how often they were searched. */
    async popularQueries(tenantId: string, limit: number): Promise<Array<{ normalized: string; query: string; count: number }>> {
      const { rows } = await db.raw(
        `SELECT normalized, mode() WITHIN GROUP (ORDER BY query) AS query, count(*)::int AS count
           FROM search_log WHERE tenant_id = ? AND total > 0 AND page = 1 AND normalized <> '' AND created_at > now() - interval '30 days'
          GROUP BY normalized HAVING count(*) >= 2 ORDER BY count DESC LIMIT ?`,
        [tenantId, limit],
      );
      return rows;
    },
  };
}
