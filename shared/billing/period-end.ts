import type { Knex } from 'knex';
import { subscriptionsRepo, type SubscriptionRow } from './subscriptions.repo.js';
import { addonsRepo } from './addons.repo.js';
import { billingTransaction, recordChange, type ChangeDeps } from './subscription-change.js';

type PeriodEnd = { kind: 'ended' | 'changed'; patch: Partial<SubscriptionRow>; endsAt?: Date };

/**
 * What the period's end does to a due row: cancel it (cancel at period end, dunning over) or apply
 * its waiting change. A past_due row is in dunning: only the dunning's end cancels it, and its plan
 * (and a waiting downgrade, which the paid retry of the renewal bills and applies) stays until then.
 * `endsAt` is when a cancel took effect (the period's end, or the dunning's): it is the row's
 * canceled_at and its add-on bundles end then, however late the stage runs.
 */
function periodEndChange(row: SubscriptionRow, now: Date, stateAt: Date, dunningDays: number): PeriodEnd | null {
  const cancel = (endsAt: Date): PeriodEnd => ({
    kind: 'ended',
    patch: { status: 'canceled', canceled_at: endsAt, cancel_at_period_end: false, pending_plan_code: null, pending_interval: null, state_at: stateAt },
    endsAt,
  });
  if (row.status === 'past_due') {
    const dunningEnd = row.past_due_since && new Date(row.past_due_since.getTime() + dunningDays * 86400_000);
    return dunningEnd && dunningEnd <= now ? cancel(dunningEnd) : null;
  }
  const periodEnd = row.current_period_end && row.current_period_end <= now ? row.current_period_end : null;
  if (periodEnd && row.cancel_at_period_end) return cancel(periodEnd);
  if (periodEnd && row.pending_plan_code) {
    return {
      kind: 'changed',
      patch: {
        plan_code: row.pending_plan_code,
        interval: row.pending_interval ?? row.interval,
        pending_plan_code: null,
        pending_interval: null,
        state_at: stateAt,
      },
    };
  }
  return null;
}

/**
 * Ends one store's period (end-billing-periods, for the subscriptions the service keeps itself):
 * one transaction, the row, the add-on bundles a cancel ends and its subscription.changed
 * deliveries, taken with the row locked and read again (lockIfDue): a run that waited for another
 * one's change, or an event's, finds the row no longer due and changes nothing (null). The notice
 * and the deliveries' queueing follow the commit.
 */
export async function endPeriod(deps: ChangeDeps & { db: Knex }, tenantId: string, now: Date, dunningDays: number): Promise<'ended' | 'changed' | null> {
  // Provider events carry whole seconds: a state_at with milliseconds would make an event of the same second look older.
  const stateAt = new Date(Math.floor(now.getTime() / 1000) * 1000);
  return billingTransaction(deps.db, async (trx, afterCommit) => {
    const subscriptions = subscriptionsRepo(trx);
    const row = await subscriptions.lockIfDue(tenantId, now, dunningDays);
    const change = row && periodEndChange(row, now, stateAt, dunningDays);
    if (!row || !change) return null;
    const after = await subscriptions.update(tenantId, change.patch);
    if (change.endsAt) await addonsRepo(trx).end(tenantId, change.endsAt);
    if (after) await recordChange(trx, deps, row, after, afterCommit);
    return change.kind;
  });
}
