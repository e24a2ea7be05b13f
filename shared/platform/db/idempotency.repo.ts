import type { Knex } from 'knex';

export interface IdempotencyRow {
  tenant_id: string;
  key: string;
  request_hash: string;
  state: 'in_flight' | 'done';
  status_code: number | null;
  response_body: unknown;
  created_at: Date;
  expires_at: Date;
}

/** A claim older than this is taken to belong to a process that died mid-request. */
const ABANDONED_AFTER_S = 120;

export function idempotencyRepo(db: Knex, ttlHours: number) {
  const table = () => db<IdempotencyRow>('idempotency_keys');
  return {
    /**
     * Claims (tenant, key) for a request. Returns null when this caller owns it now, or the
     * existing row (done or still in flight) when another request got there first.
     */
    async claim(tenantId: string, key: string, requestHash: string): Promise<IdempotencyRow | null> {
      const res = await db.raw(
        `INSERT INTO idempotency_keys (tenant_id, key, request_hash, state, expires_at)
         VALUES (?, ?, ?, 'in_flight', now() + make_interval(hours => ?))
         ON CONFLICT (tenant_id, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, state = 'in_flight', created_at = now(),
               expires_at = EXCLUDED.expires_at, status_code = NULL, response_body = NULL
           WHERE idempotency_keys.expires_at < now()
              OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.created_at < now() - make_interval(secs => ?))
         RETURNING (xmax = 0) AS fresh`,
        [tenantId, key, requestHash, ttlHours, ABANDONED_AFTER_S],
      );
      if (res.rows.length > 0) return null;
      const row = await table().where({ tenant_id: tenantId, key }).first();
      return row ?? null;
    },
    async complete(tenantId: string, key: string, statusCode: number, body: unknown): Promise<void> {
      await table().where({ tenant_id: tenantId, key }).update({ state: 'done', status_code: statusCode, response_body: JSON.stringify(body ?? null) as unknown });
    },
    /** Frees the key after a failure nobody should replay (5xx), so a retry runs again. */
    async release(tenantId: string, key: string): Promise<void> {
      await table().where({ tenant_id: tenantId, key, state: 'in_flight' }).delete();
    },
    async purgeExpired(): Promise<number> {
      return table().where('expires_at', '<', db.fn.now()).delete();
    },
  };
}
