import type { EngineQuery, EngineResult, FilterValue, LexicalEngine, ProductCard } from '../../engines/lexical/port.js';
import type { Ranking } from '../ranking-config.js';
import type { ParsedRules } from '../rule-parser.js';
import type { Segment } from '../synonym-matcher.js';
import type { QueryPlan } from '../query-plan.js';
import type { TenantSearchContext } from '../tenant-context.js';
import type { Vocabulary } from '../vocabulary.js';
import type { FacetOut } from '../facets.js';
import type { MerchPlan } from '../../merchandising/index.js';
import type { Assignment, MerchSnapshot } from '../merch-state.js';
import type { Rewriter, RewriteOutcome } from '../rewrite/rewriter.js';
import type { QueryVectors } from '../../vectors/index.js';
import type { ClickBoosts } from '../../recommend/index.js';

export interface SearchInput {
  q: string;
  lang: string;
  page: number;
  perPage: number;
  filters: Record<string, FilterValue>;
  sort: EngineQuery['sort'] | null;
  facets: string[] | null;
  session: string | null;
  debug: boolean;
  override: Record<string, unknown> | null;
  /** false: no search-log row (Algolia's `analytics: false`, e.g. InstantSearch's facet-count queries). Default true. */
  log?: boolean;
  /** AI query rewriting: auto (only when it helps; the default), on, off. */
  ai?: 'auto' | 'on' | 'off';
  /** Facet counts under every filter, each facet's own too (the Algolia protocol's semantics; EngineQuery.facetsFollowFilters). Default: disjunctive. */
  facetsFollowFilters?: boolean;
}

export interface SearchHitOut {
  id: string;
  score: number | null;
  product: ProductCard;
  highlights: Record<string, string>;
  pinned: boolean;
}

/**
 * One search as it moves through the steps: each step reads what earlier ones set and adds its
 * own part. Fields are set in step order (see steps/index.ts); a step never reads a later one's.
 */
export interface SearchState {
  tenantId: string;
  input: SearchInput;
  ctx: TenantSearchContext;
  vocab: Vocabulary;
  ranking: Ranking;
  facetNames: string[];
  /** The tenant's compiled merchandising rules and running experiment, and this search's variant (set before the steps). */
  merch: MerchSnapshot;
  assignment: Assignment | null;
  /** understand */
  lang: string;
  normalized: string;
  /** rules: what the rule parser found (null when it is off), and the text left for matching. */
  rules: ParsedRules | null;
  filters: Record<string, FilterValue>;
  sort: NonNullable<EngineQuery['sort']>;
  text: string;
  /** rewrite (AI): what was decided and, when applied, the model's rewrite. */
  ai: RewriteOutcome;
  /** merchandise-rules: the rules that matched, resolved (null when none matched). */
  merchPlan: MerchPlan | null;
  /** synonyms: the words to match (bounded, see query-bounds.ts) and how many repeated or extra words were left out. */
  tokens: string[];
  droppedWords: number;
  segments: Segment[];
  /** plan */
  plan: QueryPlan;
  /** plan: the query's word that names its categories (EngineQuery.boost.categories), when one does. */
  categoryWord?: string;
  query: EngineQuery;
  /** retrieve, fallback */
  result: EngineResult;
  relaxed: boolean;
  /** Terms the any-word fallback ORed (unset when it did not run). */
  fallbackTerms?: number;
  /** intent-check: parsed intents dropped because they emptied the results. */
  droppedIntents?: Array<{ rule: string; text: string }>;
  /** hybrid: what the vector side did (unset when hybrid search is off). */
  hybrid?: { candidates: number; fused: number; added: number; rescued: boolean; reason?: string };
  /** rerank: the second pass over the first page (unset when it did not run). */
  rerank?: { considered: number; clicked: number; inherited: number; passed: number; promoted: number; moved: number; reason?: string };
  /** merchandise-query: the pinned products under the search's filters, being read beside the main query. */
  pinLookup?: Promise<EngineResult>;
  /** merchandise: pinned products that pass the filters (shown at their positions). */
  pinned?: Set<string>;
  /** respond */
  hits: SearchHitOut[];
  facets: FacetOut[];
  zeroResultHelp: { relaxed: boolean; relaxed_query: string | null; popular_categories: TenantSearchContext['popularCategories'] } | null;
  didYouMean: string | null;
}

/** What steps may use besides the state. */
export interface StepEnv {
  engine: LexicalEngine;
  /** AI query rewriting (its own checks say whether a provider is configured). */
  rewriter: Rewriter;
  /** Query embeddings and nearest products (hybrid search); absent: no vector side. */
  vectors?: QueryVectors;
  /** Click learning's per-query statistics; absent: off. */
  clicks?: ClickBoosts;
}

/**
 * One step of the search path. `run` extends the state; `trace` says what it decided, for the
 * debug trace (only called when debug is on).
 */
export interface SearchStep {
  name: string;
  run(s: SearchState, env: StepEnv): void | Promise<void>;
  trace?(s: SearchState): Record<string, unknown>;
}
