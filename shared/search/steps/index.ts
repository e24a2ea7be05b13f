import type { SearchStep } from './state.js';
import { experiment } from './experiment.step.js';
import { understand } from './understand.step.js';
import { rules } from './rules.step.js';
import { rewrite } from './rewrite.step.js';
import { merchandiseRules } from './merchandise-rules.step.js';
import { synonyms } from './synonyms.step.js';
import { plan } from './plan.step.js';
import { merchandiseQuery } from './merchandise-query.step.js';
import { retrieve } from './retrieve.step.js';
import { intentCheck } from './intent-check.step.js';
import { fallback } from './fallback.step.js';
import { rewriteRetry } from './rewrite-retry.step.js';
import { merchandise } from './merchandise.step.js';
import { hits } from './hits.step.js';
import { facets } from './facets.step.js';
import { help } from './help.step.js';
import { hybrid } from './hybrid.step.js';
import { rerank } from './rerank.step.js';

/**
 * The search path, in order (DESIGN.md "Search path"). A feature (AI rewrite, hybrid retrieval,
 * rerank, merchandising, experiments) adds a step here; the debug trace lists the steps that ran.
 */
export const SEARCH_STEPS: readonly SearchStep[] = [
  experiment,
  understand,
  rules,
  rewrite,
  merchandiseRules,
  synonyms,
  plan,
  merchandiseQuery,
  retrieve,
  intentCheck,
  fallback,
  hybrid,
  rewriteRetry,
  rerank,
  merchandise,
  hits,
  facets,
  help,
];

export type { SearchState, SearchStep, SearchInput, StepEnv } from './state.js';
