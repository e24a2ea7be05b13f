import type { Deps } from '../../shared/deps.js';

/**
 * Puts a store on a plan as the mock provider's webhook would (an active monthly subscription from
 * now), and tells every process (the `subscription` notice drops cached entitlements).
 */
export async function subscribe(deps: Pick<Deps, 'repos' | 'notices'>, tenantId: string, planCode: string, rawStatus = 'active'): Promise<void> {
  const now = new Date();
  await deps.repos.subscriptions.applySnapshot(
    'mock',
    {
      tenantId,
      planCode,
      interval: 'month',
      rawStatus,
      customerId: `cus_${tenantId}`,
      subscriptionId: `sub_${tenantId}`,
      trialEndsAt: null,
      periodStart: now,
      periodEnd: new Date(now.getTime() + 30 * 86400_000),
      cancelAtPeriodEnd: false,
    },
    now,
  );
  await deps.notices.publish('subscription', tenantId);
}
