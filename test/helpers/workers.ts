import t from 'tap';
import { setup, type Harness } from './harness.js';
import { startWorkers, type Workers } from '../../workers/start.js';
import { STAGES } from '../../workers/registry.js';
import { createDeps, type Deps } from '../../shared/deps.js';
import type { Config } from '../../shared/platform/config.js';

/** Real BullMQ workers for every registered stage, on their own deps like a worker process. */
export async function startTestWorkers(config: Config): Promise<{ deps: Deps; workers: Workers; close(): Promise<void> }> {
  const deps = createDeps(config);
  const workers = startWorkers(deps, STAGES);
  await Promise.all(workers.workers.map((w) => w.waitUntilReady()));
  return {
    deps,
    workers,
    async close() {
      await workers.close();
      await deps.close();
    },
  };
}

/** Polls `fn` until it returns a truthy value or the deadline passes. */
export async function eventually<T>(fn: () => Promise<T>, timeoutMs = 10_000, everyMs = 50): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A harness (API and database) with real workers beside it, both closed when the test file ends. */
export async function setupWithWorkers(env: Record<string, string> = {}): Promise<{ h: Harness; workers: Awaited<ReturnType<typeof startTestWorkers>> }> {
  const h = await setup(env);
  const workers = await startTestWorkers(h.config);
  t.teardown(async () => {
    await workers.close();
    await h.close();
  });
  return { h, workers };
}

/**
 * Resolves once the API process `deps` has received every notice published before the call: a
 * worker's notice reaches the API over Redis, and Redis delivers one subscriber's messages in the
 * order they were published, so a marker published now arrives after them.
 */
export async function noticesDelivered(deps: Deps): Promise<void> {
  const marker = `notices-delivered-${process.hrtime.bigint()}`;
  const seen = new Promise<void>((resolve) => deps.notices.on('signals', (id) => id === marker && resolve()));
  await deps.redis.publish(deps.notices.channel('signals'), marker);
  await seen;
}
