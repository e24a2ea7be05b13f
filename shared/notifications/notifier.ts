import type { Knex } from 'knex';
import type { Queues } from '../platform/queue/queues.js';
import type { Logger } from '../platform/logger.js';
import type { Sealer, Sealed } from '../platform/sealed.js';
import { webhookDeliveries } from '../platform/metrics.js';
import { receiversRepo, type ReceiverRow } from './receivers.repo.js';
import { deliveriesRepo, type DeliveryRow } from './deliveries.repo.js';
import { deliverJob } from './notifications.jobs.js';
import { signedHeaders } from './signing.js';
import { sendNotification } from './send.js';
import { urlRefusal } from './address-check.js';
import type { NotificationKind } from './kinds.js';

export interface NotifierDeps {
  receivers: ReturnType<typeof receiversRepo>;
  deliveries: ReturnType<typeof deliveriesRepo>;
  queues: Pick<Queues, 'enqueue'>;
  sealer: Sealer;
  logger: Logger;
  config: { allowPrivate: boolean; timeoutMs: number; maxResponseBytes: number; retryBaseMs: number; maxAttempts: number; disableAfter: number };
}

/** The body every attempt of a delivery sends (Standard Webhooks' type, timestamp, data). */
export function deliveryBody(d: Pick<DeliveryRow, 'id' | 'kind' | 'payload' | 'created_at'>): string {
  return JSON.stringify({ id: d.id, type: d.kind, timestamp: new Date(d.created_at).toISOString(), data: d.payload });
}

/** How long past WEBHOOK_TIMEOUT_MS a taken attempt may still be sending before the next one is due anyway. */
const CLAIM_MARGIN_MS = 30_000;

/** Delay before attempt `next` (2, 3, ...): base, 2 x base, 4 x base ... (30 s base, 12 attempts: about 17 h in all). */
export function retryDelayMs(baseMs: number, next: number): number {
  return baseMs * 2 ** (next - 2);
}

/**
 * Outbound notifications: `notify` records one delivery per subscribed receiver and queues its
 * first attempt (`record` and `queue` do it in two steps: recorded in a caller's transaction,
 * queued after its commit); `attempt` (the deliver-notification stage) signs and sends one
 * attempt and queues the next after a failure, or gives up and counts it against the receiver.
 */
export class Notifier {
  constructor(private deps: NotifierDeps) {}

  /** Tells the store's enabled receivers subscribed to `kind`; returns the delivery ids. Never throws for a store without receivers. */
  async notify(tenantId: string, kind: NotificationKind, payload: Record<string, unknown>): Promise<string[]> {
    const deliveries = await this.record(tenantId, kind, payload);
    await this.queue(deliveries);
    return deliveries.map((d) => d.id);
  }

  /**
   * Records one delivery per subscribed receiver, without queueing it. With `db`, a caller's
   * transaction, the deliveries are its outbox rows: they commit or roll back with its writes,
   * and the caller queues them once committed (or requeue-deliveries does, when it never gets to).
   */
  async record(tenantId: string, kind: NotificationKind, payload: Record<string, unknown>, db?: Knex): Promise<DeliveryRow[]> {
    const { receivers, deliveries } = db ? { receivers: receiversRepo(db), deliveries: deliveriesRepo(db) } : this.deps;
    const made: DeliveryRow[] = [];
    for (const r of await receivers.subscribed(tenantId, kind)) made.push(await deliveries.create(r.tenant_id, r.id, kind, payload));
    return made;
  }

  /**
   * Queues the first attempt of recorded deliveries. One that cannot be queued (Redis down) is
   * queued by requeue-deliveries once Redis answers, so this never throws for it.
   */
  async queue(deliveries: Array<Pick<DeliveryRow, 'id'>>): Promise<void> {
    for (const d of deliveries) {
      await this.deps.queues
        .enqueue(deliverJob, { deliveryId: d.id, attempt: 1 })
        .catch((err) => this.deps.logger.warn('notification not queued; requeue-deliveries will send it', { err, deliveryId: d.id }));
    }
  }

  /**
   * One delivery to one receiver (also the test delivery, whatever its kinds). Recorded first: an
   * attempt that cannot be queued (Redis down) is queued by requeue-deliveries once Redis answers,
   * so the recorded delivery is answered as queued, never left pending behind a 503.
   */
  async deliverTo(receiver: ReceiverRow, kind: string, payload: Record<string, unknown>): Promise<DeliveryRow> {
    const delivery = await this.deps.deliveries.create(receiver.tenant_id, receiver.id, kind, payload);
    await this.queue([delivery]);
    return delivery;
  }

