import t from 'tap';
import { spawn } from 'node:child_process';
import { once } from 'node:events';

// Graceful stop on SIGTERM/SIGINT. A different second signal does not cut it short (the API
// processes of a cluster get SIGINT from the terminal and SIGTERM from their primary); the same
// signal twice forces the exit.
/** Starts the child, sends SIGINT, then `second` 100 ms later; resolves with how it exited and what it printed. */
async function interrupt(second: NodeJS.Signals) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/shutdown-child.ts'], {
    env: { ...process.env, STOP_MS: '1500' },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  const ready = new Promise<void>((resolve) => child.stdout.on('data', () => out.includes('ready') && resolve()));
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  await ready;
  child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 100));
  child.kill(second);
  const [code, signal] = await exited;
  return { code, signal, output: out };
}

t.test('SIGINT then SIGTERM: the stop finishes and the process exits 0', async (t) => {
  const { code, output } = await interrupt('SIGTERM');
  t.equal(code, 0);
  t.match(output, /stopped/);
});

t.test('SIGINT twice: the process exits at once, before its stop ends', async (t) => {
  const { code, signal, output } = await interrupt('SIGINT');
  t.ok(code !== 0 || signal === 'SIGINT', `forced exit (code ${code}, signal ${signal})`);
  t.notMatch(output, /stopped/);
});
