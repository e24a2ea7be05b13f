import { exportData } from './export-data.stage.js';
import { exportCatalog } from './export-catalog.stage.js';
import { deleteData } from './delete-data.stage.js';

/** Tenant data: data_export, export (catalog JSON lines) and data_delete. */
export const stages = [exportData, exportCatalog, deleteData];
export const schedules = () => [];
