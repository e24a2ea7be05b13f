import { defineStage } from '../define-stage.js';
import { dataDeleteJob, deleteTenant } from '../../shared/tenant-data/index.js';
import { NOTICE_KINDS } from '../../shared/platform/notices.js';

/**
 * Deletes the store everywhere (credentials, lexical engine and vector store data, queued jobs, Redis keys, export files,
 * every row in every table with a tenant column, the tenants row) and writes the audit record in
 * tenant_deletions. Its own jobs row goes with the store: the audit record is what remains.
 * Re-runnable: every step finds nothing left the second time. Job id: delete-data-<tenant>-<job>.
 */
export const deleteData = defineStage({
  ...dataDeleteJob,
  async run({ data, deps }) {
    return deleteTenant(
      {
        db: deps.db,
        redis: deps.redis,
        prefix: deps.config.queuePrefix,
        exportDir: deps.config.ops.exportDir,
        queue: (name) => deps.queues.get(name),
        dropEngineData: async (t) => {
          await deps.engine.dropTenant(t);
          await deps.vectors.dropTenant(t);
        },
        invalidateCredential: (hash) => deps.auth.invalidate(hash),
        announce: async (t) => {
          for (const kind of NOTICE_KINDS) await deps.notices.publish(kind, t);
        },
      },
      data.tenantId,
      { jobId: data.jobRowId, requestedBy: data.requestedBy ?? 'unknown' },
    );
  },
});
