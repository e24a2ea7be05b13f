import type { Stage } from '../shared/platform/queue/define-stage.js';
import { indexProducts } from '../pipelines/catalog/index-products.stage.js';
import { refreshVocabulary } from '../pipelines/search/refresh-vocabulary.stage.js';
import { buildGeneration } from '../pipelines/catalog/build-generation.stage.js';
import { swapGeneration } from '../pipelines/catalog/swap-generation.stage.js';
import { mineSynonyms } from '../pipelines/synonyms/mine-synonyms.stage.js';
import { scheduleMining } from '../pipelines/synonyms/schedule-mining.stage.js';
import { sweepUnindexed } from '../pipelines/catalog/sweep-unindexed.stage.js';
import { maintainTables } from '../pipelines/maintenance/maintain-tables.stage.js';

/** Every pipeline stage the workers run; each queue's worker dispatches on the job name. */
export const STAGES: Stage<any>[] = [indexProducts, refreshVocabulary, sweepUnindexed, maintainTables, buildGeneration, swapGeneration, mineSynonyms, scheduleMining];

/** Groups stages by queue and refuses duplicates, so every job name has exactly one handler. */
export function stagesByQueue(stages: Stage<any>[]): Map<string, Map<string, Stage<any>>> {
  const byQueue = new Map<string, Map<string, Stage<any>>>();
  for (const stage of stages) {
    const names = byQueue.get(stage.queue) ?? new Map<string, Stage<any>>();
    if (names.has(stage.name)) throw new Error(`two stages named ${stage.name} on queue ${stage.queue}`);
    names.set(stage.name, stage);
    byQueue.set(stage.queue, names);
  }
  return byQueue;
}
