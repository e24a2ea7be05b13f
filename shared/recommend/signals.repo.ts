import type { Knex } from 'knex';
import { clickStatsSql } from './click-stats.sql.js';

/** Half-life of an event's weight in co-views, trends and click statistics. */
export const HALF_LIFE_DAYS = 7;
/** Events older than this are not read at all. */
export const WINDOW_DAYS = 60;
/** Weights of the event types in trends. */
const TREND_WEIGHTS = { view: 1, search_click: 2, add_to_cart: 4, purchase: 8 };
/**
 * Set in the transaction of each whole-store aggregation over events: their joins (sessions with
 * themselves, clicks with their searches) are bulk joins that a hash join answers in one pass. A
 * store's freshly arrived events are not yet in the table's statistics, so the planner saw one row
 * where there were thousands and chose nested loops: 6,895 events took 23 s (24 million join
 * filter tests), 106 ms with this (EXPLAIN ANALYZE, README). JIT off as well: a plan the setting
 * steers carries the planner's disable cost (10^10), far past jit_above_cost, and compiling it took
 * 1.2-2 s (the click statistics of a store with no searches: 0.5 ms without).
 */
const BULK_JOINS = 'SET LOCAL enable_nestloop = off; SET LOCAL jit = off';
const DECAY = `exp(-extract(epoch FROM now() - e.occurred_at) / 86400.0 * ln(2) / ${HALF_LIFE_DAYS})`;
/**
 * Events name products as the browser sends them (not checked when received): only the store's
 * own products count, so ids it never had (or deleted) take no place among its 20 co-views per
 * product or its top trends, where their cards would be missing and push real products out.
 */
const IN_CATALOG = 'EXISTS (SELECT 1 FROM products p WHERE p.tenant_id = e.tenant_id AND p.id = e.product_id)';

export interface ClickStat {
  query: string;
  product_id: string;
  clicks: number;
  searches: number;
  attractiveness: number;
  /** Expected looks at the product over the logged first pages that showed it (0: not logged). */
  examinations: number;
}

/**
 * What recommendations and click learning compute from shopper events, each recomputed for a
 * whole store in one transaction (a re-run gives the same rows): co-views, trends, click stats.
 */
