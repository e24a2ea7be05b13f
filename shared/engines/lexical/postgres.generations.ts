import type { Knex } from 'knex';
import type { StaleBuild } from './port.js';

/**
 * The built-in engine's generations (`search_generations`): one serving (`active`) and at most one
 * building per tenant, with the jobs row that began it and since when. Every change holds the
 * tenant's row lock, so a drop never meets a build that began meanwhile.
 */

/** Nothing building. */
export const NOT_BUILDING = { building: null, building_job: null, building_since: null };

/**
 * Deletes the documents `where` names (and of them, `ids` only when given) with their cards; in the
 * caller's transaction. One statement, so one snapshot: as two, a document and card an upsert
 * committed between them lost the card and kept the document (READ COMMITTED).
 */
export async function deleteDocs(trx: Knex.Transaction, where: { tenant_id: string; generation?: number }, ids?: string[]): Promise<void> {
  const cond = ['tenant_id = ?'];
  const bindings: Knex.RawBinding[] = [where.tenant_id];
  if (where.generation !== undefined) (cond.push('generation = ?'), bindings.push(where.generation));
  if (ids) (cond.push('product_id = ANY(?::text[])'), bindings.push(ids));
  const sql = cond.join(' AND ');
  await trx.raw(`WITH docs AS (DELETE FROM search_docs WHERE ${sql}) DELETE FROM search_cards WHERE ${sql}`, [...bindings, ...bindings]);
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
