import type { Redis } from 'ioredis';
import { usageKeys, usagePeriod } from './usage-counter.js';
import type { RolledCount, UsageRepo } from './usage.repo.js';

/**
 * Copies every day counter touched since its day began from Redis into usage_daily. Members of
 * days before yesterday leave the dirty set once copied (their counters no longer move). Runs
 * alone (`exclusive`): a roll-up reads Redis only once the one before has written its reads.
 * Returns the tenants rolled up.
 */
export async function rollupUsage(redis: Redis, prefix: string, repo: Pick<UsageRepo, 'exclusive'>, now = new Date()): Promise<Set<string>> {
  const keys = usageKeys(prefix);
  return repo.exclusive(async (locked) => {
    const members = await redis.smembers(keys.dirty);
    const epoch = await redis.get(keys.epoch);
    if (!members.length || !epoch) return new Set<string>();
    const parsed = members.map((m) => m.split('|')).filter((p) => p.length === 3) as Array<[string, string, string]>;
    const values = parsed.length ? await redis.mget(...parsed.map(([metric, tenant, day]) => keys.count(metric, tenant, day))) : [];
    const rows: RolledCount[] = parsed.map(([metric, tenantId, day], i) => ({ metric, tenantId, day, value: Number(values[i] ?? 0), epoch }));
    for (let i = 0; i < rows.length; i += 1000) await locked.rollup(rows.slice(i, i + 1000));
    const yesterday = usagePeriod(new Date(now.getTime() - 86400_000)).day;
    const old = parsed.filter(([, , day]) => day < yesterday).map((p) => p.join('|'));
    if (old.length) await redis.srem(keys.dirty, ...old);
    return new Set(rows.map((r) => r.tenantId));
  });
}