  /**
   * Attempt `attempt` of a delivery; a re-run of an attempt already taken only makes sure the next one is queued.
   * The attempt is taken (claimed) before it is sent, so two runs of it never both send.
   */
  async attempt(deliveryId: string, attempt: number): Promise<Record<string, unknown>> {
    const { deliveries, receivers, config } = this.deps;
    const d = await deliveries.get(deliveryId);
    if (!d || d.status !== 'pending') return { skipped: d ? d.status : 'no such delivery' };
    if (d.attempts >= attempt) {
      if (d.next_attempt_at) await this.queueNext(d, attempt + 1);
      return { skipped: 'attempt already made' };
    }
    if (attempt > config.maxAttempts) {
      // The last attempt was taken and never reported (its worker died mid-send): it was made, none is left.
      const error = `attempt ${d.attempts} was interrupted; no attempts left`;
      if (!(await deliveries.attempted(d.id, d.attempts, { status: d.last_status_code, error, final: 'failed', nextAt: null }))) {
        return { skipped: 'attempt already made' };
      }
      const receiver = await receivers.get(d.receiver_id);
      return { delivered: false, attempt: d.attempts, final: true, receiver_disabled: receiver ? await this.usedUp(d, receiver) : false };
    }
    // Until this attempt reports, the next is due after its backoff (or, after the last, once the send surely ended).
    const last = attempt >= config.maxAttempts;
    const leaseMs = Math.max(last ? 0 : retryDelayMs(config.retryBaseMs, attempt + 1), config.timeoutMs + CLAIM_MARGIN_MS);
    if (!(await deliveries.claim(d.id, attempt, new Date(Date.now() + leaseMs)))) return { skipped: 'attempt already made' };
    const receiver = await receivers.get(d.receiver_id);
    if (!receiver || !receiver.enabled) {
      await deliveries.attempted(d.id, attempt, { status: null, error: 'receiver disabled', final: 'skipped', nextAt: null });
      return { skipped: 'receiver disabled' };
    }
    const refused = await urlRefusal(receiver.url, config.allowPrivate);
    const secret = String(this.deps.sealer.open(receiver.secret as Sealed));
    const body = deliveryBody(d);
    // A fresh timestamp on every attempt (receivers reject notifications older than 5 minutes); the id stays.
    const result = refused
      ? { outcome: 'refused' as const, status: null, error: refused }
      : await sendNotification(receiver.url, signedHeaders(secret, d.id, body), body, config);
    webhookDeliveries.inc({ kind: d.kind, outcome: result.outcome });
    if (result.outcome === 'delivered') {
      if (await deliveries.attempted(d.id, attempt, { status: result.status, error: null, final: 'delivered', nextAt: null }))
        await receivers.succeeded(receiver.id);
      return { delivered: true, attempt };
    }
    // A refused address is not retried: it will not become public by waiting.
    if (result.outcome !== 'refused' && !last) {
      const nextAt = new Date(Date.now() + retryDelayMs(config.retryBaseMs, attempt + 1));
      if (await deliveries.attempted(d.id, attempt, { status: result.status, error: result.error, final: null, nextAt })) {
        await this.queueNext({ ...d, next_attempt_at: nextAt }, attempt + 1);
      }
      return { delivered: false, attempt, retry_at: nextAt.toISOString() };
    }
    if (!(await deliveries.attempted(d.id, attempt, { status: result.status, error: result.error, final: 'failed', nextAt: null }))) {
      return { delivered: false, attempt };
    }
    return { delivered: false, attempt, final: true, receiver_disabled: await this.usedUp(d, receiver) };
  }

  /** A notification that used up its attempts counts against its receiver; true when that disabled it (the store is told). */
  private async usedUp(d: Pick<DeliveryRow, 'tenant_id'>, receiver: ReceiverRow): Promise<boolean> {
    const disabled = await this.deps.receivers.failedOnce(receiver.id, this.deps.config.disableAfter);
    if (disabled) {
      this.deps.logger.warn('notification receiver disabled after repeated failures', {
        tenantId: d.tenant_id,
        receiverId: receiver.id,
        streak: disabled.failure_streak,
      });
      // The store is told through its other receivers (the disabled one is left out by `subscribed`) and the receiver's own state.
      await this.notify(d.tenant_id, 'webhook.receiver_disabled', { receiver_id: receiver.id, url: receiver.url, reason: disabled.disabled_reason });
    }
    return !!disabled;
  }

  private async queueNext(d: Pick<DeliveryRow, 'id' | 'next_attempt_at'>, next: number): Promise<void> {
    const delayMs = Math.max(0, new Date(d.next_attempt_at!).getTime() - Date.now());
    await this.deps.queues.enqueue(deliverJob, { deliveryId: d.id, attempt: next }, { delayMs });
  }
}
