import type { AddressInfo } from 'node:net';
import type { Config } from '../shared/platform/config.js';
import { createDeps, type Deps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { startApi } from '../api/main.js';
import { startWorkers } from '../workers/start.js';
import { schedules, STAGES } from '../workers/registry.js';
import { keepSchedules } from '../shared/platform/queue/schedule-keeper.js';

/** API and workers in one process (npm start, npm run demo): two deps, as two processes would have. */
export async function startAllInOne(config: Config): Promise<{ apiDeps: Deps; url: string; stop(): Promise<void> }> {
  const workerDeps = createDeps(config, { role: 'worker' });
  if (config.migrateOnStart) await migrateLatest(workerDeps.db);
  const apiDeps = createDeps(config, { role: 'api' });
  const workers = startWorkers(workerDeps, STAGES);
  const kept = keepSchedules(workerDeps.queues, schedules(config), { checkEveryMs: Math.min(60_000, config.sweepEveryMs), logger: workerDeps.logger });
  await kept.started;
  const api = await startApi(apiDeps);
  const address = api.server.address() as AddressInfo;
  return {
    apiDeps,
    url: `http://127.0.0.1:${address.port}`,
    async stop() {
      await api.stop();
      kept.stop();
      await workers.close();
      await Promise.all([apiDeps.close(), workerDeps.close()]);
    },
  };
}
