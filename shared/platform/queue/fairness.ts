import type { Redis } from 'ioredis';

/**
 * Per-tenant fairness on a shared queue without BullMQ Pro groups: a job's priority is the
 * number of that tenant's jobs already waiting, so a tenant's 100th batch of a big sync
 * queues behind another tenant's first small update (lower number = sooner in BullMQ).
 */
export async function tenantPriority(redis: Redis, prefix: string, queue: string, tenantId: string): Promise<number> {
  const key = backlogKey(prefix, queue, tenantId);
  const [[, n]] = (await redis.multi().incr(key).expire(key, 900).exec()) as [[null, number]];
  return Math.min(Number(n), 2_000_000);
}

/** Called when one of the tenant's jobs is done. */
export async function tenantJobDone(redis: Redis, prefix: string, queue: string, tenantId: string): Promise<void> {
  const key = backlogKey(prefix, queue, tenantId);
  const left = await redis.decr(key);
  if (left <= 0) await redis.del(key);
}

/** How many of the tenant's jobs on the queue are waiting or running (0 when none). */
export async function tenantBacklog(redis: Redis, prefix: string, queue: string, tenantId: string): Promise<number> {
  return Number((await redis.get(backlogKey(prefix, queue, tenantId))) ?? 0);
}

/** The Redis counter of a tenant's waiting or running jobs on a queue. */
export function backlogKey(prefix: string, queue: string, tenantId: string): string {
  return `${prefix}:backlog:${queue}:${tenantId}`;
}
