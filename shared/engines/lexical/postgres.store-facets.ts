import type { Knex } from 'knex';
import { categoryLevelKey, ownFilter, type EngineQuery, type EngineResult } from './port.js';
import type { SqlPart } from './postgres.sql.js';
import { CATEGORY_LABEL, categoryKeyTest, facetLimit, facetValues, isCategoryFacet } from './postgres.facet-sql.js';

type Facets = EngineResult['facets'];

/**
 * Filters the counts are also kept for, one value at a time: a category page, in-stock only. (A
 * brand alone narrows by its index to few rows; only the brand counts of the whole store are slow.)
 */
const DIMENSIONS = ['category', 'in_stock'] as const;
type Dimension = (typeof DIMENSIONS)[number];
/** The key of each row per dimension (category: every level of every path, as category_ids holds them). */
const KEY_SQL: Record<Dimension, string> = { category: 'k.c', in_stock: 'd.in_stock::text' };
const KEY_FROM: Record<Dimension, string> = { category: 'd CROSS JOIN LATERAL unnest(d.category_ids) AS k(c)', in_stock: 'd' };
/** Counts under one filter value are kept for values of at least this many products: a smaller set is cheap to count per request. */
export const STORE_FACETS_MIN_ROWS = 1000;
/** A rebuild after a change waits at least this many times the last build's duration since it ended (at most about a tenth of one connection's time). */
const REBUILD_SPACING = 10;
/** Held at most this long without a notice (one may have been lost), and dropped after this long unused. */
const MAX_AGE_MS = 10 * 60_000;
const IDLE_MS = 30 * 60_000;

/** Whole-store counts of one store's generation, and the same under each large filter value. */
export interface StoreCounts {
  generation: number;
  /** The facet names counted. */
  names: Set<string>;
  total: number;
  all: Facets;
  /** Per dimension, per key (category key, normalized brand, 'true'/'false'): total and facet counts of the visible products with that value. */
  under: Record<Dimension, Map<string, { total: number; facets: Facets }>>;
  /** Every category key the store's products have (a category filter value names one or two keys). */
  categoryKeys: Set<string>;
  builtAt: number;
  usedAt: number;
}

/** What the held counts answer for a query: the facets they know, and the total when they know it. */
export interface StoreAnswer {
  generation: number;
  facets: Facets;
  total: number | null;
}

/**
 * Per-store precomputed facet counts for searches without words (the store browsed, a category
 * or brand page, in-stock only): such a search counts over a large part of the store, the same
 * counts for every shopper until the catalog changes. One statement counts every facet over the
 * store's visible products, and under each filter value of at least STORE_FACETS_MIN_ROWS products;
 * held per process and tenant with the generation it counted, dropped on the tenant's index notice.
 * Exact: a count is used only for a query whose filters (but the facet's own) are exactly what it
 * counted. Built in the background on a miss (that search counts itself), at most one build per
 * tenant at a time and never more than 1 / (1 + REBUILD_SPACING) of the time.
 */
export class StoreFacets {
  private held = new Map<string, StoreCounts>();
  private building = new Map<string, number>();
  /** Bumped by changed(): a build that started before it is not kept. */
  private epochs = new Map<string, number>();
  private lastBuild = new Map<string, { endedAt: number; ms: number; epoch: number }>();

  constructor(
    private db: Knex,
    private count: (name: string, source: SqlPart, tenantId: string) => SqlPart,
    private minRows = STORE_FACETS_MIN_ROWS,
  ) {}

  /** The tenant's index changed ('*': every tenant's): its counts go. */
  changed(tenantId: string): void {
    const ids = tenantId === '*' ? [...new Set([...this.held.keys(), ...this.building.keys()])] : [tenantId];
    for (const id of ids) {
      this.held.delete(id);
      this.epochs.set(id, (this.epochs.get(id) ?? 0) + 1);
    }
  }

  /** Whether counts are held for the tenant. */
  holds(tenantId: string): boolean {
    return this.held.has(tenantId);
  }

