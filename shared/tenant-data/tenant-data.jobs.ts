import { z } from 'zod';
import { defineJob } from '../platform/queue/define-job.js';

const Data = z.object({ tenantId: z.string().min(1), jobRowId: z.string().min(1), requestedBy: z.string().max(200).optional() });

/** data_export: the store's data as a tar.gz of JSON lines with an expiring download link. */
export const dataExportJob = defineJob({
  queue: 'tenant-data',
  name: 'export-data',
  schema: Data,
  jobId: (d) => `export-data-${d.tenantId}-${d.jobRowId}`,
  attempts: 3,
});
/** export: the catalog as JSON lines (products.jsonl in a tar.gz) with an expiring download link. */
export const catalogExportJob = defineJob({
  queue: 'tenant-data',
  name: 'export-catalog',
  schema: Data,
  jobId: (d) => `export-catalog-${d.tenantId}-${d.jobRowId}`,
  attempts: 3,
});
/** data_delete: everything of the store, everywhere; leaves an audit record. */
export const dataDeleteJob = defineJob({
  queue: 'tenant-data',
  name: 'delete-data',
  schema: Data,
  jobId: (d) => `delete-data-${d.tenantId}-${d.jobRowId}`,
  attempts: 5,
});
