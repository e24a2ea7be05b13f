import type { Redis } from 'ioredis';

/** An answer kept in Redis because Postgres could not take it when its request finished. */
export interface PendingAnswer {
  tenant_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  /** The stored form (idempotencyRepo.stored): the body sealed, as in Postgres. */
  response_body: unknown;
  /** Epoch ms after which it is no longer replayed (the retention period, from its request). */
  kept_until: number;
}

// Deletes a field only while it still holds the value that was flushed.
const REMOVE_IF_SAME = `if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then return redis.call('HDEL', KEYS[1], ARGV[1]) end return 0`;

/**
 * Idempotency answers waiting for Postgres, one Redis hash per prefix (field `<tenant> <key>`: a
 * key never holds a space). Any API process reads them for replays and moves them into Postgres
 * (IdempotencyStore), so they outlive the process that wrote them.
 */
export function idempotencyPendingRepo(redis: Redis, prefix: string) {
  const hash = `${prefix}:idempotency-pending`;
  const field = (tenantId: string, key: string) => `${tenantId} ${key}`;
  const live = (a: PendingAnswer) => a.kept_until > Date.now();
  return {
    async put(answer: PendingAnswer): Promise<void> {
      await redis.hset(hash, field(answer.tenant_id, answer.key), JSON.stringify(answer));
    },
    /** The tenant's answer kept for `key`, if any (none past its retention). */
    async get(tenantId: string, key: string): Promise<PendingAnswer | null> {
      const text = await redis.hget(hash, field(tenantId, key));
      const answer = text ? (JSON.parse(text) as PendingAnswer) : null;
      return answer && live(answer) ? answer : null;
    },
    /** Every answer waiting, and whether it is still within its retention. */
    async all(): Promise<Array<{ answer: PendingAnswer; live: boolean }>> {
      const texts = Object.values(await redis.hgetall(hash));
      return texts.map((text) => JSON.parse(text) as PendingAnswer).map((answer) => ({ answer, live: live(answer) }));
    },
    /** Removes an answer read by get() or all(), unless it was replaced since (JSON.stringify gives back the text it was read from). */
    async remove(answer: PendingAnswer): Promise<void> {
      await redis.eval(REMOVE_IF_SAME, 1, hash, field(answer.tenant_id, answer.key), JSON.stringify(answer));
    },
  };
}
