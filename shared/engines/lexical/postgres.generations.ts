import type { Knex } from 'knex';
import type { StaleBuild } from './port.js';

/**
 * The built-in engine's generations (`search_generations`): one serving (`active`) and at most one
 * building per tenant, with the jobs row that began it and since when. Every change holds the
 * tenant's row lock, so a drop never meets a build that began meanwhile.
 */

/** Nothing building. */
export const NOT_BUILDING = { building: null, building_job: null, building_since: null };

/** Deletes the documents `where` names (and of them, `ids` only when given) with their cards; in the caller's transaction. */
export async function deleteDocs(trx: Knex.Transaction, where: Record<string, string | number>, ids?: string[]): Promise<void> {
  for (const table of ['search_docs', 'search_cards']) {
    const rows = trx(table).where(where);
    await (ids ? rows.whereIn('product_id', ids) : rows).delete();
  }
}

/** A new building generation for `owner`; the one still building (an abandoned reindex's) goes. */
export async function beginGeneration(db: Knex, tenantId: string, owner: string | null): Promise<number> {
  return db.transaction(async (trx) => {
    const row = await trx('search_generations').where({ tenant_id: tenantId }).forUpdate().first();
    if (row.building) await deleteDocs(trx, { tenant_id: tenantId, generation: row.building });
    const next = Math.max(row.active, row.building ?? 0) + 1;
    await trx('search_generations').where({ tenant_id: tenantId }).update({ building: next, building_job: owner, building_since: trx.fn.now() });
    return next;
  });
}

/** Drops `generation` unless it serves: no longer building, its documents gone. Returns whether it dropped anything. */
export async function dropGeneration(db: Knex, tenantId: string, generation: number, owner?: string): Promise<boolean> {
  return db.transaction(async (trx) => {
    const row = await trx('search_generations').where({ tenant_id: tenantId }).forUpdate().first();
    if (!row || row.active === generation) return false;
    // Another job's build of the same number (begun after this one was dropped) is not ours to drop.
    if (owner !== undefined && (row.building !== generation || row.building_job !== owner)) return false;
    if (row.building === generation) await trx('search_generations').where({ tenant_id: tenantId }).update(NOT_BUILDING);
    await deleteDocs(trx, { tenant_id: tenantId, generation });
    return true;
  });
}

/** The generation `owner` began, dropped if it still builds. */
export async function dropBuild(db: Knex, tenantId: string, owner: string): Promise<number | null> {
  const row = await db('search_generations').where({ tenant_id: tenantId, building_job: owner }).first();
  if (!row?.building) return null;
  return (await dropGeneration(db, tenantId, row.building, owner)) ? row.building : null;
}

/** Generations building since over `olderThanMs` ago (since the migration, for those begun before it). */
export async function staleBuilds(db: Knex, olderThanMs: number): Promise<StaleBuild[]> {
  const rows = await db('search_generations')
    .whereNotNull('building')
    .andWhereRaw(`coalesce(building_since, '-infinity') < now() - ? * interval '1 millisecond'`, [olderThanMs])
    .select('tenant_id', 'building', 'building_job')
    .orderBy('tenant_id');
  return rows.map((r) => ({ tenantId: r.tenant_id, generation: r.building, owner: r.building_job }));
}
