import { defineStage } from '../define-stage.js';
import { dataExportJob, writeDataArchive } from '../../shared/tenant-data/index.js';
import { exportResult } from './export-result.js';

/**
 * Writes the store's data archive (every table with a tenant column but credentials and derived
 * index tables, plus Redis usage counters) and records its expiring download link. Re-runnable:
 * the archive file and the data_exports row are keyed by the jobs row. Job id: export-data-<tenant>-<job>.
 */
export const exportData = defineStage({
  ...dataExportJob,
  async run({ data, deps }) {
    const name = `data-${data.jobRowId}`;
    const archive = await writeDataArchive({ db: deps.db, redis: deps.redis, prefix: deps.config.queuePrefix }, deps.config.ops.exportDir, data.tenantId, name);
    return exportResult(deps, data, 'data_export', archive);
  },
});
