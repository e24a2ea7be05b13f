import type { Knex } from 'knex';
import type { Logger } from '../platform/logger.js';

/** What billing tells the outside (outbound webhooks, e-mail) about a tenant. */
export type BillingNotification =
  | { kind: 'usage.threshold'; tenantId: string; metric: string; notice: '80_percent' | '100_percent'; period: string; used: number; limit: number }
  | { kind: 'subscription.changed'; tenantId: string; plan_code: string; status: string; previous_status: string | null; cancel_at_period_end: boolean };

/** What a listener leaves for after its rows are committed (queueing the deliveries it recorded). */
export type AfterCommit = () => Promise<void>;

/**
 * Records a notification: with `db`, a caller's transaction, whatever the listener writes to
 * Postgres (its outbox rows) commits or rolls back with the caller's own writes, and what leaves
 * Postgres goes in the returned AfterCommit.
 */
export type BillingListener = (n: BillingNotification, db?: Knex) => void | AfterCommit | Promise<void | AfterCommit>;

/**
 * The hook for outbound notifications: billing emits here once per fact (a threshold notice once
 * per metric per period, a subscription change once per applied change); the notifications area
 * subscribes with `on` when it is wired.
 */
export class BillingNotifications {
  private listeners: BillingListener[] = [];

  constructor(private logger: Logger) {}

  on(listener: BillingListener): void {
    this.listeners.push(listener);
  }

  /** Tells the listeners now, outside any transaction. Listener failures are logged, never thrown back. */
  async emit(n: BillingNotification): Promise<void> {
    this.logger.info('billing notification', n);
    for (const l of this.listeners) {
      try {
        const after = await l(n, undefined);
        if (after) await after();
      } catch (err) {
        this.logger.warn('billing notification listener failed', { err, kind: n.kind });
      }
    }
  }

  /**
   * Records `n` inside `trx`, the transaction of the writes it reports, and returns what to run
   * once that commits. A listener failure throws: the transaction cannot commit without the
   * notification's rows (and Postgres has aborted it anyway). What runs after commit logs its
   * failures, never throws: the writes are committed and the notification is recorded.
   */
  async record(trx: Knex.Transaction, n: BillingNotification): Promise<AfterCommit> {
    const after: AfterCommit[] = [];
    for (const l of this.listeners) {
      const a = await l(n, trx);
      if (a) after.push(a);
    }
    return async () => {
      this.logger.info('billing notification', n);
      for (const a of after) await a().catch((err) => this.logger.warn('billing notification listener failed', { err, kind: n.kind }));
    };
  }
}
