import t from 'tap';
import { setup } from '../helpers/harness.js';
import { rollupUsageStage } from '../../pipelines/usage/rollup-usage.stage.js';

// A usage notice is recorded once per metric per month: its row and the receivers' delivery rows
// must commit together, or a failure between them loses the notification for the month.
const h = await setup({ BILLING_DEFAULT_PLAN: 'free', WEBHOOK_ALLOW_PRIVATE: 'true' });
t.teardown(() => h.close());
const deps = h.api.deps;
const { id: tenantId, key } = await h.tenant();
const rollup = () => rollupUsageStage.run({ data: {}, deps } as unknown as Parameters<typeof rollupUsageStage.run>[0]);
const receiver = await h.api.call('POST', '/v1/webhooks', { key, body: { url: 'http://127.0.0.1:9/usage', kinds: ['usage.threshold_reached'] } });
const sent = () => deps.db('webhook_deliveries').where({ tenant_id: tenantId, kind: 'usage.threshold_reached' });

t.test('a notice whose deliveries could not be recorded is sent by the next roll-up, once', async (t) => {
  t.equal(receiver.status, 201);
  // 8,500 of the free plan's 10,000 searches: the 80 % notice is due.
  deps.usage.count(tenantId, 'search', 1);
  await deps.usage.flush();
  await rollup();
  await deps.db('usage_daily').where({ tenant_id: tenantId, metric: 'search' }).increment('base', 8_499);
  await deps.db('usage_notices').where({ tenant_id: tenantId }).delete();
  // The deliveries cannot be written this time (a database failure between the two writes).
  const record = deps.notifications.record.bind(deps.notifications);
  let failures = 1;
  deps.notifications.record = async (...args: Parameters<typeof record>) => {
    if (failures-- > 0) throw new Error('connection terminated');
    return record(...args);
  };
  t.teardown(() => {
    deps.notifications.record = record;
  });
  await rollup().catch(() => undefined);
  t.equal((await sent()).length, 0, 'nothing recorded by the failed run');
  await rollup();
  const rows = await sent();
  t.equal(rows.length, 1, 'the next roll-up records the notice and its delivery');
  t.match(rows[0]?.payload, { metric: 'search', notice: '80_percent', limit: 10_000 });
  await rollup();
  t.equal((await sent()).length, 1, 'and never again this month');
  t.same((await h.api.call('GET', '/v1/usage', { key })).body.notices, ['80_percent']);
});
