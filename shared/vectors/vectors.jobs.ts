import { z } from 'zod';
import { defineJob } from '../platform/queue/define-job.js';

const Ids = z.array(z.string().min(1).max(128)).max(5000);

/** Embed one indexed batch into every live vector generation (pipelines/vectors/embed-products.stage.ts). Job id: embed-<tenant>-<batch>. */
export const embedProductsJob = defineJob({
  queue: 'embeddings',
  name: 'embed-products',
  schema: z.object({ tenantId: z.string().min(1), batchId: z.string().min(1), ids: Ids, deletes: Ids }),
  jobId: (d) => `embed-${d.tenantId}-${d.batchId}`,
});

/** Full rebuild, the `embed` job kind: (re)train the embedder, fill a new generation, serve it. Job id: vectors-<job row>. */
export const buildVectorsJob = defineJob({
  queue: 'embeddings',
  name: 'build-vectors',
  schema: z.object({ tenantId: z.string().min(1), jobRowId: z.string().min(1) }),
  jobId: (d) => `vectors-${d.jobRowId}`,
  attempts: 3,
});

/** Recompute co-views, trends and click statistics of one store (pipelines/vectors/learn-events.stage.ts). Job id: learn-<tenant>-<bucket>. */
export const learnEventsJob = defineJob({
  queue: 'embeddings',
  name: 'learn-events',
  schema: z.object({ tenantId: z.string().min(1).nullable(), bucket: z.number().int() }),
  jobId: (d) => `learn-${d.tenantId ?? 'all'}-${d.bucket}`,
});
