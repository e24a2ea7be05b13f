import t from 'tap';
import { z } from 'zod';
import { Redis } from 'ioredis';
import { startPrivateRedis } from '../helpers/redis-server.js';
import { waitFor } from '../helpers/wait.js';
import { Queues } from '../../shared/platform/queue/queues.js';
import { defineJob } from '../../shared/platform/queue/define-job.js';
import { ensureSchedules, type Schedule } from '../../shared/platform/queue/schedule.js';
import { keepSchedules } from '../../shared/platform/queue/schedule-keeper.js';
import type { Logger } from '../../shared/platform/logger.js';

// A worker writes every schedule when it starts. Redis stalling in the middle of that (here CLIENT
// PAUSE: writes wait, the connection stays up, so a command times out) used to reject `started`,
// and workers/main.ts exited on it: a worker started during a Redis blip died.
const redis = await startPrivateRedis();
t.teardown(() => redis.close());

const job = defineJob({ queue: 'keeper', name: 'tick', schema: z.object({}), jobId: () => 'tick' });
const schedule = (id: string, every: number): Schedule => ({ id, job, repeat: { every }, data: {} });

t.test('a start interrupted by a Redis stall is not fatal, and every schedule is written once Redis answers', async (t) => {
  const queues = new Queues(redis.url, 'keeper', 300);
  const admin = new Redis(redis.url);
  const warnings: string[] = [];
  const logger: Logger = { debug() {}, info() {}, error() {}, warn: (msg) => warnings.push(msg) };
  t.teardown(async () => {
    kept?.stop();
    await admin.call('CLIENT', 'UNPAUSE').catch(() => undefined);
    admin.disconnect();
    await queues.close();
  });
  // An older definition of `changed` is in Redis from a previous deploy.
  await ensureSchedules(queues, [schedule('changed', 60_000)]);
  const queue = queues.get('keeper');
  t.equal((await queue.getJobScheduler('changed'))?.every, 60_000);

  // Writes stall for longer than the command timeout: the first schedule's write times out.
  await admin.call('CLIENT', 'PAUSE', '2000', 'WRITE');
  let kept: ReturnType<typeof keepSchedules> | undefined = keepSchedules(queues, [schedule('added', 30_000), schedule('changed', 120_000)], {
    checkEveryMs: 250,
    logger,
  });
  await t.resolves(kept.started, 'the start resolves: the process goes on');
  t.ok(
    warnings.some((w) => w.startsWith('could not write the schedules at start')),
    `the failed start is logged (${warnings.join('; ')})`,
  );

  // Once Redis takes writes again, a later check writes every schedule, the changed one included.
  // (Reads time out too while the stalled write holds the connection.)
  const every = (id: string) =>
    queue.getJobScheduler(id).then(
      (s) => s?.every,
      () => undefined,
    );
  await waitFor(async () => (await every('changed')) === 120_000, 15_000, 'the changed definition written', 100);
  t.equal(await every('added'), 30_000, 'and the new one');
});
