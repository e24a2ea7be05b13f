import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer, type AddressInfo } from 'node:net';
import { Redis } from 'ioredis';
import { waitFor } from './wait.js';

/** A redis-server of a test's own, on its own port, with no persistence: a stop loses everything. */
export interface PrivateRedis {
  port: number;
  url: string;
  /** SHUTDOWN NOSAVE, as an operator's restart of a Redis without persistence: comes back empty. */
  stop(): Promise<void>;
  /** Starts it again on the same port (after stop). */
  start(): Promise<void>;
  /** stop() then start(). */
  restart(): Promise<void>;
  running(): boolean;
  /** Stops it for good (test teardown). */
  close(): Promise<void>;
}

/** A TCP port nobody listens on right now. */
export async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Starts `redis-server --port <free> --save '' --appendonly no` and waits until it answers PING. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let child: ChildProcess | undefined;
  const ping = async () => {
    const probe = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, enableOfflineQueue: false });
    try {
      await probe.connect();
      return (await probe.ping()) === 'PONG';
    } catch {
      return false;
    } finally {
      probe.disconnect();
    }
  };
  const start = async () => {
    if (child) throw new Error('redis-server is already running');
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--loglevel', 'warning'], {
      stdio: 'ignore',
    });
    child = proc;
    proc.once('exit', () => {
      if (child === proc) child = undefined;
    });
    await waitFor(async () => proc.exitCode !== null || (await ping()), 10_000, `redis-server on ${port}`);
    if (proc.exitCode !== null) throw new Error(`redis-server on ${port} exited with ${proc.exitCode}`);
  };
  const stop = async () => {
    const proc = child;
    if (!proc) return;
    const exited = once(proc, 'exit');
    const admin = new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null });
    // SHUTDOWN closes the connection instead of answering.
    await admin.call('SHUTDOWN', 'NOSAVE').catch(() => undefined);
    admin.disconnect();
    const killer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(killer);
  };
  await start();
  return {
    port,
    url,
    start,
    stop,
    async restart() {
      await stop();
      await start();
    },
    running: () => child !== undefined,
    close: stop,
  };
}
