import type { NotificationKind } from './kinds.js';
import { withoutSealedFields } from '../platform/sealed.js';

interface FinishedJob {
  id: string;
  tenant_id: string;
  kind: string;
  status: string;
  result: Record<string, unknown> | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

const CATALOG_SYNC = ['reindex', 'import', 'sync'];

/**
 * What a job's end tells the store: job.succeeded or job.failed always; a catalog reindex, import
 * or sync that succeeded is also catalog.sync_completed; a translation backfill that left items
 * for review is also translation.review_waiting.
 */
export async function notifyJobFinished(
  notify: (tenantId: string, kind: NotificationKind, payload: Record<string, unknown>) => Promise<unknown>,
  job: FinishedJob,
): Promise<void> {
  // Sealed fields (an export's download link) stay out: the payload is stored with each delivery; the receiver reads the job.
  const result = withoutSealedFields(job.result);
  const data = { job_id: job.id, job_kind: job.kind, status: job.status, result, error: job.error, finished_at: job.finished_at };
  if (job.status === 'succeeded') await notify(job.tenant_id, 'job.succeeded', data);
  if (job.status === 'failed') await notify(job.tenant_id, 'job.failed', data);
  if (job.status !== 'succeeded') return;
  if (CATALOG_SYNC.includes(job.kind)) await notify(job.tenant_id, 'catalog.sync_completed', { job_id: job.id, job_kind: job.kind, result });
  const review = Number(
    (job.result as { review?: unknown; needs_review?: unknown } | null)?.review ?? (job.result as { needs_review?: unknown } | null)?.needs_review ?? 0,
  );
  if (job.kind === 'translate_backfill' && review > 0) {
    await notify(job.tenant_id, 'translation.review_waiting', { job_id: job.id, items_waiting: review });
  }
}
