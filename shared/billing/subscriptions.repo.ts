import type { Knex } from 'knex';
import type { SubscriptionSnapshot } from '../engines/payments/port.js';
import { findPlan } from './plans.js';
import { mapStatus, type Interval, type ProviderName, type SubscriptionStatus } from './states.js';

export interface SubscriptionRow {
  tenant_id: string;
  plan_code: string;
  interval: Interval;
  status: SubscriptionStatus;
  provider: ProviderName;
  provider_status: string | null;
  provider_customer_id: string | null;
  provider_subscription_id: string | null;
  trial_ends_at: Date | null;
  current_period_start: Date | null;
  current_period_end: Date | null;
  cancel_at_period_end: boolean;
  cancel_reason: string | null;
  canceled_at: Date | null;
  past_due_since: Date | null;
  pending_plan_code: string | null;
  pending_interval: Interval | null;
  credit_minor: string;
  state_at: Date;
}

/**
 * The rows of `q` whose period ended with something to do (see `due`). A past_due row is due only
 * when its dunning is over: its period's end (cancel at period end, a waiting downgrade) waits for it.
 */
function dueRows(q: Knex.QueryBuilder<SubscriptionRow>, now: Date, dunningDays: number) {
  return q.whereIn('provider', ['mock', 'manual']).andWhere((w) =>
    w
      .where((x) =>
        x
          .where('current_period_end', '<=', now)
          .andWhere((y) => y.where('cancel_at_period_end', true).orWhereNotNull('pending_plan_code'))
          .whereNotIn('status', ['canceled', 'past_due']),
      )
      .orWhere((x) => x.where('status', 'past_due').andWhere('past_due_since', '<=', new Date(now.getTime() - dunningDays * 86400_000))),
  );
}

/**
 * When a provider's state keeps the row's waiting change (a downgrade for the period end): the same
 * plan and interval, on the same subscription, still live. A cancel ends the change with the
 * subscription, and a new subscription (a checkout after a cancel, even to the same plan) starts
 * without one: else a downgrade asked of the old one would be shown, and applied at the new
 * one's first period end.
 */
const SAME_SUBSCRIPTION = `(EXCLUDED.plan_code, EXCLUDED.interval) = (billing_subscriptions.plan_code, billing_subscriptions.interval)
             AND EXCLUDED.status <> 'canceled'
             AND COALESCE(EXCLUDED.provider_subscription_id, billing_subscriptions.provider_subscription_id) IS NOT DISTINCT FROM billing_subscriptions.provider_subscription_id`;

