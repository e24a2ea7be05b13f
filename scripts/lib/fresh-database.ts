import knexFactory from 'knex';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** A new empty database (and Redis key prefix) for a benchmark or evaluation run; `drop()` removes both. */
export async function freshDatabase(adminUrl: string, stem: string, redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379') {
  const name = `${stem}_${randomBytes(4).toString('hex')}`;
  const admin = knexFactory({ client: 'pg', connection: adminUrl, pool: { min: 0, max: 1 } });
  await admin.raw(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const prefix = `${stem.replace(/[^A-Za-z0-9]/g, '')}${randomBytes(3).toString('hex')}`;
  return {
    url: url.toString(),
    prefix,
    async drop() {
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
      await clearRedisPrefix(redisUrl, prefix);
    },
  };
}

/** Deletes every Redis key under `prefix:` (queues, counters, caches of one run). */
export async function clearRedisPrefix(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url);
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
    if (keys.length) await redis.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  redis.disconnect();
}
