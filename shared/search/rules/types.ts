// Types of the query rule parser (see ../rule-parser.ts).

export interface RuleContext {
  /** Normalized brand names of the tenant (may be multi-word, e.g. 'tp link', 'western digital'), mapped to the brand's display value used in filters. */
  brands: Map<string, string>;
  /** Normalized colour words (English and Arabic) mapped to the tenant's canonical colour value; empty when the tenant has no mapped colour attribute. */
  colors: Map<string, string>;
  /** Canonical name of the colour facet attribute (filter key), or null. */
  colorFacet: string | null;
  /** Products of each brand (by normalized name): with the store's word counts, whether a one-word brand is mostly some other word. */
  brandProducts?: Map<string, number>;
}

export type RuleSort = 'price_asc' | 'price_desc' | 'newest' | 'popular';

export interface ParsedRules {
  filters: { price?: { gte?: number; lte?: number }; brand?: string[]; [facet: string]: unknown };
  sort: RuleSort | null;
  /** The normalized text left after removing what was understood (single spaces, trimmed). */
  rest: string;
  /** What fired, for the debug trace: e.g. [{ rule: 'price_max', text: 'under 100' }]. */
  fired: Array<{ rule: string; text: string }>;
}
