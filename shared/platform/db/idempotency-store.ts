import type { Claim, IdempotencyRow, idempotencyRepo } from './idempotency.repo.js';
import type { idempotencyPendingRepo, PendingAnswer } from './idempotency-pending.repo.js';
import type { Logger } from '../logger.js';
import { AppError } from '../errors.js';
import { DEPENDENCY_RETRY_AFTER_S, isDependencyDown, withDeadline } from '../dependency-errors.js';

type Repo = ReturnType<typeof idempotencyRepo>;
type Pending = ReturnType<typeof idempotencyPendingRepo>;

/**
 * Where Idempotency-Key answers are kept: Postgres, or Redis while Postgres cannot take them.
 *
 * A request can finish its write (a batch committed, a job queued in Redis) and then find Postgres
 * gone. Its answer is then kept in Redis at once, well inside its claim's lease (the save waits at
 * most a fifth of the lease for Postgres; the claim lapses no sooner than two thirds of it after
 * its last renewal), and is answered. Replays read both places: the claim's row, and Redis when
 * Postgres is down, when the key is still in flight, or when a claim takes over a lapsed one
 * (whose answer may be waiting there). Every API process moves the Redis answers into Postgres
 * once it answers (every `flushMs`, and at start), so they outlive the process that kept them.
 * With neither place reachable the request answers 503 instead of an answer no retry could find.
 */
export class IdempotencyStore {
  private timer: NodeJS.Timeout | undefined;
  private flushing: Promise<unknown> | undefined;

  constructor(
    private readonly repo: Repo,
    private readonly pending: Pending,
    private readonly logger: Logger,
    private readonly opts: { ttlHours: number; flushMs: number },
  ) {}

  /** The claim of repo.claim, with an answer kept in Redis taking the place of a claim Postgres could not give or confirm. */
  async claim(tenantId: string, key: string, requestHash: string): Promise<Claim> {
    let claim: Claim;
    try {
      claim = await this.repo.claim(tenantId, key, requestHash);
    } catch (err) {
      if (!isDependencyDown(err)) throw err;
      // Postgres is down: an answer kept meanwhile is still replayed; anything else waits for it (503).
      const kept = await this.pending.get(tenantId, key).catch(() => null);
      if (kept) return { owned: false, row: rowOf(kept) };
      throw err;
    }
    const unanswered = claim.owned ? claim.takeover : claim.row.state === 'in_flight';
    if (!unanswered) return claim;
    let kept: PendingAnswer | null;
    try {
      kept = await this.pending.get(tenantId, key);
    } catch (err) {
      if (!claim.owned) return claim;
      // The lapsed claim's answer may be in Redis: running the request again could apply it twice.
      await this.repo.release(tenantId, key).catch(() => undefined);
      throw err;
    }
    if (!kept) return claim;
    // Moved into Postgres now (the flush would do it later); the replay does not depend on it.
    await this.repo
      .save(tenantId, key, kept.request_hash, kept.status_code, kept.response_body)
      .then(() => this.pending.remove(kept))
      .catch(() => undefined);
    return { owned: false, row: rowOf(kept) };
  }

  /** Keeps a finished request's answer: in Postgres, else in Redis; 503 when neither takes it. */
  async keep(tenantId: string, key: string, requestHash: string, statusCode: number, body: unknown, headers: Record<string, string> = {}): Promise<void> {
    const stored = this.repo.stored(body, headers);
    const saving = this.repo.save(tenantId, key, requestHash, statusCode, stored);
    try {
      await withDeadline(saving, (this.repo.leaseS * 1000) / 5, 'saving the idempotency answer');
      return;
    } catch (err) {
      if (!isDependencyDown(err)) throw err;
      saving.catch(() => undefined);
      const answer = { tenant_id: tenantId, key, request_hash: requestHash, status_code: statusCode, response_body: stored };
      try {
        await this.pending.put({ ...answer, kept_until: Date.now() + this.opts.ttlHours * 3_600_000 });
      } catch (redisErr) {
        this.logger.error('idempotency answer kept nowhere: Postgres and Redis unavailable', { tenantId, key, err, redisErr });
        throw new AppError(
          'dependency_unavailable',
          503,
          'the request ran, but the answer to its Idempotency-Key could not be kept (database and Redis unavailable); retry with the same key shortly',
          undefined,
          { 'Retry-After': String(DEPENDENCY_RETRY_AFTER_S) },
        );
      }
      this.logger.warn('Postgres unavailable: idempotency answer kept in Redis until it is back', { tenantId, key, err });
    }
  }

  /**
   * Moves the answers kept in Redis into Postgres; returns how many. Stops at the first failure of
   * Postgres or Redis (still down: the next tick tries again). An answer Postgres refuses for
   * itself (its tenant deleted meanwhile) is dropped, so it never holds back the ones after it.
   */
  async flush(): Promise<number> {
    let moved = 0;
    // Redis down: nothing to move until it answers (and nothing kept there could be read meanwhile).
    const entries = await this.pending.all().catch(() => []);
    for (const { answer: a, live } of entries) {
      if (live) {
        try {
          await this.repo.save(a.tenant_id, a.key, a.request_hash, a.status_code, a.response_body);
          moved++;
        } catch (err) {
          if (isDependencyDown(err)) throw err;
          this.logger.error('idempotency answer kept in Redis refused by Postgres: dropped', { tenantId: a.tenant_id, key: a.key, err });
        }
      }
      await this.pending.remove(a);
    }
    return moved;
  }

  start(): void {
    const tick = () => {
      this.flushing ??= this.flush()
        .then((n) => n && this.logger.info('idempotency answers kept in Redis moved to Postgres', { count: n }))
        .catch((err) => this.logger.warn('idempotency answers still waiting in Redis', { err }))
        .finally(() => (this.flushing = undefined));
    };
    tick();
    this.timer = setInterval(tick, this.opts.flushMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.flushing;
  }
}

function rowOf(a: PendingAnswer): IdempotencyRow {
  const at = new Date();
  return {
    tenant_id: a.tenant_id,
    key: a.key,
    request_hash: a.request_hash,
    state: 'done',
    status_code: a.status_code,
    response_body: a.response_body,
    created_at: at,
    expires_at: new Date(a.kept_until),
  };
}