  /**
   * The counts known for a query without words (null: none; a build starts in the background when
   * the query is of a kind they answer). The caller checks `generation` against the one it reads.
   */
  answer(q: EngineQuery): StoreAnswer | null {
    if (q.ids || q.exclude?.length || !q.facets?.length) return null;
    const filters = q.filters ?? {};
    const names = Object.keys(filters);
    if (names.length > 1 || (names.length === 1 && !keyOf(names[0], filters[names[0]]))) return null;
    const now = Date.now();
    if (now - this.sweptAt > 60_000) this.sweep(now);
    const held = this.held.get(q.tenantId);
    if (!held || now - held.builtAt > MAX_AGE_MS || q.facets.some((f) => !held.names.has(f))) {
      this.build(q.tenantId, [...new Set([...(held?.names ?? []), ...q.facets])]);
      return null;
    }
    held.usedAt = now;
    const facets: Facets = {};
    let total: number | null = null;
    if (!names.length) {
      total = held.total;
      for (const f of q.facets) facets[f] = held.all[f];
      return { generation: held.generation, facets, total };
    }
    const dim = names[0] as Dimension;
    const key = resolveKey(held, dim, filters[dim]);
    const under = key == null ? undefined : held.under[dim].get(key);
    if (under) total = under.total;
    for (const f of q.facets) {
      // A facet ignores its own filter: the store's counts; the others are those under the filter's value.
      // Counts that follow every filter (facetsFollowFilters) are not held for the facet of the filter: counted.
      if (ownFilter(f) === dim) {
        if (!q.facetsFollowFilters) facets[f] = held.all[f];
      } else if (under) facets[f] = under.facets[f];
    }
    return { generation: held.generation, facets, total };
  }

  private sweptAt = Date.now();

  private sweep(now: number): void {
    this.sweptAt = now;
    for (const [id, c] of this.held) if (now - c.usedAt > IDLE_MS) this.held.delete(id);
  }

  private build(tenantId: string, names: string[]): void {
    if (this.building.has(tenantId)) return;
    const epoch = this.epochs.get(tenantId) ?? 0;
    // Spaced after a change only: a build for more facet names of the same catalog goes at once.
    const last = this.lastBuild.get(tenantId);
    if (last && last.epoch !== epoch && Date.now() - last.endedAt < REBUILD_SPACING * last.ms) return;
    this.building.set(tenantId, epoch);
    const started = Date.now();
    void this.countStore(tenantId, names)
      .then((counts) => {
        if (counts && (this.epochs.get(tenantId) ?? 0) === epoch) this.held.set(tenantId, counts);
      })
      .catch(() => undefined)
      .finally(() => {
        this.building.delete(tenantId);
        this.lastBuild.set(tenantId, { endedAt: Date.now(), ms: Date.now() - started, epoch });
      });
  }

  /** Every count of the store in one statement (one snapshot): `names` over its visible products, and under each large filter value. */
  async countStore(tenantId: string, names: string[]): Promise<StoreCounts | null> {
    const bindings: unknown[] = [tenantId, tenantId, this.minRows];
    const cols: string[] = [];
    for (const [i, name] of names.entries()) {
      const all = this.count(name, { sql: 'FROM d WHERE true', bindings: [] }, tenantId);
      cols.push(`${all.sql} AS all_${i}`);
      bindings.push(...all.bindings);
    }
    const under: string[] = [];
    for (const dim of DIMENSIONS) {
      const facetSql = names.map((name, i) => (ownFilter(name) === dim ? null : underSql(name, dim, i, tenantId))).filter((x) => !!x);
      under.push(
        `(SELECT coalesce(json_agg(json_build_object('key', t.key, 'total', t.n${facetSql.map((f) => `, '${f.alias}', ${f.alias}.counts`).join('')})), '[]')
            FROM big t ${facetSql.map((f) => `LEFT JOIN (${f.sql}) ${f.alias} ON ${f.alias}.dim = t.dim AND ${f.alias}.key = t.key`).join(' ')}
           WHERE t.dim = '${dim}') AS under_${dim}`,
      );
      for (const f of facetSql) bindings.push(...f.bindings);
    }
    const sql = `
      WITH g AS (SELECT active FROM search_generations WHERE tenant_id = ?),
      d AS MATERIALIZED (
        SELECT brand, brand_norm, category_ids, in_stock, price, facets FROM search_docs
         WHERE tenant_id = ? AND generation = (SELECT active FROM g) AND visible
      ),
      keys AS MATERIALIZED (
        SELECT dim, key, count(*)::int AS n FROM (
          ${DIMENSIONS.map((dim) => `SELECT '${dim}' AS dim, ${KEY_SQL[dim]} AS key FROM ${KEY_FROM[dim]}`).join(' UNION ALL ')}
        ) x WHERE key IS NOT NULL GROUP BY dim, key
      ),
      big AS MATERIALIZED (SELECT * FROM keys WHERE n >= ?)
      SELECT (SELECT active FROM g) AS generation, (SELECT count(*)::int FROM d) AS total,
             (SELECT coalesce(array_agg(key), '{}') FROM keys WHERE dim = 'category') AS category_keys,
             ${[...cols, ...under].join(',\n             ')}`;
    // Counted in memory, not in temp files: one statement in the background, once per change of the store.
    const rows = await this.db.transaction(async (trx) => {
      // JIT would compile this one statement for seconds (it is costed far above jit_above_cost).
      await trx.raw(`SET LOCAL work_mem = '64MB'`);
      await trx.raw('SET LOCAL jit = off');
      return (await trx.raw(sql, bindings as Knex.RawBinding[])).rows;
    });
    const row = rows[0];
    if (row.generation == null) return null;
    const all: Facets = {};
    names.forEach((name, i) => (all[name] = row[`all_${i}`]));
    const counts: StoreCounts = {
      generation: row.generation,
      names: new Set(names),
      total: row.total,
      all,
      under: { category: new Map(), in_stock: new Map() },
      categoryKeys: new Set(row.category_keys),
      builtAt: Date.now(),
      usedAt: Date.now(),
    };
    for (const dim of DIMENSIONS) {
      for (const u of row[`under_${dim}`] as Array<Record<string, unknown>>) {
        const facets: Facets = {};
        names.forEach((name, i) => {
          if (ownFilter(name) === dim) return;
          facets[name] = (u[`f${i}`] ?? emptyCounts(name)) as Facets[string];
        });
        counts.under[dim].set(String(u.key), { total: Number(u.total), facets });
      }
    }
    return counts;
  }
}

