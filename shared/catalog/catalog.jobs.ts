import { z } from 'zod';
import { defineJob } from '../platform/queue/define-job.js';

/** Ids one index-products job carries at most (each of `ids` and `deletes`). */
export const INDEX_JOB_MAX_IDS = 5000;

const Ids = z.array(z.string().min(1).max(128)).max(INDEX_JOB_MAX_IDS);

/** Index one stored batch (pipelines/catalog/index-products.stage.ts). Job id: index-<tenant>-<batch>. */
export const indexProductsJob = defineJob({
  queue: 'catalog',
  name: 'index-products',
  schema: z.object({ tenantId: z.string().min(1), batchId: z.string().min(1), ids: Ids, deletes: Ids }),
  jobId: (d) => `index-${d.tenantId}-${d.batchId}`,
});

/** Build a new index generation (pipelines/catalog/build-generation.stage.ts). Job id: reindex-<job row>. */
export const buildGenerationJob = defineJob({
  queue: 'reindex',
  name: 'build-generation',
  schema: z.object({ tenantId: z.string().min(1), jobRowId: z.string().min(1), mode: z.enum(['full', 'settings_only']) }),
  jobId: (d) => `reindex-${d.jobRowId}`,
  attempts: 3,
});

/** Delete what a completed full sync never sent, then its seen set (pipelines/catalog/finish-sync.stage.ts). Job id: finish-sync-<job row>. */
export const finishSyncJob = defineJob({
  queue: 'catalog',
  name: 'finish-sync',
  schema: z.object({ tenantId: z.string().min(1), syncId: z.string().min(1).max(64), jobRowId: z.string().min(1) }),
  jobId: (d) => `finish-sync-${d.jobRowId}`,
});
