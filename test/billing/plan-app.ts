import type { AddressInfo } from 'node:net';
import type { Harness, CallOptions, Reply } from '../helpers/harness.js';
import { call } from '../helpers/harness.js';
import { startPgProxy } from '../helpers/pg-proxy.js';
import { eventually } from '../helpers/workers.js';
import { createApp } from '../../api/app.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { billingRepos, Entitlements, SearchMeter } from '../../shared/billing/index.js';
import { usageRepo } from '../../shared/usage/index.js';

export const TTL = 30_000;
export const RETRY = 5_000;
export const MAX_STALE = 600_000;

/**
 * The API over the harness's deps with its own Entitlements (and the SearchMeter on it): the
 * plan reads go to the test's Postgres through a proxy the test cuts and restores, on a clock the
 * test moves; the reads are counted, and the next one can be held after it has read its row.
 */
export async function planApp(h: Harness) {
  const deps = h.api.deps;
  const proxy = await startPgProxy(h.config.databaseUrl);
  const planDb = createDb(proxy.url, { min: 0, max: 4 });
  const subscriptions = billingRepos(planDb).subscriptions;
  const usage = usageRepo(planDb);
  const clock = { at: 1_000_000 };
  /** Plan reads started, failed and finished; `held`: the next read waits there once it has its row. */
  const reads = { started: 0, failed: 0, done: 0, read: 0, held: null as Promise<void> | null };
  const warnings: Array<{ msg: string; tenantId: unknown }> = [];
  const entitlements = new Entitlements(
    {
      async subscription(tenantId) {
        reads.started++;
        const held = reads.held;
        reads.held = null;
        try {
          const row = await subscriptions.get(tenantId);
          reads.read++;
          if (held) await held;
          reads.done++;
          return row;
        } catch (err) {
          reads.failed++;
          throw err;
        }
      },
      searchesThisMonth: (tenantId) => usage.monthTotal(tenantId, 'search'),
    },
    deps.notices,
    h.config.billing.defaultPlan,
    { ttlMs: TTL, retryMs: RETRY, maxStaleMs: MAX_STALE, now: () => clock.at },
    { warn: (msg, fields) => warnings.push({ msg, tenantId: fields?.tenant_id }) },
  );
  const server = createApp({ ...deps, entitlements, meter: new SearchMeter(deps.usage, entitlements, true) }).listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    proxy,
    clock,
    reads,
    warnings,
    entitlements,
    call: (method: string, path: string, opts?: CallOptions): Promise<Reply> => call(url, method, path, opts),
    /** Holds the next plan read once it has read its row; returns what lets it go on. */
    holdNext() {
      let open!: () => void;
      reads.held = new Promise<void>((r) => (open = r));
      return () => open();
    },
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await proxy.close();
      await planDb.destroy();
    },
  };
}

/** The `limit=` of a reply's X-Service-Usage header (null without one). */
export const limitOf = (res: Reply) => /limit=([^;]+)/.exec(res.headers.get('x-service-usage') ?? '')?.[1] ?? null;

/** Every search's answer, once all answered; fails after 10 s (a search waiting on a held plan read). */
export async function allAnswer<T>(runs: Array<Promise<T>>): Promise<T[]> {
  const out: T[] = new Array(runs.length);
  let answered = 0;
  runs.forEach((run, i) => void run.then((v) => ((out[i] = v), answered++)));
  await eventually(async () => answered === runs.length, 10_000);
  return out;
}
