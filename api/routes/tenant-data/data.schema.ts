import { z } from 'zod';
import { Job } from '../../http/schemas.js';

export const Accepted = z.object({ accepted: z.literal(true), job: Job });
export const ExportBody = z.strictObject({
  confirm: z.literal(true).describe("true: the archive holds all of the store's data; the link in the job's result downloads it until it expires"),
});
export const CatalogExportBody = z.strictObject({ format: z.literal('jsonl').default('jsonl') });
export const DeleteBody = z.strictObject({
  confirm: z.string().max(64).describe("the store's tenant id, typed again: deletion cannot be undone"),
});
export const DownloadParams = z.object({ export_id: z.string().max(80) });
export const DownloadQuery = z.strictObject({ token: z.string().min(10).max(100) });
