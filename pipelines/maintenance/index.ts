import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { maintainTables } from './maintain-tables.stage.js';
import { sweepBuilds } from './sweep-builds.stage.js';
import { purgeExpired } from './purge-expired.stage.js';
import { sweepAlternatives } from './sweep-alternatives.stage.js';

export const MAINTAIN_SCHEDULER_ID = 'maintain-tables';
export const SWEEP_BUILDS_SCHEDULER_ID = 'sweep-builds';
export const PURGE_SCHEDULER_ID = 'purge-expired';
export const SWEEP_ALTERNATIVES_SCHEDULER_ID = 'sweep-alternatives';

/**
 * Maintenance: autovacuum's work where the server's autovacuum is off; index generations abandoned
 * mid-build; data retention; synonym sets of alternatives no process uses any more (Typesense).
 */
export const stages = [maintainTables, sweepBuilds, purgeExpired, sweepAlternatives];

/**
 * `maintain-tables` and `sweep-builds` on the sweep's period (SWEEP_EVERY_MS); `purge-expired` and
 * `sweep-alternatives` (which lists every synonym set at Typesense: not every few minutes) every PURGE_EVERY_MS.
 */
export const schedules = (config: Config): Schedule[] => [
  { id: MAINTAIN_SCHEDULER_ID, job: maintainTables, repeat: { every: config.sweepEveryMs }, data: {} },
  { id: SWEEP_BUILDS_SCHEDULER_ID, job: sweepBuilds, repeat: { every: config.sweepEveryMs }, data: {} },
  { id: PURGE_SCHEDULER_ID, job: purgeExpired, repeat: { every: config.retention.everyMs }, data: {} },
  { id: SWEEP_ALTERNATIVES_SCHEDULER_ID, job: sweepAlternatives, repeat: { every: config.retention.everyMs }, data: {} },
];
