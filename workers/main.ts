import { loadConfig, ConfigError } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { migrateLatest } from '../shared/platform/db/knex.js';
import { onShutdown } from '../shared/platform/shutdown.js';
import { schedules, STAGES } from './registry.js';
import { startWorkers } from './start.js';
import { keepSchedules } from '../shared/platform/queue/schedule-keeper.js';
import { serveMetrics } from '../shared/platform/metrics-server.js';

async function main() {
  const config = loadConfig();
  const deps = createDeps(config);
  if (config.migrateOnStart) await migrateLatest(deps.db);
  const workers = startWorkers(deps, STAGES);
  // Schedules live in Redis: kept in place (re-created after a Redis restart) for as long as the workers run.
  const kept = keepSchedules(deps.queues, schedules(config), { checkEveryMs: Math.min(60_000, config.sweepEveryMs), logger: deps.logger });
  let metrics: Awaited<ReturnType<typeof serveMetrics>> | null = null;
  // Registered as soon as the workers take jobs: a SIGTERM while the schedules are still being
  // written (seconds at start) must finish the jobs held, not kill them mid-stage.
  onShutdown(async () => {
    metrics?.close();
    kept.stop();
    await workers.close();
    await deps.close();
  });
  await kept.started;
  deps.logger.info('workers started', { queues: workers.workers.map((w) => w.name) });
  metrics = config.ops.workerMetricsPort !== undefined ? await serveMetrics(config.ops.workerMetricsPort, config.ops.metricsHost) : null;
}

main().catch((err) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : (err?.stack ?? err)}\n`);
  process.exit(1);
});
