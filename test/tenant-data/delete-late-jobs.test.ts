import t from 'tap';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { holdWrites, lockWaiters } from '../helpers/pg-fault.js';
import { refreshVocabulary } from '../../pipelines/search/refresh-vocabulary.stage.js';

// A store's job that was running while its deletion removed the queued ones (an index batch) may
// queue a follow-up afterwards: its debounced vocabulary rebuild. That job, and its Redis key naming
// the store, must not outlive the deletion.
const { h } = await setupWithWorkers();
const { db } = h.api.deps;
const prefix = h.config.queuePrefix;

t.test('a job of the store queued while its deletion runs is removed with the store', async (t) => {
  const a = await h.tenant();
  const b = await h.tenant();
  // The deletion is held at its last write (the audit record), after its first sweep of the queues.
  const hold = await holdWrites(db, { name: 'hold_audit', table: 'tenant_deletions', on: 'INSERT', when: 'true' });
  t.teardown(() => hold.remove());
  const started = await h.api.call('POST', '/v1/data/delete', { key: a.key, body: { confirm: a.id } });
  t.equal(started.status, 202);
  await eventually(async () => (await lockWaiters(db)) > 0, 30_000);

  // Meanwhile a job of the store that was running queues its follow-up (and one of the other store's).
  const late = await h.api.deps.queues.enqueue(refreshVocabulary, { tenantId: a.id, bucket: 1 }, { delayMs: 600_000 });
  const kept = await h.api.deps.queues.enqueue(refreshVocabulary, { tenantId: b.id, bucket: 1 }, { delayMs: 600_000 });
  await hold.release();

  await eventually(async () => db('tenant_deletions').where({ deleted_tenant: a.id }).first(), 30_000);
  const vocabulary = h.api.deps.queues.get(refreshVocabulary.queue);
  await eventually(async () => !(await vocabulary.getJob(late)), 10_000).catch(() => undefined);
  t.notOk(await vocabulary.getJob(late), "the store's late job is gone");
  t.ok(await vocabulary.getJob(kept), "the other store's stays");
  const left = (await h.api.deps.redis.keys(`${prefix}:*${a.id}*`)).filter((k) => !k.includes(`delete-data-${a.id}-`));
  t.same(left, [], 'no Redis key of the store');
});
