import type { Logger } from '../platform/logger.js';

/** What billing tells the outside (outbound webhooks, e-mail) about a tenant. */
export type BillingNotification =
  | { kind: 'usage.threshold'; tenantId: string; metric: string; notice: '80_percent' | '100_percent'; period: string; used: number; limit: number }
  | { kind: 'subscription.changed'; tenantId: string; plan_code: string; status: string; previous_status: string | null; cancel_at_period_end: boolean };

export type BillingListener = (n: BillingNotification) => void | Promise<void>;

/**
 * The hook for outbound notifications: billing emits here once per fact (a threshold notice once
 * per metric per period, a subscription change once per applied change); the notifications area
 * subscribes with `on` when it is wired. Listener failures are logged, never thrown back.
 */
export class BillingNotifications {
  private listeners: BillingListener[] = [];

  constructor(private logger: Logger) {}

  on(listener: BillingListener): void {
    this.listeners.push(listener);
  }

  async emit(n: BillingNotification): Promise<void> {
    this.logger.info('billing notification', n);
    for (const l of this.listeners) {
      try {
        await l(n);
      } catch (err) {
        this.logger.warn('billing notification listener failed', { err, kind: n.kind });
      }
    }
  }
}
