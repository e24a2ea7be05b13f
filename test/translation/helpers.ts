import type { Harness } from '../helpers/harness.js';
import { waitFor } from '../helpers/wait.js';

/** A tenant's API calls with its key. */
export function caller(h: Harness, key: string) {
  return (method: string, path: string, body?: unknown, headers?: Record<string, string>) => h.api.call(method, path, { key, body, headers });
}

/** Polls a job until it is terminal and returns it. */
export async function jobDone(call: ReturnType<typeof caller>, id: string, timeoutMs = 30_000) {
  return waitFor(
    async () => {
      const j = (await call('GET', `/v1/jobs/${id}`)).body;
      return ['succeeded', 'failed', 'canceled'].includes(j.status) && j;
    },
    timeoutMs,
    `job ${id} finished`,
  );
}

/** Items of a tenant by product and field (all statuses), straight from the review list. */
export async function itemsByStatus(call: ReturnType<typeof caller>, status: string) {
  const res = await call('GET', `/v1/translate/review?status=${status}&limit=200`);
  return res.body.data as Array<Record<string, any>>;
}

/** Runs a backfill to its end and returns the 202 body and the finished job. */
export async function backfill(call: ReturnType<typeof caller>, body: Record<string, unknown>) {
  const res = await call('POST', '/v1/translate/backfill', body);
  if (res.status !== 202) throw new Error(`backfill: ${res.status} ${JSON.stringify(res.body)}`);
  const job = res.body.job ? await jobDone(call, res.body.job.id) : null;
  return { estimate: res.body, job };
}
