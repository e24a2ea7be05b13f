import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { mineSynonyms } from './mine-synonyms.stage.js';
import { scheduleMining } from './schedule-mining.stage.js';

export const MINING_SCHEDULER_ID = 'mining-daily';

/** Synonyms: mine the search log for suggestions, and the daily fan-out over active tenants. */
export const stages = [mineSynonyms, scheduleMining];

/** `schedule-mining` once a day (MINING_CRON, default 03:00, in MINING_TZ). */
export const schedules = (config: Config): Schedule[] => [
  {
    id: MINING_SCHEDULER_ID,
    job: scheduleMining,
    repeat: { pattern: config.mining.cron, tz: config.mining.tz },
    data: { activeHours: 24 },
    backoffMs: 5000,
    keep: { completed: 7 * 24 * 3600, failed: 30 * 24 * 3600 },
  },
];
