import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { SWEEP_GRACE_MS } from '../../shared/catalog/batch.js';
import { indexProducts } from './index-products.stage.js';
import { sweepUnindexed } from './sweep-unindexed.stage.js';
import { buildGeneration } from './build-generation.stage.js';
import { swapGeneration } from './swap-generation.stage.js';
import { finishSync } from './finish-sync.stage.js';

export const SWEEP_SCHEDULER_ID = 'sweep-unindexed';

/** Catalog: index stored batches, sweep up what was left unindexed, rebuild generations, finish large full syncs. */
export const stages = [indexProducts, sweepUnindexed, buildGeneration, swapGeneration, finishSync];

/** `sweep-unindexed` every SWEEP_EVERY_MS (default 5 minutes), and at once when Redis comes back. */
export const schedules = (config: Config): Schedule[] => [
  { id: SWEEP_SCHEDULER_ID, job: sweepUnindexed, repeat: { every: config.sweepEveryMs }, data: { graceMs: SWEEP_GRACE_MS, limit: 20_000 }, recover: true },
];
