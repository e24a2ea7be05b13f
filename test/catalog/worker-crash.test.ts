import t from 'tap';
import { spawn } from 'node:child_process';
import { setup } from '../helpers/harness.js';
import { startTestWorkers, eventually } from '../helpers/workers.js';

// A short lock so a dead worker's job is found stalled and re-run within seconds.
const h = await setup({ WORKER_LOCK_MS: '1000' });
t.teardown(() => h.close());

t.test('a worker killed mid-stage loses nothing: the stage re-runs on another worker', async (t) => {
  const { id: tenantId, key } = await h.tenant();
  const child = spawn(process.execPath, ['--import', 'tsx', 'workers/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: h.config.databaseUrl,
      QUEUE_PREFIX: h.config.queuePrefix,
      WORKER_LOCK_MS: '1000',
      FAULT_STAGE_DELAY_MS: '60000',
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'silent',
    },
    stdio: 'ignore',
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Never left running, even when the test fails before it kills the worker itself.
  t.teardown(() => void child.kill('SIGKILL'));
  const upsert = Array.from({ length: 50 }, (_, i) => ({ id: `k${i}`, name: { en: `Crashproof lamp ${i}` }, price: 5, currency: 'USD' }));
  const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert } });
  t.equal(res.body.upserted, 50);
  const queue = h.api.deps.queues.get('catalog');
  await eventually(async () => (await queue.getActiveCount()) === 1, 20_000);
  child.kill('SIGKILL');
  await exited;
  t.equal((await h.api.deps.engine.search({ tenantId, tokens: ['crashproof'], offset: 0, limit: 1 })).total, 0, 'not indexed when the worker died');

  const workers = await startTestWorkers(h.config);
  t.teardown(() => workers.close());
  await eventually(async () => (await h.api.deps.engine.search({ tenantId, tokens: ['crashproof'], offset: 0, limit: 1 })).total === 50, 20_000);
  // Marking indexed follows the engine write, so it may land a moment after the docs are searchable.
  await eventually(async () => (await h.api.deps.repos.products.unindexed(tenantId, 100)).length === 0, 20_000);
  t.same(await h.api.deps.repos.products.unindexed(tenantId, 100), [], 'every product marked indexed');
});
