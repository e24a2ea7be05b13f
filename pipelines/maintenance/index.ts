import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { maintainTables } from './maintain-tables.stage.js';

export const MAINTAIN_SCHEDULER_ID = 'maintain-tables';

/** Maintenance: autovacuum's work where the server's autovacuum is off. */
export const stages = [maintainTables];

/** `maintain-tables` on the sweep's period (SWEEP_EVERY_MS). */
export const schedules = (config: Config): Schedule[] => [{ id: MAINTAIN_SCHEDULER_ID, job: maintainTables, repeat: { every: config.sweepEveryMs }, data: {} }];
