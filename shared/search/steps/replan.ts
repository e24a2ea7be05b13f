import type { SearchState, StepEnv } from './state.js';
import { synonyms } from './synonyms.step.js';
import { plan } from './plan.step.js';
import { merchandiseQuery } from './merchandise-query.step.js';
import { retrieveOnce } from './retrieve.step.js';

/** Runs the query part of the path again after a step changed the text or filters: synonyms, plan, the rules' query part, retrieve. */
export async function replan(s: SearchState, env: StepEnv): Promise<void> {
  synonyms.run(s, env);
  plan.run(s, env);
  merchandiseQuery.run(s, env);
  await retrieveOnce(s, env);
}

/**
 * The fields replan changes, to put back when a retry is not kept. The pin lookup too: the retry's
 * one ran under the retry's filters (without the parsed brand, say), not the ones put back.
 */
export function saveQueryState(s: SearchState) {
  const { text, filters, tokens, droppedWords, segments, plan: p, categoryWord, query, pinLookup, result, relaxed } = s;
  return () => Object.assign(s, { text, filters, tokens, droppedWords, segments, plan: p, categoryWord, query, pinLookup, result, relaxed });
}
