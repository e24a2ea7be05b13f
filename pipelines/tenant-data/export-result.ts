import type { Deps } from '../../shared/deps.js';

/** Records the archive with a fresh download token; the jobs row's result carries the link (the token only there, hashed in data_exports). */
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
    download_url: `/v1/data/exports/${row.id}/download?token=${token}`,
    expires_at: new Date(row.expires_at).toISOString(),
    bytes: archive.bytes,
    files: archive.files,
  };
}
