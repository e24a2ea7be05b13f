import type { Deps } from '../shared/deps.js';
import { defineStage as define, type Stage, type StageDefinition } from '../shared/platform/queue/define-stage.js';

/** Declares a stage whose `run` gets the workers' Deps. */
export function defineStage<T>(def: StageDefinition<T, Deps>): Stage<T, Deps> {
  return define(def);
}