export function signalsRepo(db: Knex) {
  return {
    /**
     * Co-views: products viewed (or clicked, carted) in the same session, each pair's decayed
     * weight divided by the square root of both products' decayed views (a cosine), so bestsellers
     * do not fill every list; the 20 best per product kept.
     */
    async recomputeCoViews(tenantId: string): Promise<number> {
      return db.transaction(async (trx) => {
        await trx('co_views').where({ tenant_id: tenantId }).delete();
        await trx.raw(BULK_JOINS);
        const { rowCount } = await trx.raw(
          `WITH v AS (
             SELECT e.session, e.product_id, max(${DECAY}) AS w
               FROM events e
              WHERE e.tenant_id = ? AND e.type IN ('view', 'search_click', 'add_to_cart') AND e.product_id IS NOT NULL
                AND e.occurred_at > now() - interval '${WINDOW_DAYS} days' AND ${IN_CATALOG}
              GROUP BY e.session, e.product_id),
           n AS (SELECT product_id, sum(w) AS w FROM v GROUP BY product_id),
           pairs AS (
             SELECT a.product_id, b.product_id AS other_id, sum(least(a.w, b.w)) AS w
               FROM v a JOIN v b ON a.session = b.session AND a.product_id <> b.product_id
              GROUP BY a.product_id, b.product_id),
           ranked AS (
             SELECT p.product_id, p.other_id, p.w / sqrt(na.w * nb.w) AS score,
                    row_number() OVER (PARTITION BY p.product_id ORDER BY p.w / sqrt(na.w * nb.w) DESC, p.other_id) AS r
               FROM pairs p JOIN n na ON na.product_id = p.product_id JOIN n nb ON nb.product_id = p.other_id)
           INSERT INTO co_views (tenant_id, product_id, other_id, score)
           SELECT ?, product_id, other_id, score FROM ranked WHERE r <= 20`,
          [tenantId, tenantId],
        );
        return rowCount ?? 0;
      });
    },
    /**
     * Trends: decayed, weighted views, clicks, carts and purchases per product, with its categories.
     * Each session counts once per product and event type (its newest event), as in co-views: events
     * come from browsers with a public key, and one session replaying a view (a reload loop, a script)
     * must not outweigh many shoppers.
     */
    async recomputeTrends(tenantId: string): Promise<number> {
      const weight = `CASE e.type ${Object.entries(TREND_WEIGHTS)
        .map(([t, w]) => `WHEN '${t}' THEN ${w}`)
        .join(' ')} ELSE 0 END`;
      return db.transaction(async (trx) => {
        await trx('product_trends').where({ tenant_id: tenantId }).delete();
        const { rowCount } = await trx.raw(
          `INSERT INTO product_trends (tenant_id, product_id, score, category_ids)
           SELECT ?, t.product_id, t.score, coalesce(d.category_ids, '{}')
             FROM (SELECT e.product_id, sum(${weight} * e.w) AS score
                     FROM (SELECT e.session, e.product_id, e.type, max(${DECAY}) AS w
                             FROM events e
                            WHERE e.tenant_id = ? AND e.product_id IS NOT NULL AND e.occurred_at > now() - interval '${WINDOW_DAYS} days'
                              AND ${IN_CATALOG}
                            GROUP BY e.session, e.product_id, e.type) e
                    GROUP BY e.product_id) t
             LEFT JOIN search_generations g ON g.tenant_id = ?
             LEFT JOIN search_docs d ON d.tenant_id = ? AND d.generation = g.active AND d.product_id = t.product_id`,
          [tenantId, tenantId, tenantId, tenantId],
        );
        return rowCount ?? 0;
      });
    },
    /**
     * Click statistics per normalized query and product, corrected for position bias by inverse
     * propensity weighting: a click at position p counts 1 / examination(p), examination(p) = 1/p
     * (shoppers look at lower results less), over the query's first-page searches. Where the
     * first pages were logged with what they showed, a product's examinations (sum of 1/p over the
     * pages that showed it) are counted, its attractiveness is its clicks on those pages per
     * examination (at least MIN_EXAMINATIONS taken), and products shown and never clicked get a
     * row too (clicks 0: the skips of click learning). A query whose first pages were logged in
     * part (searches from before pages were logged) gets both figures, each over its own
     * searches, weighed by their number: a few logged pages that did not show a click do not
     * set the product of thirty clicked unlogged ones to 0. Queries with fewer than MIN_SEARCHES
     * searches are left out. A shopper counts once: a session's clicks on a product for a query
     * (and its searches of the query) within REPEAT_HOURS of its previous one are repeats, so one
     * session clicking again and again cannot lift a product alone (click-stats.sql.ts).
     */
    async recomputeClicks(tenantId: string): Promise<number> {
      return db.transaction(async (trx) => {
        await trx('click_stats').where({ tenant_id: tenantId }).delete();
        await trx.raw(BULK_JOINS);
        const { rowCount } = await trx.raw(clickStatsSql(WINDOW_DAYS), [tenantId, tenantId, tenantId, tenantId]);
        return rowCount ?? 0;
      });
    },
    async coViews(tenantId: string, productId: string, limit: number): Promise<string[]> {
      const rows = await db('co_views')
        .where({ tenant_id: tenantId, product_id: productId })
        .orderBy([{ column: 'score', order: 'desc' }, 'other_id'])
        .limit(limit)
        .select('other_id');
      return rows.map((r) => r.other_id);
    },
    async trending(tenantId: string, categoryId: string | null, limit: number): Promise<string[]> {
      const q = db('product_trends').where({ tenant_id: tenantId });
      if (categoryId) q.andWhereRaw('? = ANY(category_ids)', [categoryId]);
      const rows = await q
        .orderBy([{ column: 'score', order: 'desc' }, 'product_id'])
        .limit(limit)
        .select('product_id');
      return rows.map((r) => r.product_id);
    },
    /** A store's co-view rows (at most `limit`), best first per product (what SignalsCache holds). */
    async allCoViews(tenantId: string, limit: number): Promise<Array<{ product_id: string; other_id: string }>> {
      return db('co_views')
        .where({ tenant_id: tenantId })
        .orderBy(['product_id', { column: 'score', order: 'desc' }, 'other_id'])
        .limit(limit)
        .select('product_id', 'other_id');
    },
    /** The store's `limit` best trending products with their categories. */
    async topTrends(tenantId: string, limit: number): Promise<Array<{ product_id: string; category_ids: string[] }>> {
      return db('product_trends')
        .where({ tenant_id: tenantId })
        .orderBy([{ column: 'score', order: 'desc' }, 'product_id'])
        .limit(limit)
        .select('product_id', 'category_ids');
    },
    /** Replaces a store's similar lists in one transaction (learn-events), with the fingerprint of the vectors they come from. */
    async replaceSimilar(tenantId: string, rows: Array<{ product_id: string; ids: string[] }>, fingerprint: string | null): Promise<void> {
      await db.transaction(async (trx) => {
        await trx('similar_lists').where({ tenant_id: tenantId }).delete();
        for (let i = 0; i < rows.length; i += 2000) {
          const chunk = rows.slice(i, i + 2000);
          await trx('similar_lists').insert(chunk.map((r) => ({ tenant_id: tenantId, product_id: r.product_id, ids: r.ids })));
        }
        await trx('similar_state').where({ tenant_id: tenantId }).delete();
        if (fingerprint) await trx('similar_state').insert({ tenant_id: tenantId, fingerprint, listed: rows.length });
      });
    },
    /** What the store's similar lists were computed from, and how many there are (null: never computed). */
    async similarState(tenantId: string): Promise<{ fingerprint: string; listed: number } | null> {
      return (await db('similar_state').where({ tenant_id: tenantId }).first('fingerprint', 'listed')) ?? null;
    },
    /** A store's similar lists (at most `limit`), what SignalsCache holds. */
    async allSimilar(tenantId: string, limit: number): Promise<Array<{ product_id: string; ids: string[] }>> {
      return db('similar_lists').where({ tenant_id: tenantId }).limit(limit).select('product_id', 'ids');
    },
    async clickStats(tenantId: string): Promise<ClickStat[]> {
      return db('click_stats').where({ tenant_id: tenantId }).select('query', 'product_id', 'clicks', 'searches', 'attractiveness', 'examinations');
    },
    /** Stores with events since `since` (the scheduled recompute's fan-out). */
    async tenantsWithEvents(since: Date): Promise<string[]> {
      const { rows } = await db.raw(
        `SELECT t.id FROM tenants t WHERE EXISTS (SELECT 1 FROM events e WHERE e.tenant_id = t.id AND e.occurred_at >= ?) ORDER BY t.id`,
        [since],
      );
      return rows.map((r: { id: string }) => r.id);
    },
  };
}
export type SignalsRepo = ReturnType<typeof signalsRepo>;
