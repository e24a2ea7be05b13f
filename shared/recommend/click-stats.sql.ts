/** A query needs this many searches before its clicks move a ranking. */
export const MIN_SEARCHES = 10;
/** A product shown and never clicked is kept in the click statistics from this many examinations on. */
export const MIN_EXAMINATIONS = 10;
/**
 * Repeats closer than this to the same shopper's previous one count once in click statistics: a
 * session's (or Insights user token's) clicks on one product for one query, and its first-page
 * searches of one query. A run of repeats (a double click, a browser retry, a script hammering one
 * result, a shopper searching and clicking again) counts once however long it lasts while no gap
 * reaches this; a shopper coming back a day later counts again.
 */
export const REPEAT_HOURS = 24;

const REPEAT = `interval '${REPEAT_HOURS} hours'`;

/**
 * The click statistics of one store over the last `windowDays` (bindings: the tenant id four
 * times); see signalsRepo.recomputeClicks.
 * `fs`: the window's first-page searches, a searcher's repeats of a query dropped (searches
 * without a session count each). `ce`: the window's search clicks with their search's query, the
 * gap to the same session's previous click on the product for that query; only clicks without one
 * within REPEAT_HOURS count (`c`). Every event carries a session (both event endpoints require one).
 */
export const clickStatsSql = (windowDays: number) => `
  WITH sl AS (
    SELECT s.normalized, s.shown,
           s.created_at - lag(s.created_at) OVER (PARTITION BY coalesce(s.session, s.id), s.normalized ORDER BY s.created_at, s.id) AS gap
      FROM search_log s
     WHERE s.tenant_id = ? AND s.page = 1 AND s.normalized <> '' AND s.created_at > now() - interval '${windowDays} days'),
  fs AS (SELECT normalized, shown FROM sl WHERE gap IS NULL OR gap >= ${REPEAT}),
  q AS (
    SELECT normalized AS query, count(*) AS searches, count(*) FILTER (WHERE shown IS NOT NULL) AS logged
      FROM fs GROUP BY normalized HAVING count(*) >= ${MIN_SEARCHES}),
  imp AS (
    SELECT fs.normalized AS query, x.product_id, sum(1.0 / least(x.pos, 20)::float8) AS exam
      FROM fs CROSS JOIN LATERAL unnest(fs.shown) WITH ORDINALITY AS x(product_id, pos)
     WHERE fs.shown IS NOT NULL AND fs.normalized IN (SELECT query FROM q)
     GROUP BY fs.normalized, x.product_id),
  ce AS (
    SELECT s.normalized, e.product_id, e.position, (s.page = 1 AND s.shown IS NOT NULL) AS on_logged,
           e.occurred_at - lag(e.occurred_at) OVER (PARTITION BY e.session, s.normalized, e.product_id ORDER BY e.occurred_at, e.id) AS gap
      FROM events e JOIN search_log s ON s.id = e.search_id AND s.tenant_id = e.tenant_id
     WHERE e.tenant_id = ? AND e.type = 'search_click' AND e.product_id IS NOT NULL AND e.position IS NOT NULL
       AND e.occurred_at > now() - interval '${windowDays} days'),
  c AS (
    SELECT normalized AS query, product_id, count(*) AS clicks, sum(least(position, 20)::float8) AS weight,
           coalesce(sum(least(position, 20)::float8) FILTER (WHERE NOT on_logged), 0) AS ipw,
           count(*) FILTER (WHERE on_logged) AS logged
      FROM ce WHERE gap IS NULL OR gap >= ${REPEAT}
     GROUP BY normalized, product_id),
  ranked AS (
    SELECT c.query, c.product_id, c.clicks, q.searches,
           (q.logged * least(1.0, c.logged / greatest(coalesce(i.exam, 0), ${MIN_EXAMINATIONS}))
            + (q.searches - q.logged) * least(1.0, c.ipw / greatest(q.searches - q.logged, 1))) / q.searches AS a,
           coalesce(i.exam, 0) AS exam,
           row_number() OVER (PARTITION BY c.query ORDER BY c.weight DESC, c.product_id) AS r
      FROM c JOIN q ON q.query = c.query LEFT JOIN imp i ON i.query = c.query AND i.product_id = c.product_id),
  skipped AS (
    SELECT i.query, i.product_id, 0 AS clicks, q.searches, 0.0::float8 AS a, i.exam,
           row_number() OVER (PARTITION BY i.query ORDER BY i.exam DESC, i.product_id) AS r
      FROM imp i JOIN q ON q.query = i.query
     WHERE i.exam >= ${MIN_EXAMINATIONS} AND NOT EXISTS (SELECT 1 FROM c WHERE c.query = i.query AND c.product_id = i.product_id))
  INSERT INTO click_stats (tenant_id, query, product_id, clicks, searches, attractiveness, examinations)
  SELECT ?, query, product_id, clicks, searches, a, exam FROM ranked WHERE r <= 30
  UNION ALL
  SELECT ?, query, product_id, clicks, searches, a, exam FROM skipped WHERE r <= 30`;
