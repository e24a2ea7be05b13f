import type { EngineQuery, FilterValue } from './port.js';
import { normalizeText } from '../../search/normalize.js';
import { stem } from '../../search/stem.js';
import { categoryLevelKey } from '../../catalog/search-doc.js';

/** Field weights for ts_rank, in {D, C, B, A} order: description, stemmed name, categories+attributes, name+brand+codes. */
export const RANK_WEIGHTS = '{0.05,0.3,0.5,1.0}';

const lexeme = (t: string) => `'${t.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;

/** tsquery text: every token (exact or stemmed form) must match, the last one as a prefix if asked. */
export function tsQuery(q: Pick<EngineQuery, 'tokens' | 'prefixLast' | 'matchAny'>): string | null {
  const parts = q.tokens.filter(Boolean).map((t, i) => {
    const forms = new Set([lexeme(t)]);
    const s = stem(t);
    if (s && s !== t) forms.add(lexeme(s));
    if (q.prefixLast && i === q.tokens.length - 1) forms.add(`${lexeme(t)}:*`);
    return `(${[...forms].join(' | ')})`;
  });
  return parts.length ? parts.join(q.matchAny ? ' | ' : ' & ') : null;
}

export interface SqlPart {
  sql: string;
  bindings: unknown[];
}

/** WHERE clauses for the engine's filter names: brand, category, price, in_stock, and facet attributes. */
export function filterSql(filters: Record<string, FilterValue> | undefined, skip?: string): SqlPart {
  const sql: string[] = [];
  const bindings: unknown[] = [];
  for (const [name, value] of Object.entries(filters ?? {})) {
    if (name === skip) continue;
    if (name === 'price' && typeof value === 'object' && !Array.isArray(value)) {
      if (value.gte != null) sql.push('price >= ?') && bindings.push(value.gte);
      if (value.lte != null) sql.push('price <= ?') && bindings.push(value.lte);
    } else if (name === 'in_stock') {
      sql.push('in_stock = ?');
      bindings.push(value === true || value === 'true' || (Array.isArray(value) && value.includes('true')));
    } else if (name === 'brand') {
      sql.push('brand_norm = ANY(?::text[])');
      bindings.push(asList(value).map((v) => normalizeText(v)));
    } else if (name === 'category') {
      sql.push('category_ids && ?::text[]');
      bindings.push(asList(value).flatMap((v) => [v, `lvl:${categoryLevelKey(v.split('>'))}`]));
    } else if (typeof value === 'object' && !Array.isArray(value)) {
      if (value.gte != null) sql.push(`(facets->>?)::numeric >= ?`) && bindings.push(name, value.gte);
      if (value.lte != null) sql.push(`(facets->>?)::numeric <= ?`) && bindings.push(name, value.lte);
    } else if (typeof value === 'boolean') {
      sql.push(`facets->? = to_jsonb(?::boolean)`);
      bindings.push(name, value);
    } else {
      sql.push(`jsonb_exists_any(facets->?, ?::text[])`);
      bindings.push(name, asList(value));
    }
  }
  return { sql: sql.length ? ` AND ${sql.join(' AND ')}` : '', bindings };
}

function asList(value: FilterValue): string[] {
  if (Array.isArray(value)) return value.map(String);
  return [String(value)];
}

export const ORDER_BY: Record<NonNullable<EngineQuery['sort']>, string> = {
  relevance: 'score DESC, popularity DESC, product_id',
  price_asc: 'price ASC, product_id',
  price_desc: 'price DESC, product_id',
  newest: 'created_at DESC, product_id',
  popular: 'popularity DESC, score DESC, product_id',
};

/** tsvector of a document row built from its parts: weights as in RANK_WEIGHTS. */
export const TSV_SQL = `
  setweight(to_tsvector('simple', v.name_norm), 'A') ||
  setweight(to_tsvector('simple', coalesce(v.brand_norm, '') || ' ' || array_to_string(v.codes, ' ')), 'A') ||
  setweight(to_tsvector('simple', v.category_text || ' ' || v.attribute_text), 'B') ||
  setweight(to_tsvector('simple', v.name_stem), 'C') ||
  setweight(to_tsvector('simple', v.description_norm), 'D')`;
