import type { Server } from 'node:http';
import { loadConfig, ConfigError } from '../shared/config.js';
import { createDeps, type Deps } from '../shared/deps.js';
import { migrateLatest } from '../shared/db/knex.js';
import { createApp } from './app.js';
import { onShutdown } from '../shared/shutdown.js';

/** Starts the HTTP API on deps.config.port; returns a stop function for graceful shutdown. */
export async function startApi(deps: Deps): Promise<{ server: Server; stop(): Promise<void> }> {
  await deps.start();
  const app = createApp(deps);
  const server = app.listen(deps.config.port, deps.config.host);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => server.once('listening', resolve).once('error', reject));
  deps.logger.info('api listening', { port: deps.config.port });
  return {
    server,
    stop: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeIdleConnections();
    }),
  };
}

async function main() {
  const config = loadConfig();
  const deps = createDeps(config);
  if (config.migrateOnStart) await migrateLatest(deps.db);
  const api = await startApi(deps);
  onShutdown(async () => {
    await api.stop();
    await deps.close();
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  main().catch((err) => {
    process.stderr.write(`${err instanceof ConfigError ? err.message : err?.stack ?? err}\n`);
    process.exit(1);
  });
}
