import type { Knex } from 'knex';
import type { SubscriptionSnapshot } from '../engines/payments/port.js';
import type { Notices } from '../platform/notices.js';
import type { AfterCommit, BillingNotifications } from './notifications.js';
import { subscriptionsRepo, type SubscriptionRow } from './subscriptions.repo.js';
import { addonsRepo } from './addons.repo.js';
import type { ProviderName } from './states.js';

/** What telling of a subscription change uses: the `subscription` notice and the outbound notifications. */
export interface ChangeDeps {
  notices: Pick<Notices, 'publish'>;
  notifications: Pick<BillingNotifications, 'record'>;
}

/**
 * Runs one billing operation as one transaction of `db`. `work` takes its locks first (the
 * provider event's row, then the store's subscription: subscriptionsRepo.lock, in that order
 * everywhere, so two operations never wait on each other in a circle) and pushes onto
 * `afterCommit` what leaves Postgres (notices, queued deliveries): that runs only once the
 * transaction has committed, never for a change that rolled back.
 */
export async function billingTransaction<T>(db: Knex, work: (trx: Knex.Transaction, afterCommit: AfterCommit[]) => Promise<T>): Promise<T> {
  const afterCommit: AfterCommit[] = [];
  const result = await db.transaction((trx) => work(trx, afterCommit));
  for (const f of afterCommit) await f();
  return result;
}

/**
 * Tells of a subscription written from `before` (read under the store's lock, so it is the state
 * this change replaced) to `after`: the subscription.changed deliveries are recorded in `trx` (they
 * commit or roll back with the change); the notice and their queueing wait for the commit.
 */
export async function recordChange(
  trx: Knex.Transaction,
  deps: ChangeDeps,
  before: SubscriptionRow | undefined,
  after: SubscriptionRow,
  afterCommit: AfterCommit[],
): Promise<void> {
  afterCommit.push(() => deps.notices.publish('subscription', after.tenant_id));
  afterCommit.push(
    await deps.notifications.record(trx, {
      kind: 'subscription.changed',
      tenantId: after.tenant_id,
      plan_code: after.plan_code,
      status: after.status,
      previous_status: before?.status ?? null,
      cancel_at_period_end: after.cancel_at_period_end,
    }),
  );
}

/**
 * Writes a provider's snapshot taken at `at` (a webhook's, or reconcile-billing's reading), the
 * caller holding the store's lock: nothing when the row holds a newer state (undefined). Bundles
 * end with the subscription, and a reactivated one starts without the old ones, whichever path
 * canceled it (a provider event, the API, end-billing-periods, reconcile). The store is told when
 * the status, the plan or cancel_at_period_end moved.
 */
export async function writeSnapshot(
  trx: Knex.Transaction,
  deps: ChangeDeps,
  provider: ProviderName,
  snap: SubscriptionSnapshot,
  at: Date,
  afterCommit: AfterCommit[],
): Promise<SubscriptionRow | undefined> {
  const subscriptions = subscriptionsRepo(trx);
  const before = await subscriptions.get(snap.tenantId);
  const written = await subscriptions.applySnapshot(provider, snap, at);
  if (!written) return undefined;
  const reactivated = before?.status === 'canceled' && written.status !== 'canceled';
  if (written.status === 'canceled' || reactivated) await addonsRepo(trx).end(written.tenant_id, at);
  if (before?.status !== written.status || before?.plan_code !== written.plan_code || before?.cancel_at_period_end !== written.cancel_at_period_end)
    await recordChange(trx, deps, before, written, afterCommit);
  return written;
}
