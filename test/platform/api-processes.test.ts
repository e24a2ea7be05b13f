import t, { type Test } from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { get } from 'node:http';
import { createServer, type AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { setup } from '../helpers/harness.js';
import { eventually } from '../helpers/workers.js';

// API_PROCESSES=2: one primary and two API processes sharing the port; a process that dies is
// replaced, and SIGTERM stops them all.
const h = await setup();
t.teardown(() => h.close());

/** Pids of the cluster's API processes: node:cluster gives each NODE_UNIQUE_ID in its environment. */
function workersOn(port: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let env: string[];
    try {
      env = readFileSync(`/proc/${entry}/environ`, 'utf8').split('\0');
    } catch {
      continue;
    }
    if (env.includes(`PORT=${port}`) && env.some((v) => v.startsWith('NODE_UNIQUE_ID='))) pids.push(Number(entry));
  }
  return pids.sort((a, b) => a - b);
}
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Starts a primary with 2 API processes; `listening()` counts the "api listening" lines they logged. */
function startPrimary(t: Test, port: number) {
  const primary = spawn(process.execPath, ['--import', 'tsx', 'api/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      DATABASE_URL: h.config.databaseUrl,
      QUEUE_PREFIX: h.config.queuePrefix,
      PORT: String(port),
      HOST: '127.0.0.1',
      API_PROCESSES: '2',
      MIGRATE_ON_START: 'false',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  primary.stderr!.on('data', (d) => (log += d));
  t.teardown(() => void primary.kill('SIGKILL'));
  return {
    primary,
    exited: new Promise<number | null>((resolve) => primary.once('exit', (code) => resolve(code))),
    listening: () => log.split('"msg":"api listening"').length - 1,
  };
}

t.test('API processes share the port, a dead one is replaced, SIGTERM stops them all', async (t) => {
  const port = 20_000 + Math.floor(Math.random() * 20_000);
  const { primary, exited, listening } = startPrimary(t, port);
  // A new connection each time: a kept-alive one to a killed process would fail as a client's would.
  const healthy = () =>
    new Promise<boolean>((resolve) => {
      get({ host: '127.0.0.1', port, path: '/healthz', agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode === 200);
      }).on('error', () => resolve(false));
    });
  // Both listening: while only one is, killing it leaves none to take connections.
  await eventually(async () => listening() === 2, 30_000);
  t.ok(await healthy());
  const [first, second] = workersOn(port);

  process.kill(first, 'SIGKILL');
  await eventually(async () => {
    const now = workersOn(port);
    return now.length === 2 && !now.includes(first);
  }, 30_000);
  t.ok(workersOn(port).includes(second), 'the other process kept running');
  t.ok(await healthy(), 'still answering');
  const replacement = workersOn(port).find((pid) => pid !== second)!;
  await eventually(async () => listening() === 3, 30_000);
  t.ok(await healthy(), 'the replacement listens too');

  primary.kill('SIGTERM');
  t.equal(await exited, 0, 'the primary exits cleanly');
  await eventually(async () => !alive(second) && !alive(replacement), 10_000);
  t.pass('both API processes stopped');
});

t.test('when no API process can start (the port is taken), the primary stops with an error', async (t) => {
  const taken = createServer().listen(0, '127.0.0.1');
  await once(taken, 'listening');
  t.teardown(() => void taken.close());
  const { exited } = startPrimary(t, (taken.address() as AddressInfo).port);
  t.equal(await exited, 1);
});
