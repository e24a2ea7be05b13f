import type { Knex } from 'knex';
import { exportsRepo } from './exports.repo.js';

/** Tenant data: export archives (data_export, export) and deleting a store (data_delete). */
export function tenantDataRepos(db: Knex) {
  return { dataExports: exportsRepo(db) };
}

export { writeDataArchive, writeCatalogExport, EXPORT_EXCLUDED } from './export-archive.js';
export { deleteTenant } from './delete-tenant.js';
export { tenantTables } from './tenant-tables.js';
export { dataExportJob, catalogExportJob, dataDeleteJob } from './tenant-data.jobs.js';
export type { ExportRow } from './exports.repo.js';
export { purgeExportFiles, EXPORT_FILE_GRACE_HOURS, STRAY_EXPORT_HOURS } from './export-files.js';
