import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { maintainTables } from './maintain-tables.stage.js';
import { sweepBuilds } from './sweep-builds.stage.js';
import { purgeExpired } from './purge-expired.stage.js';

export const MAINTAIN_SCHEDULER_ID = 'maintain-tables';
export const SWEEP_BUILDS_SCHEDULER_ID = 'sweep-builds';
export const PURGE_SCHEDULER_ID = 'purge-expired';

/** Maintenance: autovacuum's work where the server's autovacuum is off; index generations abandoned mid-build; data retention. */
export const stages = [maintainTables, sweepBuilds, purgeExpired];

/** `maintain-tables` and `sweep-builds` on the sweep's period (SWEEP_EVERY_MS); `purge-expired` every PURGE_EVERY_MS. */
export const schedules = (config: Config): Schedule[] => [
  { id: MAINTAIN_SCHEDULER_ID, job: maintainTables, repeat: { every: config.sweepEveryMs }, data: {} },
  { id: SWEEP_BUILDS_SCHEDULER_ID, job: sweepBuilds, repeat: { every: config.sweepEveryMs }, data: {} },
  { id: PURGE_SCHEDULER_ID, job: purgeExpired, repeat: { every: config.retention.everyMs }, data: {} },
];
