import type { Knex } from 'knex';
import type { SubscriptionSnapshot } from '../engines/payments/port.js';
import { subscriptionsRepo, type SubscriptionRow } from './subscriptions.repo.js';
import { billingTransaction, writeSnapshot, type ChangeDeps } from './subscription-change.js';
import type { ProviderName } from './states.js';

/** Whether the provider's reading of a subscription says something the row does not. */
function differs(row: SubscriptionRow, snap: SubscriptionSnapshot): boolean {
  return (
    snap.rawStatus !== row.provider_status ||
    snap.planCode !== row.plan_code ||
    snap.cancelAtPeriodEnd !== row.cancel_at_period_end ||
    snap.periodEnd?.getTime() !== row.current_period_end?.getTime()
  );
}

/**
 * Writes what the provider says of a store (reconcile-billing's reading, taken at `readAt`) as its
 * webhook would (writeSnapshot: the bundles end with a cancel, the store is told of a change), in
 * one transaction with the row locked and compared again: an event, an API change or another run
 * that landed since the reading either brought the same state (nothing written) or is newer than
 * `readAt` (applySnapshot keeps it). True when the row was corrected.
 */
export async function correctFromProvider(deps: ChangeDeps & { db: Knex }, provider: ProviderName, snap: SubscriptionSnapshot, readAt: Date): Promise<boolean> {
  return billingTransaction(deps.db, async (trx, afterCommit) => {
    const row = await subscriptionsRepo(trx).lock(snap.tenantId);
    if (!row || !differs(row, snap)) return false;
    return (await writeSnapshot(trx, deps, provider, snap, readAt, afterCommit)) !== undefined;
  });
}
