import { z } from 'zod';
import { defineStage } from '../define-stage.js';
import { newId } from '../../shared/platform/ids.js';
import { autovacuumOff, vacuumDead } from '../../shared/maintenance/analyze.js';

/**
 * Does autovacuum's work where the server's autovacuum is off: vacuums the catalog and search
 * tables whose dead rows passed autovacuum's default threshold (see vacuumDead). Does nothing
 * where autovacuum runs, unless `force`. Runs on the maintenance schedule (see sweep.ts), never
 * on a catalog or vocabulary worker, since a large table's VACUUM can take a while.
 */
export const maintainTables = defineStage({
  queue: 'maintenance',
  name: 'maintain-tables',
  schema: z.object({ force: z.boolean().default(false), run: z.string().optional() }),
  jobId: (d) => `maintain-tables-${d.run ?? newId('run')}`,
  attempts: 1,
  async run({ data, deps }) {
    if (!data.force && !(await autovacuumOff(deps.db))) return { vacuumed: [], skipped: 'autovacuum is on' };
    const vacuumed = await vacuumDead(deps.db);
    if (vacuumed.length) deps.logger.info('tables vacuumed', { tables: vacuumed });
    return { vacuumed };
  },
});
