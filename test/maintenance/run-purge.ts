import type { Job } from 'bullmq';
import type { Harness } from '../helpers/harness.js';
import { waitFor } from '../helpers/wait.js';
import { purgeExpired } from '../../pipelines/maintenance/purge-expired.stage.js';

/** Queues one purge-expired run (batches of 2, so every table takes several) and waits for the harness's worker to finish it. */
export async function runPurge(h: Harness, run: string): Promise<Job> {
  const jobId = await h.api.deps.queues.enqueue(purgeExpired, { batch: 2, run });
  return waitFor(
    async () => {
      const job = await h.api.deps.queues.get('maintenance').getJob(jobId);
      if (job?.failedReason) throw new Error(job.failedReason);
      return job?.finishedOn ? job : null;
    },
    60_000,
    'purge-expired finished',
  );
}