/** The filter a facet's counts ignore. */

/** Counts of a facet with nothing to count, as the engine's statement gives them. */
function emptyCounts(name: string): Facets[string] {
  return name === 'price' ? { min: null, max: null } : [];
}

/** A filter of one of the DIMENSIONS with one value (null: not one the counts are kept for). */
function keyOf(name: string, value: unknown): boolean {
  if (!(DIMENSIONS as readonly string[]).includes(name)) return false;
  if (name === 'in_stock') return true;
  return typeof value === 'string' || (Array.isArray(value) && value.length === 1);
}

/** The key a filter value selects, as filterSql reads it; null when it selects the union of two keys the store both has. */
function resolveKey(held: StoreCounts, dim: Dimension, value: unknown): string | null {
  if (dim === 'in_stock') return String(value === true || value === 'true' || (Array.isArray(value) && value.includes('true')));
  const v = String(Array.isArray(value) ? value[0] : value);
  const keys = [v, `lvl:${categoryLevelKey(v.split('>'))}`].filter((k) => held.categoryKeys.has(k));
  return keys.length === 1 ? keys[0] : null;
}

/**
 * One facet's counts under each large value of `dim`: rows (dim, key, counts), counts as the
 * engine's statement makes them (the same values, order, limits and labels).
 */
function underSql(name: string, dim: Dimension, i: number, tenantId: string): { alias: string; sql: string; bindings: unknown[] } {
  const alias = `f${i}`;
  const keyed = `FROM ${KEY_FROM[dim]} JOIN big t ON t.dim = '${dim}' AND t.key = ${KEY_SQL[dim]}`;
  if (name === 'price') {
    return {
      alias,
      sql: `SELECT t.dim, t.key, json_build_object('min', min(d.price), 'max', max(d.price)) AS counts ${keyed} GROUP BY t.dim, t.key`,
      bindings: [],
    };
  }
  const labelled = isCategoryFacet(name);
  let values: string;
  let bindings: unknown[] = [];
  if (labelled) values = `SELECT t.dim, t.key, v.c AS value ${keyed} CROSS JOIN LATERAL unnest(d.category_ids) AS v(c) WHERE ${categoryKeyTest(name, 'v.c')}`;
  else {
    const v = facetValues(name, (c) => `d.${c}`);
    values = `SELECT t.dim, t.key, ${v.value} AS value ${keyed}${v.test ? ` WHERE ${v.test}` : ''}`;
    bindings = v.bindings;
  }
  const label = labelled ? `, 'label', ${CATEGORY_LABEL}` : '';
  return {
    alias,
    sql: `SELECT b.dim, b.key, json_agg(json_build_object('value', b.value, 'count', b.count${label}) ORDER BY b.count DESC, b.value) AS counts
            FROM (SELECT dim, key, value, count, row_number() OVER (PARTITION BY dim, key ORDER BY count DESC, value) AS rn
                    FROM (SELECT dim, key, value, count(*)::int AS count FROM (${values}) v GROUP BY dim, key, value) c) b
           WHERE b.rn <= ${facetLimit(name)} GROUP BY b.dim, b.key`,
    bindings: [...(labelled ? [tenantId] : []), ...bindings],
  };
}
