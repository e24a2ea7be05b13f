import type { Knex } from 'knex';

export const EVENT_TYPES = ['search_click', 'view', 'add_to_cart', 'purchase'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** One shopper event as stored (`id` is ours; `client_event_id` is the client's dedupe id). */
export interface EventRow {
  id: string;
  tenant_id: string;
  client_event_id: string | null;
  type: EventType;
  session: string;
  search_id: string | null;
  product_id: string | null;
  position: number | null;
  quantity: number | null;
  value: number | null;
  currency: string | null;
  occurred_at: Date | string;
  received_at?: Date;
}

/** A first-page search of a session that had a zero-result search (input to reformulation mining). */
export interface SessionSearch {
  id: string;
  session: string;
  normalized: string;
  total: number;
  at: Date;
}

/** A search_click joined with the search it came from (input to co-click mining). */
export interface SearchClickRow {
  search_id: string;
  product_id: string;
  session: string;
  normalized: string;
}

export function eventsRepo(db: Knex) {
  return {
    /**
     * One statement for a batch; a client event id already stored for the tenant is skipped, and
     * rows of tenants deleted meanwhile are dropped. Returns how many rows were inserted.
     */
    async insertMany(rows: EventRow[]): Promise<number> {
      if (!rows.length) return 0;
      const { rowCount } = await db.raw(
        `INSERT INTO events (id, tenant_id, client_event_id, type, session, search_id, product_id, position, quantity, value, currency, occurred_at)
         SELECT v.id, v.tenant_id, v.client_event_id, v.type, v.session, v.search_id, v.product_id, v.position, v.quantity, v.value, v.currency, v.occurred_at
           FROM jsonb_to_recordset(?::jsonb) AS v(id text, tenant_id text, client_event_id text, type text, session text, search_id text,
                product_id text, position int, quantity int, value float8, currency text, occurred_at timestamptz)
           JOIN tenants t ON t.id = v.tenant_id
         ON CONFLICT (tenant_id, client_event_id) WHERE client_event_id IS NOT NULL DO NOTHING`,
        [JSON.stringify(rows)],
      );
      return rowCount ?? 0;
    },
    /** A tenant's events, oldest first (tests and diagnostics). */
    async list(tenantId: string, opts: { session?: string; limit?: number } = {}): Promise<EventRow[]> {
      const q = db<EventRow>('events').where({ tenant_id: tenantId });
      if (opts.session) q.andWhere({ session: opts.session });
      return q.orderBy([{ column: 'occurred_at' }, { column: 'id' }]).limit(opts.limit ?? 1000);
    },
    /** First-page, non-empty searches since `since` in sessions that had a zero-result one, by session and time. */
    async zeroResultSessionSearches(tenantId: string, since: Date, limit: number): Promise<SessionSearch[]> {
      const { rows } = await db.raw(
        `SELECT s.id, s.session, s.normalized, s.total, s.created_at AS at
           FROM search_log s
          WHERE s.tenant_id = ? AND s.created_at >= ? AND s.session IS NOT NULL AND s.page = 1 AND s.normalized <> ''
            AND s.session IN (SELECT z.session FROM search_log z
                               WHERE z.tenant_id = ? AND z.created_at >= ? AND z.session IS NOT NULL AND z.page = 1
                                 AND z.total = 0 AND z.normalized <> '')
          ORDER BY s.session, s.created_at, s.id
          LIMIT ?`,
        [tenantId, since, tenantId, since, limit],
      );
      return rows;
    },
    /** search_click events since `since` with their search's normalized query (same tenant only). */
    async searchClicks(tenantId: string, since: Date, limit: number): Promise<SearchClickRow[]> {
      const { rows } = await db.raw(
        `SELECT e.search_id, e.product_id, coalesce(s.session, e.session) AS session, s.normalized
           FROM events e JOIN search_log s ON s.id = e.search_id AND s.tenant_id = e.tenant_id
          WHERE e.tenant_id = ? AND e.type = 'search_click' AND e.occurred_at >= ? AND e.product_id IS NOT NULL AND s.normalized <> ''
          LIMIT ?`,
        [tenantId, since, limit],
      );
      return rows;
    },
    /** Tenants with at least one search since `since` (the daily mining fan-out). */
    async tenantsSearchingSince(since: Date): Promise<string[]> {
      const { rows } = await db.raw(
        `SELECT t.id FROM tenants t WHERE EXISTS (SELECT 1 FROM search_log s WHERE s.tenant_id = t.id AND s.created_at >= ?) ORDER BY t.id`,
        [since],
      );
      return rows.map((r: { id: string }) => r.id);
    },
  };
}
export type EventsRepo = ReturnType<typeof eventsRepo>;
