import type { Config } from '../../shared/platform/config.js';
import type { Schedule } from '../../shared/platform/queue/schedule.js';
import { embedProducts } from './embed-products.stage.js';
import { buildVectors } from './build-vectors.stage.js';
import { learnEvents } from './learn-events.stage.js';

export const LEARN_SCHEDULER_ID = 'learn-events';

/** Vectors: embed indexed batches, full rebuilds (`embed` jobs), and learning from events (co-views, trends, clicks). */
export const stages = [embedProducts, buildVectors, learnEvents];

/** `learn-events` for every store with events, every CO_VIEWS_EVERY_MS (default 15 minutes). */
export const schedules = (config: Config): Schedule[] => [
  { id: LEARN_SCHEDULER_ID, job: learnEvents, repeat: { every: config.vectors.recomputeEveryMs }, data: { tenantId: null, bucket: 0 } },
];
