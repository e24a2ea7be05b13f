import type { Config } from '../shared/platform/config.js';
import type { Stage } from '../shared/platform/queue/define-stage.js';
import type { Schedule } from '../shared/platform/queue/schedule.js';
import { AREAS } from '../areas.js';

/** Every pipeline stage the workers run (from the areas list); each queue's worker dispatches on the job name. */
export const STAGES: Stage<any>[] = AREAS.flatMap((a) => a.pipeline?.stages ?? []);

/** Every area's schedules. */
export const schedules = (config: Config): Schedule[] => AREAS.flatMap((a) => a.pipeline?.schedules(config) ?? []);

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
