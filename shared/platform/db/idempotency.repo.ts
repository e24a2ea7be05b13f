import type { Knex } from 'knex';
import { retryOnBrokenConnection } from './read-retry.js';
import { AppError } from '../errors.js';
import { Sealer, SealedOpenError } from '../sealed.js';

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

/**
 * An in-flight claim is a lease: its expires_at is at most this far ahead and the request that
 * holds it renews it every LEASE_RENEW_MS while it runs. A claim whose owner died (process
 * killed, connection lost before it could release) lapses within LEASE_S, so a retry can run.
 */
export const LEASE_S = 15;
export const LEASE_RENEW_MS = 5_000;

/**
 * Kept answers are stored sealed (AES-256-GCM, SECRET_ENCRYPTION_KEY): a replay of `POST /v1/keys`
 * or a rotation carries a full secret key, and no table may hold one readable. Every answer is
 * sealed, not only those, so no route can forget to ask for it.
 */
export function idempotencyRepo(db: Knex, ttlHours: number, sealer: Sealer) {
  const table = () => db<IdempotencyRow>('idempotency_keys');
  return {
    /**
     * Claims (tenant, key) for a request. Returns null when this caller owns it now, or the
     * existing row (done or still in flight) when another request got there first.
     */
    async claim(tenantId: string, key: string, requestHash: string): Promise<IdempotencyRow | null> {
      const res = await db.raw(
        `INSERT INTO idempotency_keys (tenant_id, key, request_hash, state, expires_at)
         VALUES (?, ?, ?, 'in_flight', now() + make_interval(secs => ?))
         ON CONFLICT (tenant_id, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, state = 'in_flight', created_at = now(),
               expires_at = EXCLUDED.expires_at, status_code = NULL, response_body = NULL
           WHERE idempotency_keys.expires_at < now()
         RETURNING (xmax = 0) AS fresh`,
        [tenantId, key, requestHash, LEASE_S],
      );
      if (res.rows.length > 0) return null;
      const row = await table().where({ tenant_id: tenantId, key }).first();
      return row ?? null;
    },
    /**
     * Keeps the answer for the retention period, with the headers the route set (`headers`, such
     * as X-Job-Id) beside the sealed body, so a replay answers them too. Idempotent, so retried
     * when its connection broke.
     */
    async complete(tenantId: string, key: string, statusCode: number, body: unknown, headers: Record<string, string> = {}): Promise<void> {
      const sealedBody = sealer.seal(body ?? null);
      const sealed = JSON.stringify(Object.keys(headers).length ? { body: sealedBody, headers } : sealedBody);
      await retryOnBrokenConnection(() =>
        table()
          .where({ tenant_id: tenantId, key })
          .update({
            state: 'done',
            status_code: statusCode,
            response_body: sealed as unknown,
            expires_at: db.raw('now() + make_interval(hours => ?)', [ttlHours]) as unknown as Date,
          }),
      );
    },
    /** The kept answer of a done row, body and headers; 409 when it was sealed under a server key no longer configured. */
    replay(row: IdempotencyRow): { body: unknown; headers: Record<string, string> } {
      const kept = row.response_body as { body?: unknown; headers?: Record<string, string> } | null;
      if (kept && Sealer.isSealed(kept.body) && kept.headers) return { body: this.replayBody({ ...row, response_body: kept.body }), headers: kept.headers };
      return { body: this.replayBody(row), headers: {} };
    },
    /** The kept body of a done row (stored without headers); 409 when it was sealed under a server key no longer configured. */
    replayBody(row: IdempotencyRow): unknown {
      if (!Sealer.isSealed(row.response_body)) return row.response_body;
      try {
        return sealer.open(row.response_body);
      } catch (err) {
        if (!(err instanceof SealedOpenError)) throw err;
        throw new AppError(
          'idempotency_replay_unavailable',
          409,
          'this request already ran, but its kept answer was sealed with a server key that is no longer configured; it cannot be replayed',
        );
      }
    },
    /** Extends a running request's lease (see LEASE_S); false once the claim is no longer in flight. */
    async renew(tenantId: string, key: string, requestHash: string): Promise<boolean> {
      const n = await table()
        .where({ tenant_id: tenantId, key, state: 'in_flight', request_hash: requestHash })
        .update({ expires_at: db.raw('now() + make_interval(secs => ?)', [LEASE_S]) as unknown as Date });
      return n > 0;
    },
    /**
     * Frees the key after a failure nobody should replay (5xx), so a retry runs again. The failure
     * is often a lost connection, and the pool's other connections may have died with it: retried
     * on fresh ones, and should even that fail, the lease lapses within LEASE_S.
     */
    async release(tenantId: string, key: string): Promise<void> {
      await retryOnBrokenConnection(() => table().where({ tenant_id: tenantId, key, state: 'in_flight' }).delete());
    },
    async purgeExpired(): Promise<number> {
      return table().where('expires_at', '<', db.fn.now()).delete();
    },
  };
}
