import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { SWEEP_GRACE_MS } from '../../shared/catalog/batch.js';
import { indexProducts } from './index-products.stage.js';
import { sweepUnindexed } from './sweep-unindexed.stage.js';
import { buildGeneration } from './build-generation.stage.js';
import { swapGeneration } from './swap-generation.stage.js';
import { finishSync } from './finish-sync.stage.js';
import { resumeSyncs } from './resume-syncs.stage.js';

export const SWEEP_SCHEDULER_ID = 'sweep-unindexed';
export const RESUME_SYNCS_SCHEDULER_ID = 'resume-syncs';

/** Catalog: index stored batches, sweep up what was left unindexed, rebuild generations, finish large full syncs (and start again those that stopped). */
export const stages = [indexProducts, sweepUnindexed, buildGeneration, swapGeneration, finishSync, resumeSyncs];

/** `sweep-unindexed` and `resume-syncs` every SWEEP_EVERY_MS (default 5 minutes), and at once when Redis comes back. */
export const schedules = (config: Config): Schedule[] => [
  { id: SWEEP_SCHEDULER_ID, job: sweepUnindexed, repeat: { every: config.sweepEveryMs }, data: { graceMs: SWEEP_GRACE_MS, limit: 20_000 }, recover: true },
  { id: RESUME_SYNCS_SCHEDULER_ID, job: resumeSyncs, repeat: { every: config.sweepEveryMs }, data: { graceMs: 60_000 }, recover: true },
];
