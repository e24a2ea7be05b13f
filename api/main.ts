import cluster from 'node:cluster';
import type { Server } from 'node:http';
import { loadConfig, ConfigError, type Config } from '../shared/platform/config.js';
import { createDeps, type Deps } from '../shared/deps.js';
import { createDb, migrateLatest } from '../shared/platform/db/knex.js';
import { createApp } from './app.js';
import { onShutdown } from '../shared/platform/shutdown.js';
import { serveMetrics } from '../shared/platform/metrics-server.js';
import { AggregatorRegistry } from 'prom-client';

/** Starts the HTTP API on deps.config.port; returns a stop function for graceful shutdown. */
export async function startApi(deps: Deps): Promise<{ server: Server; stop(): Promise<void> }> {
  await deps.start();
  const app = createApp(deps);
  const server = app.listen(deps.config.port, deps.config.host);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  deps.logger.info('api listening', { port: deps.config.port });
  if (deps.config.secretEncryptionKeyIsDefault) {
    deps.logger.warn(
      'SECRET_ENCRYPTION_KEY is not set: secrets kept at rest are sealed with the published development key; set 32 random bytes (openssl rand -hex 32) before real use',
    );
  }
  return {
    server,
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}

async function main() {
  const config = loadConfig();
  if (config.apiProcesses > 1 && cluster.isPrimary) return startCluster(config);
  if (config.migrateOnStart && cluster.isPrimary) await migrateOnce(config);
  const deps = createDeps(config, { role: 'api' });
  const api = await startApi(deps);
  // One process: its own admin listener. Several: the primary serves them all, aggregated (startCluster).
  const metrics = config.ops.metricsPort !== undefined && cluster.isPrimary ? await serveMetrics(config.ops.metricsPort, config.ops.metricsHost) : null;
  onShutdown(async () => {
    metrics?.close();
    await api.stop();
    await deps.close();
  });
}

/** Migrations on a connection of their own: the API's pool has a statement timeout they must not hit. */
async function migrateOnce(config: Config) {
  const db = createDb(config.databaseUrl, { min: 0, max: 1 });
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }
}

/**
 * API_PROCESSES > 1: migrates once, then forks that many API processes sharing the port (the
 * primary hands each new connection to one of them in turn), starts another when one dies (a
 * second later when it died before listening), stops when none could ever start (bad config,
 * port taken), and stops them all on SIGTERM/SIGINT.
 */
async function startCluster(config: Config) {
  if (config.migrateOnStart) await migrateOnce(config);
  let stopping = false;
  let started = false;
  const fork = () => {
    if (stopping) return;
    const worker = cluster.fork();
    let listening = false;
    worker.once('listening', () => (listening = started = true));
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      process.stderr.write(`api process ${worker.process.pid} exited (${signal ?? code})\n`);
      if (!started) process.exit(1);
      setTimeout(fork, listening ? 0 : 1000);
    });
  };
  for (let i = 0; i < config.apiProcesses; i++) fork();
  const aggregator = new AggregatorRegistry();
  const metrics =
    config.ops.metricsPort !== undefined
      ? await serveMetrics(config.ops.metricsPort, config.ops.metricsHost, () => aggregator.clusterMetrics(), aggregator.contentType)
      : null;
  onShutdown(async () => {
    stopping = true;
    metrics?.close();
    await Promise.all(
      Object.values(cluster.workers ?? {}).map(
        (w) =>
          new Promise((resolve) => {
            w!.once('exit', resolve);
            w!.process.kill('SIGTERM');
          }),
      ),
    );
  }, 15_000);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof ConfigError ? err.message : (err?.stack ?? err)}\n`);
    process.exit(1);
  });
}
