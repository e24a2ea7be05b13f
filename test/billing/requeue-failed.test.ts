import t, { type Test } from 'tap';
import { Worker, UnrecoverableError } from 'bullmq';
import { Redis } from 'ioredis';
import { setup } from '../helpers/harness.js';
import { mockSubscriptionEvent } from './mock-event.js';
import { startTestWorkers, eventually } from '../helpers/workers.js';
import { requeueBillingEvents } from '../../pipelines/billing/requeue-billing-events.stage.js';
import { applyBillingEventJob, BILLING_QUEUE } from '../../shared/billing/billing.jobs.js';

// A provider event whose apply job failed for good (its five attempts spent while Postgres was down, say): BullMQ
// keeps the failed job, and its id, for a week, and ignores an add under that id. The sweep must retry it, not
// re-add it into the void.
const SECRET = 'mock_whsec_requeue_failed_01';
const h = await setup({ MOCK_WEBHOOK_SECRET: SECRET, BILLING_DEFAULT_PLAN: 'free' });
t.teardown(() => h.close());
const deps = h.api.deps;

async function deliver(t: Test, tenantId: string, id: string) {
  const event = mockSubscriptionEvent(SECRET, { id, type: 'subscription.updated', tenantId, subscription: { id: 'msub_requeue', customer: 'mcus_requeue' } });
  t.equal((await h.api.call('POST', '/v1/billing/webhooks/mock', event)).status, 200, 'the webhook is acknowledged');
}

t.test('an event whose apply job failed for good is applied after the next requeue sweep', async (t) => {
  const tenant = await h.tenant();
  await deliver(t, tenant.id, 'mev_requeue_1');
  const jobId = applyBillingEventJob.jobId({ provider: 'mock', eventId: 'mev_requeue_1' });

  // The job fails for good: a worker that cannot apply anything.
  const connection = new Redis(h.config.redisUrl, { maxRetriesPerRequest: null });
  const failing = new Worker(
    BILLING_QUEUE,
    async () => {
      throw new UnrecoverableError('database unavailable');
    },
    { connection, prefix: h.config.queuePrefix },
  );
  const queue = deps.queues.get(BILLING_QUEUE);
  await eventually(async () => (await queue.getJob(jobId))?.isFailed());
  await failing.close();
  await connection.quit();
  const event = () => deps.db('billing_events').where({ provider: 'mock', event_id: 'mev_requeue_1' }).first();
  t.equal((await event()).applied_at, null, 'the event is stored, not applied');

  const out = await requeueBillingEvents.run({ data: { unappliedAfterMs: 0 }, deps } as never);
  t.same(out, { requeued: 1, closes: 0 }, 'the sweep counts the event it queued again');
  t.equal(await (await queue.getJob(jobId))!.getState(), 'waiting', 'the failed job is waiting again, under its own id');
  t.equal((await queue.getJob(jobId))!.attemptsMade, 0, 'with its attempts counted afresh');

  const workers = await startTestWorkers(h.config);
  t.teardown(() => workers.close());
  const applied = await eventually(async () => (await event())?.applied_at, 20_000);
  t.ok(applied, 'the event is applied');
  const sub = await deps.db('billing_subscriptions').where({ tenant_id: tenant.id }).first();
  t.equal(sub.plan_code, 'growth', 'the subscription follows the event');

  const again = await requeueBillingEvents.run({ data: { unappliedAfterMs: 0 }, deps } as never);
  t.same(again, { requeued: 0, closes: 0 }, 'an applied event is not queued again');
});

t.test('requeue leaves a job that is still waiting alone, and adds one that no job holds', async (t) => {
  const queue = deps.queues.get(BILLING_QUEUE);
  await queue.pause();
  t.teardown(() => queue.resume());
  const data = { provider: 'mock' as const, eventId: 'mev_requeue_absent' };
  t.equal(await deps.queues.requeue(applyBillingEventJob, data), 'added');
  t.equal(await deps.queues.requeue(applyBillingEventJob, data), 'held', 'a waiting job is left alone');
  t.equal((await queue.getJobs(['waiting'])).filter((j) => j.id === applyBillingEventJob.jobId(data)).length, 1, 'one job');
  await (await queue.getJob(applyBillingEventJob.jobId(data)))!.remove();
});
