import { loadConfig, ConfigError } from '../shared/platform/config.js';
import { onShutdown } from '../shared/platform/shutdown.js';
import { startAllInOne } from './all-in-one.js';

/** npm start: API + workers in one process on the configured Postgres and Redis. */
try {
  const app = await startAllInOne(loadConfig());
  onShutdown(() => app.stop());
} catch (err) {
  process.stderr.write(`${err instanceof ConfigError ? err.message : (err as Error).stack}\n`);
  process.exit(1);
}
