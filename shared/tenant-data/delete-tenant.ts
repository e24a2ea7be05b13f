import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import type { Queue } from 'bullmq';
import { newId } from '../platform/ids.js';
import { tenantTables } from './tenant-tables.js';

export interface DeleteTenantDeps {
  db: Knex;
  redis: Redis;
  prefix: string;
  /** A queue by name (the process's BullMQ queues). */
  queue(name: string): Queue;
  /** Removes the store's engine and vector store data (every generation of each). */
  dropEngineData(tenantId: string): Promise<void>;
  /** Forgets a credential on every API process at once. */
  invalidateCredential(hash: string): Promise<void>;
  /** Tells every process the store's caches are stale. */
  announce(tenantId: string): Promise<void>;
  exportDir: string;
  /** How long after its credentials are refused the store's Redis keys are swept (default 3 s: API processes flush usage every second). */
  settleMs?: number;
}

const REMOVABLE_STATES = ['waiting', 'delayed', 'prioritized', 'waiting-children', 'failed', 'completed'] as const;

/**
 * Removes everything of a store: engine data, queued jobs carrying its id, Redis keys naming it,
 * export files, and every row of every table with a tenant column (then the tenants row), and
 * writes the audit record. Re-runnable: each step finds nothing the second time; the audit record
 * is keyed by the job. `keepJobId` is the job doing the deletion (it is active, not removed).
 */
export async function deleteTenant(deps: DeleteTenantDeps, tenantId: string, audit: { jobId: string; requestedBy: string }): Promise<Record<string, unknown>> {
  const credentials = [
    ...(await deps.db('api_keys').where({ tenant_id: tenantId }).pluck('hash')),
    ...(await deps.db('dashboard_sessions').where({ tenant_id: tenantId }).pluck('hash')),
  ];
  const keyIds = [
    ...(await deps.db('api_keys').where({ tenant_id: tenantId }).pluck('id')),
    ...(await deps.db('dashboard_sessions').where({ tenant_id: tenantId }).pluck('id')),
  ];
  // Credentials first: no request of the store gets in while the rest goes. Revoked in the database
  // before the caches drop them, so a request in between reloads a revoked key, never a live one.
  await deps.db('api_keys').where({ tenant_id: tenantId }).whereNull('revoked_at').update({ revoked_at: deps.db.fn.now() });
  await deps.db('dashboard_sessions').where({ tenant_id: tenantId }).whereNull('revoked_at').update({ revoked_at: deps.db.fn.now() });
  for (const hash of credentials) await deps.invalidateCredential(hash);
  // API processes flush counts gathered in memory (usage, every second) up to a flush after the
  // store's last request: Redis is swept once no process can still hold any.
  await new Promise((r) => setTimeout(r, deps.settleMs ?? 3000));
  await deps.dropEngineData(tenantId);
  const queuedJobs = await removeQueuedJobs(deps, tenantId, audit.jobId);
  const redisKeys = await removeRedisKeys(deps, [tenantId, ...keyIds]);
  await rm(resolve(deps.exportDir, tenantId), { recursive: true, force: true });

  const rowsDeleted: Record<string, number> = {};
  await deps.db.transaction(async (trx) => {
    const tables = await tenantTables(trx);
    for (const table of tables) {
      const [{ n }] = await trx(table).where({ tenant_id: tenantId }).count({ n: '*' });
      if (Number(n)) rowsDeleted[table] = Number(n);
    }
    // The tenants row cascades to every table that references it; the walk then clears tables that do not.
    rowsDeleted.tenants = await trx('tenants').where({ id: tenantId }).delete();
    for (const table of tables) await trx(table).where({ tenant_id: tenantId }).delete();
    await trx('tenant_deletions').insert({
      id: newId('del'),
      deleted_tenant: tenantId,
      job_id: audit.jobId,
      requested_by: audit.requestedBy,
      rows_deleted: rowsDeleted,
      other_deleted: { queued_jobs: queuedJobs, redis_keys: redisKeys, engine: 'dropped' },
    });
  });
  // A job of the store that was running during the first pass (an index batch) may have queued a
  // follow-up since (its vocabulary rebuild, debounced for later): a second pass, now that the
  // store is gone, takes what the first could not see. (Counted in the answer, not the audit row.)
  const lateJobs = await removeQueuedJobs(deps, tenantId, audit.jobId);
  const lateKeys = await removeRedisKeys(deps, [tenantId, ...keyIds]);
  await deps.announce(tenantId);
  return { rows_deleted: rowsDeleted, queued_jobs: queuedJobs + lateJobs, redis_keys: redisKeys + lateKeys };
}

/** Queue names from Redis (`<prefix>:<queue>:meta`): every queue any process ever used. */
async function queueNames(redis: Redis, prefix: string): Promise<string[]> {
  const names = new Set<string>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*:meta`, 'COUNT', 1000);
    cursor = next;
    for (const k of keys) names.add(k.slice(prefix.length + 1, -':meta'.length));
  } while (cursor !== '0');
  return [...names];
}

/** Jobs not running whose data names the store (`tenantId` in their input) are removed. */
async function removeQueuedJobs(deps: DeleteTenantDeps, tenantId: string, keepJobId: string): Promise<number> {
  let removed = 0;
  for (const name of await queueNames(deps.redis, deps.prefix)) {
    const queue = deps.queue(name);
    for (let start = 0; ; start += 500) {
      const jobs = await queue.getJobs([...REMOVABLE_STATES], start, start + 499);
      if (!jobs.length) break;
      for (const job of jobs) {
        if (!job?.id || job.data?.jobRowId === keepJobId) continue;
        const input = job.data?.input as { tenantId?: string } | undefined;
        if (input?.tenantId !== tenantId && !JSON.stringify(job.data ?? {}).includes(tenantId)) continue;
        await job.remove().then(
          () => removed++,
          () => undefined,
        );
      }
      if (jobs.length < 500) break;
    }
  }
  return removed;
}

/** Keys naming the store or one of its credentials (usage, AI cache and budget, backlogs, rate windows), BullMQ's own keys left to the queues. */
async function removeRedisKeys(deps: DeleteTenantDeps, ids: string[]): Promise<number> {
  const queues = new Set(await queueNames(deps.redis, deps.prefix));
  let removed = 0;
  for (const id of ids) {
    let cursor = '0';
    do {
      const [next, keys] = await deps.redis.scan(cursor, 'MATCH', `${deps.prefix}:*${id}*`, 'COUNT', 1000);
      cursor = next;
      const mine = keys.filter((k) => !queues.has(k.slice(deps.prefix.length + 1).split(':')[0]));
      if (mine.length) removed += await deps.redis.del(...mine);
    } while (cursor !== '0');
  }
  return removed;
}
