import { createConnection, createServer, type Socket } from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';

/**
 * A TCP proxy in front of a test's Postgres database: a process pointed at `url` loses Postgres
 * when the test cuts the proxy (every connection reset, new ones closed at once) and finds it
 * again when the test restores it. The shared Postgres itself is never touched.
 */
export interface PgProxy {
  /** `databaseUrl` with the proxy's host and port. */
  url: string;
  /**
   * Cuts the proxy right after the first statement whose text contains `marker` is committed:
   * once Postgres answers ReadyForQuery with the connection idle (outside a transaction) after it.
   * Resolves when it has cut.
   */
  cutAfterCommitOf(marker: string): Promise<void>;
  cut(): void;
  restore(): void;
  isDown(): boolean;
  close(): Promise<void>;
}

export async function startPgProxy(databaseUrl: string): Promise<PgProxy> {
  const target = new URL(databaseUrl);
  const sockets = new Set<Socket>();
  let down = false;
  let armed: { marker: Buffer; done(): void } | null = null;
  const cut = () => {
    down = true;
    for (const s of sockets) s.destroy();
    sockets.clear();
  };
  const server = createServer((client) => {
    if (down) return void client.destroy();
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let marked = false;
    let pending = Buffer.alloc(0);
    client.on('data', (chunk) => {
      if (armed && !marked && chunk.includes(armed.marker)) marked = true;
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      client.write(chunk);
      if (!marked || !armed) return;
      // Server messages: a type byte and a 4-byte length; ReadyForQuery ('Z') ends with the transaction status.
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 5 && pending.length >= 1 + pending.readUInt32BE(1)) {
        const size = 1 + pending.readUInt32BE(1);
        const idle = pending[0] === 0x5a && pending[5] === 0x49;
        pending = pending.subarray(size);
        if (idle) {
          const done = armed.done;
          armed = null;
          // After this answer has left for the client: the commit is acknowledged, then Postgres is gone.
          client.write('', () => {
            cut();
            done();
          });
          return;
        }
      }
    });
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as AddressInfo).port);
  return {
    url: url.toString(),
    cutAfterCommitOf(marker) {
      return new Promise<void>((resolve) => (armed = { marker: Buffer.from(marker), done: resolve }));
    },
    cut,
    restore: () => {
      down = false;
    },
    isDown: () => down,
    async close() {
      cut();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