/** One subscription per tenant; provider state lands here only when it is not older than what is stored. */
export function subscriptionsRepo(db: Knex) {
  return {
    async get(tenantId: string): Promise<SubscriptionRow | undefined> {
      return db<SubscriptionRow>('billing_subscriptions').where({ tenant_id: tenantId }).first();
    },
    /**
     * The store's row, locked until the caller's transaction (`db` must be one) ends. Every write
     * of a store's billing (a provider event, an API change, end-billing-periods, reconcile-billing)
     * takes it first, so two never both start from the same state. A store with no row yet has
     * nothing to lock: a per-store advisory lock stands in, then the row is read again, so a writer
     * that waited there finds (and locks) the row the one before it created.
     */
    async lock(tenantId: string): Promise<SubscriptionRow | undefined> {
      const row = await db<SubscriptionRow>('billing_subscriptions').where({ tenant_id: tenantId }).forUpdate().first();
      if (row) return row;
      await db.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`billing-subscription:${tenantId}`]);
      return db<SubscriptionRow>('billing_subscriptions').where({ tenant_id: tenantId }).forUpdate().first();
    },
    /**
     * Writes a provider's snapshot taken at `at`, unless the row already holds a newer state
     * (an older event never moves it back) or it names a plan the catalog does not have. Returns
     * the row when written. A waiting change stays only while plan and interval are unchanged (a
     * renewal onto it clears it); the credit balance is the provider's when it reports one.
     */
    async applySnapshot(provider: ProviderName, s: SubscriptionSnapshot, at: Date): Promise<SubscriptionRow | undefined> {
      if (!findPlan(s.planCode)) return undefined;
      const status = mapStatus(provider, s.rawStatus);
      const row = {
        tenant_id: s.tenantId,
        plan_code: s.planCode,
        interval: s.interval,
        status,
        provider,
        provider_status: s.rawStatus,
        provider_customer_id: s.customerId,
        provider_subscription_id: s.subscriptionId,
        trial_ends_at: s.trialEndsAt,
        current_period_start: s.periodStart,
        current_period_end: s.periodEnd,
        cancel_at_period_end: s.cancelAtPeriodEnd,
        credit_minor: String(s.creditMinor ?? 0),
        canceled_at: status === 'canceled' ? at : null,
        state_at: at,
        updated_at: db.fn.now(),
      };
      const [written] = await db
        .raw(
          `? ON CONFLICT (tenant_id) DO UPDATE SET plan_code = EXCLUDED.plan_code, interval = EXCLUDED.interval, status = EXCLUDED.status,
           provider = EXCLUDED.provider, provider_status = EXCLUDED.provider_status,
           provider_customer_id = COALESCE(EXCLUDED.provider_customer_id, billing_subscriptions.provider_customer_id),
           provider_subscription_id = COALESCE(EXCLUDED.provider_subscription_id, billing_subscriptions.provider_subscription_id),
           trial_ends_at = EXCLUDED.trial_ends_at, current_period_start = EXCLUDED.current_period_start, current_period_end = EXCLUDED.current_period_end,
           cancel_at_period_end = EXCLUDED.cancel_at_period_end,
           canceled_at = CASE WHEN EXCLUDED.status = 'canceled' THEN COALESCE(billing_subscriptions.canceled_at, EXCLUDED.canceled_at) ELSE NULL END,
           past_due_since = CASE WHEN EXCLUDED.status = 'past_due' THEN COALESCE(billing_subscriptions.past_due_since, EXCLUDED.state_at) ELSE NULL END,
           pending_plan_code = CASE WHEN ${SAME_SUBSCRIPTION} THEN billing_subscriptions.pending_plan_code ELSE NULL END,
           pending_interval = CASE WHEN ${SAME_SUBSCRIPTION} THEN billing_subscriptions.pending_interval ELSE NULL END,
           credit_minor = COALESCE(?::bigint, billing_subscriptions.credit_minor),
           state_at = EXCLUDED.state_at, updated_at = now()
         WHERE billing_subscriptions.state_at <= EXCLUDED.state_at
         RETURNING *`,
          [db('billing_subscriptions').insert({ ...row, past_due_since: status === 'past_due' ? at : null }), s.creditMinor ?? null],
        )
        .then((r: { rows: SubscriptionRow[] }) => r.rows);
      return written;
    },
    async update(tenantId: string, patch: Partial<Omit<SubscriptionRow, 'tenant_id'>>): Promise<SubscriptionRow | undefined> {
      const [row] = await db<SubscriptionRow>('billing_subscriptions')
        .where({ tenant_id: tenantId })
        .update({ ...patch, updated_at: db.fn.now() } as never)
        .returning('*');
      return row as SubscriptionRow | undefined;
    },
    /** Rows whose period ended with something to do: cancel at period end, a pending downgrade, dunning past its days. */
    async due(now: Date, dunningDays: number): Promise<SubscriptionRow[]> {
      return dueRows(db<SubscriptionRow>('billing_subscriptions'), now, dunningDays);
    },
    /**
     * The store's row, locked as `lock` does, if it is still due: a run that waited for another
     * one's lock reads the row that one left (no longer due: undefined, nothing locked).
     */
    async lockIfDue(tenantId: string, now: Date, dunningDays: number): Promise<SubscriptionRow | undefined> {
      return dueRows(db<SubscriptionRow>('billing_subscriptions').where({ tenant_id: tenantId }), now, dunningDays)
        .forUpdate()
        .first();
    },
    async withProvider(provider: ProviderName): Promise<SubscriptionRow[]> {
      return db<SubscriptionRow>('billing_subscriptions').where({ provider }).whereNotNull('provider_subscription_id').whereNot('status', 'canceled');
    },
  };
}
