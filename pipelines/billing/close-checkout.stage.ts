import { UnrecoverableError } from 'bullmq';
import { defineStage } from '../define-stage.js';
import type { Deps } from '../../shared/deps.js';
import { closeCheckoutJob, type CheckoutRow } from '../../shared/billing/index.js';

/**
 * Expires a superseded checkout at the provider, or cancels the subscription of a replaced one, then
 * sets `closed_at`. Idempotent: a row already closed or moved on is left alone, and the provider's
 * "already expired / completed / canceled" answers count as done. Provider errors are retried.
 */
export const closeCheckout = defineStage({
  ...closeCheckoutJob,
  async run({ data, deps }) {
    const row = await deps.repos.checkouts.get(data.checkoutId);
    if (!row || row.status !== data.status || row.closed_at) return { outcome: 'nothing_to_do' };
    if (row.provider !== deps.payments.name)
      throw new UnrecoverableError(`checkout ${row.id} is at ${row.provider}, the service now uses ${deps.payments.name}`);
    const outcome =
      row.status === 'superseded'
        ? await deps.payments.expireCheckout({ tenantId: row.tenant_id, checkoutId: row.provider_checkout_id })
        : await cancelReplaced(deps, row);
    await deps.repos.checkouts.markClosed(row.id, row.status);
    if (row.status === 'replaced')
      deps.logger.warn('subscription replaced by a later checkout payment canceled at the provider', { tenant: row.tenant_id, checkout: row.id, outcome });
    return { outcome };
  },
});

/** Cancels now; a subscription the provider no longer has, or has canceled already, is done. */
async function cancelReplaced(deps: Deps, row: CheckoutRow): Promise<string> {
  const subscriptionId = row.provider_subscription_id;
  if (!subscriptionId) return 'missing';
  try {
    await deps.payments.cancel({ tenantId: row.tenant_id, subscriptionId, atPeriodEnd: false, baseUrl: row.base_url });
    return 'canceled';
  } catch (err) {
    const now = await deps.payments.fetch({ tenantId: row.tenant_id, subscriptionId });
    if (!now || now.rawStatus === 'canceled') return 'already_canceled';
    throw err;
  }
}
