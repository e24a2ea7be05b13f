import type { Knex } from 'knex';
import { retryOnBrokenConnection } from './read-retry.js';
import { deleteBatch, PURGE_BATCH } from './batch-delete.js';
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
 * An in-flight claim is a lease: its expires_at is at most `leaseS` (IDEMPOTENCY_LEASE_S, default
 * LEASE_S) ahead and the request that holds it renews it every third of that while it runs. A
 * claim whose owner died (process killed, connection lost before it could release) lapses within
 * the lease, so a retry can run.
 */
export const LEASE_S = 15;

/** A claim: owned by this caller (`takeover`: over an earlier claim that lapsed unanswered), or another request's row. */
export type Claim = { owned: true; takeover: boolean } | { owned: false; row: IdempotencyRow };

/**
 * Kept answers are stored sealed (AES-256-GCM, SECRET_ENCRYPTION_KEY): a replay of `POST /v1/keys`
 * or a rotation carries a full secret key, and no table may hold one readable. Every answer is
 * sealed, not only those, so no route can forget to ask for it.
 */
export function idempotencyRepo(db: Knex, ttlHours: number, sealer: Sealer, leaseS = LEASE_S) {
  const table = () => db<IdempotencyRow>('idempotency_keys');
  return {
    leaseS,
    /**
     * Claims (tenant, key) for a request: owned now (a new key, or one whose earlier claim lapsed
     * without an answer kept here), or the existing row (done or still in flight).
     */
    async claim(tenantId: string, key: string, requestHash: string): Promise<Claim> {
      const res = await db.raw(
        `INSERT INTO idempotency_keys (tenant_id, key, request_hash, state, expires_at)
         VALUES (?, ?, ?, 'in_flight', now() + make_interval(secs => ?))
         ON CONFLICT (tenant_id, key) DO UPDATE
           SET request_hash = EXCLUDED.request_hash, state = 'in_flight', created_at = now(),
               expires_at = EXCLUDED.expires_at, status_code = NULL, response_body = NULL
           WHERE idempotency_keys.expires_at < now()
         RETURNING (xmax = 0) AS fresh, (SELECT state FROM idempotency_keys WHERE tenant_id = ? AND key = ?) AS before`,
        [tenantId, key, requestHash, leaseS, tenantId, key],
      );
      if (res.rows.length > 0) return { owned: true, takeover: !res.rows[0].fresh && res.rows[0].before === 'in_flight' };
      const row = await table().where({ tenant_id: tenantId, key }).first();
      // Gone between the two statements (purged): claim again.
      return row ? { owned: false, row } : this.claim(tenantId, key, requestHash);
    },
    /** The stored form of an answer: the sealed body, with the headers the route set (such as X-Job-Id) beside it. */
    stored(body: unknown, headers: Record<string, string> = {}): unknown {
      const sealedBody = sealer.seal(body ?? null);
      return Object.keys(headers).length ? { body: sealedBody, headers } : sealedBody;
    },
    /**
     * Keeps an answer (`stored`) for the retention period, over the key's in-flight claim or in a
     * row of its own (an answer kept in Redis during an outage); never over another kept answer.
     * Idempotent, so retried when its connection broke.
     */
    async save(tenantId: string, key: string, requestHash: string, statusCode: number, stored: unknown): Promise<void> {
      await retryOnBrokenConnection(() =>
        db.raw(
          `INSERT INTO idempotency_keys (tenant_id, key, request_hash, state, status_code, response_body, expires_at)
           VALUES (?, ?, ?, 'done', ?, ?::jsonb, now() + make_interval(hours => ?))
           ON CONFLICT (tenant_id, key) DO UPDATE
             SET request_hash = EXCLUDED.request_hash, state = 'done', status_code = EXCLUDED.status_code,
                 response_body = EXCLUDED.response_body, expires_at = EXCLUDED.expires_at
             WHERE idempotency_keys.state = 'in_flight'`,
          [tenantId, key, requestHash, statusCode, JSON.stringify(stored), ttlHours],
        ),
      );
    },
    /** save() of a body and the headers to answer again with it. */
    async complete(tenantId: string, key: string, requestHash: string, statusCode: number, body: unknown, headers: Record<string, string> = {}): Promise<void> {
      await this.save(tenantId, key, requestHash, statusCode, this.stored(body, headers));
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
    /** Extends a running request's lease (leaseS); false once the claim is no longer in flight. */
    async renew(tenantId: string, key: string, requestHash: string): Promise<boolean> {
      const n = await table()
        .where({ tenant_id: tenantId, key, state: 'in_flight', request_hash: requestHash })
        .update({ expires_at: db.raw('now() + make_interval(secs => ?)', [leaseS]) as unknown as Date });
      return n > 0;
    },
    /**
     * Frees the key after a failure nobody should replay (5xx), so a retry runs again. The failure
     * is often a lost connection, and the pool's other connections may have died with it: retried
     * on fresh ones, and should even that fail, the lease lapses within leaseS.
     */
    async release(tenantId: string, key: string): Promise<void> {
      await retryOnBrokenConnection(() => table().where({ tenant_id: tenantId, key, state: 'in_flight' }).delete());
    },
    /**
     * Deletes kept answers past the retention period, at most `limit` in one statement (purge-expired
     * loops). A lapsed claim stays as long as an answer would: its answer may be waiting in Redis
     * (kept there while Postgres was down), and the claim that takes it over is the one that looks
     * there. A live claim (expires_at ahead) is never touched.
     */
    async purgeExpired(limit = PURGE_BATCH): Promise<number> {
      return deleteBatch(
        db,
        'idempotency_keys',
        `expires_at < now() AND (state = 'done' OR created_at < now() - make_interval(hours => ?))`,
        [ttlHours],
        limit,
      );
    },
  };
}
