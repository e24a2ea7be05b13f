/** RankingConfig of the spec (section 2.7) with every field resolved. */
export interface Ranking {
  ai_rewrite: boolean;
  rule_parser: boolean;
  in_stock_first: boolean;
  business_signals: Record<string, number>;
  typo_tolerance: boolean;
  hybrid_search: boolean;
  cheap_rerank_top_n: number;
  merch_rules: boolean;
  disabled_rule_ids: string[];
  synonym_sets: string[];
  global_synonyms: boolean;
  /** Click learning in the cheap rerank (not in the spec's RankingConfig; a store's saved setting turns it off). */
  click_learning: boolean;
}

export const DEFAULT_RANKING: Ranking = {
  ai_rewrite: false,
  rule_parser: true,
  in_stock_first: true,
  business_signals: {},
  typo_tolerance: true,
  hybrid_search: false,
  cheap_rerank_top_n: 50,
  merch_rules: true,
  disabled_rule_ids: [],
  synonym_sets: ['default'],
  global_synonyms: true,
  click_learning: true,
};

/** Defaults, then the tenant's saved values, then a per-request override; null or missing means "not set". */
export function resolveRanking(...layers: Array<Record<string, unknown> | null | undefined>): Ranking {
  const out: Record<string, unknown> = { ...DEFAULT_RANKING };
  for (const layer of layers) {
    for (const [k, v] of Object.entries(layer ?? {})) if (v !== null && v !== undefined && k in DEFAULT_RANKING) out[k] = v;
  }
  return out as unknown as Ranking;
}
