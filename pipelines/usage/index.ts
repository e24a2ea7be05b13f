import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { rollupUsageStage } from './rollup-usage.stage.js';

/** Usage: Redis counters rolled up into Postgres every USAGE_ROLLUP_EVERY_MS, with the 80/100 % notices. */
export const stages = [rollupUsageStage];

export const schedules = (config: Config): Schedule[] => [
  { id: 'rollup-usage', job: rollupUsageStage, repeat: { every: config.usage.rollupEveryMs }, data: {}, recover: true },
];
