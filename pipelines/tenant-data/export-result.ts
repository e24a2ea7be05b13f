import type { Deps } from '../../shared/deps.js';
import { Sealer } from '../../shared/platform/sealed.js';

/**
 * Records the archive with a fresh download token (its hash in data_exports). The jobs row's result
 * carries the link sealed (SECRET_ENCRYPTION_KEY): the token is never stored readable, not in the
 * jobs table nor in the queue's copy of the result; GET /v1/jobs opens it for the store, and the
 * job.succeeded webhook leaves it out (the receiver reads the job).
 */
export async function exportResult(
  deps: Deps,
  data: { tenantId: string; jobRowId: string },
  kind: string,
  archive: { file: string; bytes: number; files: Record<string, number> },
) {
  const { row, token } = await deps.repos.dataExports.create({
    id: `exp_${data.jobRowId}`,
    tenantId: data.tenantId,
    jobId: data.jobRowId,
    kind,
    file: archive.file,
    bytes: archive.bytes,
    ttlHours: deps.config.ops.exportLinkTtlHours,
  });
  return {
    export_id: row.id,
    download_url: new Sealer(deps.config.secretEncryptionKey).seal(`/v1/data/exports/${row.id}/download?token=${token}`),
    expires_at: new Date(row.expires_at).toISOString(),
    bytes: archive.bytes,
    files: archive.files,
  };
}
