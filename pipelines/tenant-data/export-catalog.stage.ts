import { defineStage } from '../define-stage.js';
import { catalogExportJob, writeCatalogExport } from '../../shared/tenant-data/index.js';
import { exportResult } from './export-result.js';

/** Writes the catalog as JSON lines (products.jsonl in a tar.gz) with an expiring link. Re-runnable (keyed by the jobs row). Job id: export-catalog-<tenant>-<job>. */
export const exportCatalog = defineStage({
  ...catalogExportJob,
  async run({ data, deps }) {
    const archive = await writeCatalogExport(deps.db, deps.config.ops.exportDir, data.tenantId, `catalog-${data.jobRowId}`);
    return exportResult(deps, data, 'export', archive);
  },
});
