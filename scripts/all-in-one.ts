import type { Config } from '../shared/config.js';
import { createDeps, type Deps } from '../shared/deps.js';
import { migrateLatest } from '../shared/db/knex.js';
import { startApi } from '../api/main.js';
import { startWorkers } from '../workers/start.js';
import { STAGES } from '../workers/registry.js';

/** API and workers in one process (npm start, npm run demo): two deps, as two processes would have. */
export async function startAllInOne(config: Config): Promise<{ apiDeps: Deps; stop(): Promise<void> }> {
  const apiDeps = createDeps(config);
  if (config.migrateOnStart) await migrateLatest(apiDeps.db);
  const workerDeps = createDeps(config);
  const workers = startWorkers(workerDeps, STAGES);
  const api = await startApi(apiDeps);
  return {
    apiDeps,
    async stop() {
      await api.stop();
      await workers.close();
      await Promise.all([apiDeps.close(), workerDeps.close()]);
    },
  };
}
