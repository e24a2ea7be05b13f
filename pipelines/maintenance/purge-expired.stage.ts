import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { autovacuumOff, purgeExpired as purge, retentionRules, vacuumDead } from '../../shared/maintenance/index.js';
import { UNCOUNTED_KEPT_DAYS } from '../../shared/translation/index.js';
import { purgeExportFiles } from '../../shared/tenant-data/index.js';

/**
 * Deletes what is past its retention (README, Data retention; shared/maintenance/retention.ts): first
 * counts the cost of translation answers a failed job left uncounted (each once, then deleted with
 * the others), removes expired and stray export archives from EXPORT_DIR, then deletes the rows in
 * batches of `batch`, each one short statement, reporting progress per table; where the server's
 * autovacuum is off, vacuums the tables it deleted from. Idempotent: a second run finds nothing.
 * Runs on its own schedule (PURGE_EVERY_MS). Job id: purge-expired-<run>.
 */
export const purgeExpired = defineStage({
  queue: 'maintenance',
  name: 'purge-expired',
  schema: z.object({ batch: z.number().int().min(1).max(50_000).default(5000), run: z.string().optional() }),
  jobId: (d) => `purge-expired-${d.run ?? newId('run')}`,
  attempts: 2,
  async run({ data, deps, progress, signal }) {
    const costsCounted = await deps.repos.translationAnswers.recordLeftCosts(UNCOUNTED_KEPT_DAYS, data.batch, signal);
    if (costsCounted) deps.logger.info('translation costs a failed job left uncounted added to usage', { answers: costsCounted });
    const files = await purgeExportFiles(deps.db, deps.config.ops.exportDir, signal);
    if (files.expired || files.stray) deps.logger.info('export files removed', files);
    const deleted = await purge(deps.db, retentionRules(deps.config), deps.repos.idempotency, { batch: data.batch, progress, signal });
    const tables = Object.keys(deleted).filter((table) => deleted[table] > 0);
    if (tables.length) deps.logger.info('rows past retention deleted', { deleted });
    const vacuumed = tables.length && (await autovacuumOff(deps.db)) ? await vacuumDead(deps.db, tables) : [];
    return { deleted, costs_counted: costsCounted, export_files: files, vacuumed };
  },
});
