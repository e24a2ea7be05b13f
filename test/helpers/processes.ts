import type { Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import type { Config } from '../../shared/platform/config.js';
import { call, type CallOptions, type Reply } from './harness.js';
import { freePort } from './redis-server.js';
import { waitFor } from './wait.js';

/** A real API or worker process started by a test; killed when the test ends. */
export interface Child {
  child: ChildProcess;
  exited: Promise<number | null>;
  /** What it wrote to stderr (its log at LOG_LEVEL), for failure messages. */
  log(): string;
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/** The environment a child needs to share the test's database, Redis and prefix. */
function envFor(config: Config, extra: Record<string, string>): Record<string, string> {
  return {
    ...(process.env as Record<string, string>),
    NODE_ENV: 'test',
    DATABASE_URL: config.databaseUrl,
    REDIS_URL: config.redisUrl,
    QUEUE_PREFIX: config.queuePrefix,
    MIGRATE_ON_START: 'false',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn',
    BILLING_DEFAULT_PLAN: config.billing.defaultPlan,
    ...extra,
  };
}

/** `built`: the compiled script under dist/ (`npm run api:built`), else the source through tsx (`npm run api`). */
function startChild(t: Test, script: string, env: Record<string, string>, built = false): Child {
  const args = built ? [`dist/${script.replace(/\.ts$/, '.js')}`] : ['--import', 'tsx', script];
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (d) => (log = (log + d).slice(-20_000)));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  // Never left running, even when the test fails first.
  t.teardown(() => void child.kill('SIGKILL'));
  return {
    child,
    exited,
    log: () => log,
    async kill(signal = 'SIGKILL') {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill(signal);
      await exited;
    },
  };
}

/** `workers/main.ts` as its own process on the test's database and Redis (`built`: compiled, from dist/). */
export function spawnWorker(t: Test, config: Config, env: Record<string, string> = {}, built = false): Child {
  return startChild(t, 'workers/main.ts', envFor(config, env), built);
}

/** `api/main.ts` as its own process on a free port (`built`: compiled, from dist/); resolves once it answers /healthz. */
export async function spawnApi(
  t: Test,
  config: Config,
  env: Record<string, string> = {},
  built = false,
): Promise<Child & { url: string; call(method: string, path: string, opts?: CallOptions): Promise<Reply> }> {
  const port = await freePort();
  const proc = startChild(t, 'api/main.ts', envFor(config, { PORT: String(port), HOST: '127.0.0.1', ...env }), built);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(
    async () => {
      if (proc.child.exitCode !== null) throw new Error(`api exited with ${proc.child.exitCode}: ${proc.log()}`);
      return fetch(`${url}/healthz`).then(
        (r) => r.ok,
        () => false,
      );
    },
    60_000,
    'the API process answering /healthz',
    100,
  );
  return { ...proc, url, call: (method, path, opts) => call(url, method, path, opts) };
}
