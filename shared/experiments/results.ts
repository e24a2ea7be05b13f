import type { Knex } from 'knex';
import type { ExperimentRow } from './experiments.repo.js';
import { METRICS, type Metric } from './experiment.schema.js';
import { benjaminiHochberg, twoProportionTest, type ProportionTest } from './stats.js';

/** Significance level of the tests (adjusted p-values with more than two variants). */
export const ALPHA = 0.05;

interface Counts {
  searches: number;
  clicked: number;
  carted: number;
  bought: number;
  revenue: number;
}

/** Per variant: searches logged in the variant and how many of them got a click, a cart add or a purchase (events attributed by search_id). */
export async function variantCounts(db: Knex, tenantId: string, experimentId: string): Promise<Map<string, Counts>> {
  // One pass each: the tenant's attributed events of the experiment's searches grouped by search,
  // hash-joined to those searches. Only the experiment's events are grouped: grouping all of the
  // store's attributed events took 5.1 s at 1.5M events for an experiment of 5,000 searches (0.26 s
  // now, same answer). Without fresh statistics (a new experiment, autovacuum off) the planner guessed
  // one search and looped, regrouping the events once per search: seconds for a few thousand.
  const { rows } = await db.transaction(async (trx): Promise<{ rows: Array<Counts & { variant: string }> }> => {
    await trx.raw('SET LOCAL enable_nestloop = off');
    return trx.raw(
      `SELECT s.variant, count(*)::int AS searches, count(*) FILTER (WHERE e.clicked)::int AS clicked,
              count(*) FILTER (WHERE e.carted)::int AS carted, count(*) FILTER (WHERE e.bought)::int AS bought,
              coalesce(sum(e.revenue), 0)::float8 AS revenue
         FROM search_log s
         LEFT JOIN (SELECT e.search_id, bool_or(e.type = 'search_click') AS clicked, bool_or(e.type = 'add_to_cart') AS carted,
                           bool_or(e.type = 'purchase') AS bought, coalesce(sum(e.value) FILTER (WHERE e.type = 'purchase'), 0) AS revenue
                      FROM events e
                      JOIN search_log x ON x.id = e.search_id AND x.tenant_id = ? AND x.experiment_id = ?
                     WHERE e.tenant_id = ? AND e.search_id IS NOT NULL
                     GROUP BY e.search_id) e ON e.search_id = s.id
        WHERE s.tenant_id = ? AND s.experiment_id = ?
        GROUP BY s.variant`,
      [tenantId, experimentId, tenantId, tenantId, experimentId],
    );
  });
  return new Map(rows.map((r: Counts & { variant: string }) => [r.variant, r]));
}

const HIT: Record<Metric, keyof Counts> = { ctr: 'clicked', add_to_cart_rate: 'carted', conversion_rate: 'bought' };
const rate = (x: number, n: number) => (n ? x / n : 0);
type Comparison = ProportionTest & { p_adjusted: number; significant: boolean };

/**
 * An experiment's results: rates per variant, each non-control variant tested against the control
 * (the first variant) on every rate with a two-proportion z-test; with more than two variants the
 * p-values of each metric are adjusted by Benjamini-Hochberg. A winner is declared on the primary
 * metric only once every variant has `min_sample` searches.
 */
export function experimentResults(exp: ExperimentRow, counts: Map<string, Counts>) {
  const zero: Counts = { searches: 0, clicked: 0, carted: 0, bought: 0, revenue: 0 };
  const rows = exp.variants.map((v) => ({ v, c: counts.get(v.key) ?? zero }));
  const control = rows[0];
  const challengers = rows.slice(1);
  const correction = challengers.length > 1 ? 'benjamini_hochberg' : 'none';
  const tests = new Map<Metric, Comparison[]>();
  for (const metric of METRICS) {
    const hit = HIT[metric];
    const raw = challengers.map(({ c }) => twoProportionTest(control.c[hit], control.c.searches, c[hit], c.searches));
    const adjusted = correction === 'none' ? raw.map((r) => r.p_value) : benjaminiHochberg(raw.map((r) => r.p_value));
    tests.set(
      metric,
      raw.map((r, i) => ({ ...r, p_adjusted: adjusted[i], significant: adjusted[i] < ALPHA })),
    );
  }
  const variants = rows.map(({ v, c }, i) => ({
    key: v.key,
    control: i === 0,
    traffic_percent: v.traffic_percent,
    searches: c.searches,
    clicks: c.clicked,
    add_to_carts: c.carted,
    purchases: c.bought,
    revenue: round(c.revenue, 2),
    ctr: rate(c.clicked, c.searches),
    add_to_cart_rate: rate(c.carted, c.searches),
    conversion_rate: rate(c.bought, c.searches),
    revenue_per_search: rate(c.revenue, c.searches),
    vs_control: i === 0 ? null : (Object.fromEntries(METRICS.map((m) => [m, tests.get(m)![i - 1]])) as Record<Metric, Comparison>),
  }));
  const primary = tests.get(exp.primary_metric)!;
  let winner: string | null = null;
  let decision: 'insufficient_sample' | 'winner' | 'control_wins' | 'no_significant_difference';
  if (rows.some(({ c }) => c.searches < exp.min_sample)) {
    decision = 'insufficient_sample';
  } else {
    const better = primary
      .map((t, i) => ({ t, key: challengers[i].v.key }))
      .filter(({ t }) => t.significant && t.difference > 0)
      .sort((a, b) => b.t.difference - a.t.difference);
    if (better.length) {
      winner = better[0].key;
      decision = 'winner';
    } else if (primary.length && primary.every((t) => t.significant && t.difference < 0)) {
      winner = control.v.key;
      decision = 'control_wins';
    } else {
      decision = 'no_significant_difference';
    }
  }
  return {
    experiment_id: exp.id,
    status: exp.status,
    primary_metric: exp.primary_metric,
    min_sample: exp.min_sample,
    alpha: ALPHA,
    confidence: 0.95,
    correction,
    variants,
    winner,
    decision,
  };
}
export type ExperimentResults = ReturnType<typeof experimentResults>;

const round = (n: number, places: number) => Math.round(n * 10 ** places) / 10 ** places;
