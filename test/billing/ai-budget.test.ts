import t from 'tap';
import { setup } from '../helpers/harness.js';
import { subscribe as subscribeTo } from '../helpers/subscribe.js';

// The AI-rewrite budget follows the store's plan once it subscribes; AI_BUDGET_MICROS_USD otherwise.
const h = await setup({ AI_BUDGET_MICROS_USD: '123456', BILLING_DEFAULT_PLAN: 'free' });
t.teardown(() => h.close());
const { deps } = h.api;
const budget = deps.rewriter.budget;
const subscribe = (tenantId: string, planCode: string, rawStatus?: string) => subscribeTo(deps, tenantId, planCode, rawStatus);

t.test("a subscribed store's plan sets its AI budget; no subscription or a custom plan keep the operator's", async (t) => {
  const none = await h.tenant('No subscription');
  t.equal(await budget.limit(none.id), 123456, 'no subscription: AI_BUDGET_MICROS_USD');

  const growth = await h.tenant('Growth');
  await subscribe(growth.id, 'growth');
  t.equal(await budget.limit(growth.id), 10_000_000, "the growth plan's 10 USD");

  const free = await h.tenant('Free');
  await subscribe(free.id, 'free');
  t.equal(await budget.limit(free.id), 0, 'the free plan has no AI budget');
  t.equal((await budget.allows(free.id)).ok, false, 'so no model call');

  const enterprise = await h.tenant('Enterprise');
  await subscribe(enterprise.id, 'enterprise');
  t.equal(await budget.limit(enterprise.id), 123456, "a custom budget (null) is the operator's setting");

  const canceled = await h.tenant('Canceled');
  await subscribe(canceled.id, 'growth', 'canceled');
  t.equal(await budget.limit(canceled.id), 0, "a canceled subscription falls back to the free plan's budget");
});
