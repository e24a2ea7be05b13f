import type { Knex } from 'knex';
import type { CheckoutEvent } from '../engines/payments/port.js';
import type { Interval, ProviderName } from './states.js';

export type CheckoutStatus = 'open' | 'completed' | 'superseded' | 'expired' | 'replaced';

export interface CheckoutRow {
  id: string;
  tenant_id: string;
  provider: ProviderName;
  provider_checkout_id: string;
  plan_code: string;
  interval: Interval;
  status: CheckoutStatus;
  superseded_by: string | null;
  provider_subscription_id: string | null;
  base_url: string;
  created_at: Date;
  completed_at: Date | null;
  closed_at: Date | null;
}

/**
 * What a checkout event did: `completed` (the others open are superseded), `late` (it had been
 * superseded or expired and was paid anyway: accepted, the one that superseded it is replaced),
 * `expired`, or `unchanged` (a repeat, an unknown checkout, or another tenant's).
 */
export type CheckoutOutcome = 'completed' | 'late' | 'expired' | 'unchanged';

/** Statuses whose checkout was closed by another one's completion. */
const CLOSED_BY_OTHER: readonly CheckoutStatus[] = ['superseded', 'expired'];

/** The checkouts the service opened at the provider; the store's completions are settled one at a time (a lock per store). `db`: the pool or a transaction. */
export function checkoutsRepo(db: Knex) {
  const table = (q: Knex = db) => q<CheckoutRow>('billing_checkouts');
  return {
    async insert(row: Pick<CheckoutRow, 'id' | 'tenant_id' | 'provider' | 'provider_checkout_id' | 'plan_code' | 'interval' | 'base_url'>): Promise<void> {
      await table().insert(row);
    },
    async get(id: string): Promise<CheckoutRow | undefined> {
      return table().where({ id }).first();
    },
    async list(tenantId: string): Promise<CheckoutRow[]> {
      return table().where({ tenant_id: tenantId }).orderBy('created_at');
    },
    /**
     * Applies a provider's checkout event for `tenantId` in one transaction (a savepoint when `db`
     * is already one: the lock is then held until the caller commits). Completed: the
     * store's other open checkouts become `superseded` (to expire at the provider); completed
     * after it was superseded: accepted as the store's latest decision, and the checkout whose
     * completion superseded it becomes `replaced` (its subscription to cancel at the provider).
     */
    async settle(provider: ProviderName, tenantId: string, e: CheckoutEvent): Promise<CheckoutOutcome> {
      return db.transaction(async (trx) => {
        // Every settle of a store takes the same lock first, so two completions never both see the others open.
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`billing-checkouts:${tenantId}`]);
        const row = await table(trx).where({ provider, provider_checkout_id: e.id, tenant_id: tenantId }).first();
        if (e.status === 'expired') {
          const n = await table(trx)
            .where({ provider, provider_checkout_id: e.id, tenant_id: tenantId, status: 'open' })
            .update({ status: 'expired', closed_at: trx.fn.now(), updated_at: trx.fn.now() } as never);
          return n ? 'expired' : 'unchanged';
        }
        if (row && (row.status === 'completed' || row.status === 'replaced')) return 'unchanged';
        const late = row !== undefined && CLOSED_BY_OTHER.includes(row.status);
        if (row) {
          await table(trx)
            .where({ id: row.id })
            .update({
              status: 'completed',
              completed_at: trx.fn.now(),
              provider_subscription_id: e.subscriptionId,
              updated_at: trx.fn.now(),
            } as never);
        }
        await table(trx)
          .where({ tenant_id: tenantId, provider, status: 'open' })
          .whereNot({ provider_checkout_id: e.id })
          .update({ status: 'superseded', superseded_by: e.id, updated_at: trx.fn.now() } as never);
        if (late && row!.superseded_by) {
          await table(trx)
            .where({ tenant_id: tenantId, provider, provider_checkout_id: row!.superseded_by, status: 'completed' })
            .update({ status: 'replaced', superseded_by: e.id, closed_at: null, updated_at: trx.fn.now() } as never);
        }
        return late ? 'late' : row ? 'completed' : 'unchanged';
      });
    },
    /** True when `subscriptionId` belongs to a checkout the store replaced by a later payment: its events no longer move the store. */
    async replacedSubscription(provider: ProviderName, tenantId: string, subscriptionId: string): Promise<boolean> {
      const hit = await table().where({ provider, tenant_id: tenantId, provider_subscription_id: subscriptionId, status: 'replaced' }).first('id');
      return hit !== undefined;
    },
    /** Checkouts with provider work left (expire, or cancel the replaced subscription), waiting over `olderThanMs` (null: any); one tenant's, or all. */
    async toClose(olderThanMs: number | null, tenantId?: string, limit = 500): Promise<CheckoutRow[]> {
      return table()
        .whereIn('status', ['superseded', 'replaced'])
        .whereNull('closed_at')
        .modify((q) => (olderThanMs === null ? q : q.where('updated_at', '<=', new Date(Date.now() - olderThanMs))))
        .modify((q) => (tenantId ? q.where({ tenant_id: tenantId }) : q))
        .orderBy('updated_at')
        .limit(limit);
    },
    /** Notes that the provider's side is done, once; false when the row moved on meanwhile (completed late, or already closed). */
    async markClosed(id: string, status: CheckoutStatus): Promise<boolean> {
      const n = await table()
        .where({ id, status })
        .whereNull('closed_at')
        .update({ closed_at: db.fn.now(), updated_at: db.fn.now() } as never);
      return n === 1;
    },
  };
}
