import { facetValues } from './postgres.facet-sql.js';
import { categoryLevelKey, numberForms, withNumberForms, type EngineQuery, type FilterValue, type QueryTerm } from './port.js';
import { normalizeText } from '../../text/normalize.js';
import { stem } from '../../text/stem.js';

/** Field weights for ts_rank_cd, in {D, C, B, A} order: description, stemmed name, categories+attributes, name+brand+codes (tuned with npm run eval). */
export const RANK_WEIGHTS = '{0.2,0.2,0.4,1.0}';
/** Every field but the description (weight D). */
export const ABOVE_DESCRIPTION = 'ABC';

const lexeme = (t: string) => `'${t.replace(/'/g, "''").replace(/\\/g, '\\\\')}'`;

/** The query's terms: `terms` when given, else one single-token term per token. */
export function termsOf(q: Pick<EngineQuery, 'tokens' | 'terms'>): QueryTerm[] {
  return q.terms ?? q.tokens.filter(Boolean).map((t) => ({ alternatives: [[t]] }));
}

/**
 * tsquery text: every term must match (any of its alternatives, each token by its exact or
 * stemmed form), the last term also as a prefix when asked; `matchAny` ORs the terms but the
 * common ones (unless all are). `weights` ("ABC") restricts every word to the fields of those weights.
 */
export function tsQuery(q: Pick<EngineQuery, 'tokens' | 'terms' | 'prefixLast' | 'matchAny'>, weights = ''): string | null {
  const terms = termsOf(q);
  const skipCommon = q.matchAny && terms.some((t) => !t.common);
  const w = weights ? `:${weights}` : '';
  const parts = terms
    .map((term, i) => {
      if (skipCommon && term.common) return null;
      const last = q.prefixLast && i === terms.length - 1;
      const alts = term.alternatives
        .filter((a) => a.length)
        .map((tokens) => {
          const forms = tokens.map((t, j) => {
            const set = new Set([lexeme(t) + w]);
            if (!term.exact) {
              const s = stem(t);
              if (s && s !== t) set.add(lexeme(s) + w);
              if (last && j === tokens.length - 1) set.add(`${lexeme(t)}:*${weights}`);
            }
            return set.size > 1 ? `(${[...set].join(' | ')})` : [...set][0];
          });
          if (term.near && forms.length === 2) return `((${forms[0]} <-> ${forms[1]}) | (${forms[0]} <2> ${forms[1]}))`;
          return forms.length > 1 ? `(${forms.join(term.phrase ? ' <-> ' : ' & ')})` : forms[0];
        });
      return alts.length > 1 ? `(${alts.join(' | ')})` : alts[0];
    })
    .filter(Boolean);
  return parts.length ? parts.join(q.matchAny ? ' | ' : ' & ') : null;
}

export interface SqlPart {
  sql: string;
  bindings: unknown[];
}

/** `x` (text) as a number when it is one, else null: a CASE, so the cast never sees other text (no question mark: knex reads it as a binding). */
const NUMERIC_TEXT = `(CASE WHEN x ~ '^\\s*-{0,1}[0-9]+(\\.[0-9]+){0,1}\\s*$' THEN x::numeric END)`;
/** `x` with Arabic-Indic and Persian digits and the Arabic decimal separator as ASCII (asciiDigits): "٥٢" is the number 52. */
const ASCII_DIGITS = `translate(x, '٠١٢٣٤٥٦٧٨٩۰۱۲۳۴۵۶۷۸۹٫', '01234567890123456789.')`;

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
      const bounds = [...(value.gte != null ? [`>= ?`] : []), ...(value.lte != null ? [`<= ?`] : [])];
      if (bounds.length) {
        // The value is a number, or text that is one ("42"; in a list, any of them): a text value ("8GB") never matches, never fails.
        // Each of the product's values as text, as the facet counts read them (facetValues).
        const values = facetValues(name, (c) => c);
        sql.push(
          `EXISTS (SELECT 1 FROM (SELECT ${ASCII_DIGITS} AS x FROM ${values.value} v(x)) v WHERE ${bounds.map((b) => `${NUMERIC_TEXT} ${b}`).join(' AND ')})`,
        );
        bindings.push(...values.bindings.slice(0, 3), ...[value.gte, value.lte].filter((b) => b != null));
      }
    } else if (typeof value === 'boolean') {
      sql.push(`facets->? = to_jsonb(?::boolean)`);
      bindings.push(name, value);
    } else {
      // Text values by the value or, for a number ("9.0"), its plain form ("9", as the Typesense engine's text of a stored
      // number); a stored number by numeric equality (jsonb compares numbers as numbers: 9 = 9.0 = 1e1 / 10 * 9).
      const values = asList(value);
      // Each plain form is also a JSON number for the jsonb comparison.
      const numbers = numberForms(values);
      if (numbers.length) {
        sql.push(`(jsonb_exists_any(facets->?, ?::text[]) OR (jsonb_typeof(facets->?) = 'number' AND facets->? = ANY(?::jsonb[])))`);
        bindings.push(name, withNumberForms(values), name, name, numbers);
      } else {
        sql.push('jsonb_exists_any(facets->?, ?::text[])');
        bindings.push(name, values);
      }
    }
  }
  return { sql: sql.length ? ` AND ${sql.join(' AND ')}` : '', bindings };
}

function asList(value: FilterValue): string[] {
  if (Array.isArray(value)) return value.map(String);
  return [String(value)];
}

/** The id restrictions of a query (`ids`, `exclude`) as WHERE clauses. */
export function idSql(q: Pick<EngineQuery, 'ids' | 'exclude'>): SqlPart {
  const sql: string[] = [];
  const bindings: unknown[] = [];
  if (q.ids) sql.push('product_id = ANY(?::text[])') && bindings.push(q.ids);
  if (q.exclude?.length) sql.push('NOT (product_id = ANY(?::text[]))') && bindings.push(q.exclude);
  return { sql: sql.length ? ` AND ${sql.join(' AND ')}` : '', bindings };
}

/**
 * `lang_hit` of a document: its name in the query's language holds one of the query's words, or its
 * name has only that language (every match of a one-language product is in it). Null without a language or words.
 */
export function langHit(q: Pick<EngineQuery, 'lang' | 'tokens' | 'terms'>): SqlPart | null {
  if (!q.lang) return null;
  const lang = q.lang;
  const words = new Set<string>();
  for (const term of termsOf(q)) {
    for (const alt of term.alternatives) {
      for (const t of alt) {
        words.add(`${lang}:${t}`);
        const s = stem(t);
        if (s) words.add(`${lang}:${s}`);
      }
    }
  }
  if (!words.size) return null;
  return { sql: '(lang_terms && ?::text[] OR lang_terms = ?::text[])', bindings: [[...words], [`${lang}:`]] };
}

/** A match in the query's own language outranks one through another language's text. */
const LANG_BOOST = 2;
/** A product of the type the query names outranks one that only mentions it (an accessory of it, a "for X"). */
const HEAD_BOOST = 2;

/**
 * `head_hit` of a document: its product type (head noun, SearchDoc.heads) is the one the query
 * names. Null when the query names none, and when matching any word (there rarity decides first).
 */
export function headHit(q: Pick<EngineQuery, 'boost' | 'matchAny'>): SqlPart | null {
  const heads = q.boost?.heads ?? [];
  if (!heads.length || q.matchAny) return null;
  return { sql: 'heads && ?::text[]', bindings: [heads] };
}

/**
 * Matching any word, the factor on a document's text rank for its product type: coverage decides
 * first (coverageWeights), and among products covering the query alike those of its type come first.
 */
export function partialHeadFactor(q: Pick<EngineQuery, 'boost' | 'matchAny'>): SqlPart | null {
  const heads = q.boost?.heads ?? [];
  if (!heads.length || !q.matchAny) return null;
  return { sql: `(CASE WHEN heads && ?::text[] THEN ${HEAD_BOOST} ELSE 1 END)`, bindings: [heads] };
}

/**
 * Matching any word, the factor on a document's text rank for being in a category the query names:
 * coverage decides first, as for the product type (the fallback weighs the word that names the
 * category as the type: fallback.step typeFirst). On the whole score it let a product covering
 * only that word pass ones covering the query's rarer words too: "iphone 6 tempered glass" names
 * the drinking glasses' category by "glass", and tumblers passed "Tempered Glass for Honor 6".
 */
export function partialCategoryFactor(q: Pick<EngineQuery, 'boost' | 'matchAny'>): SqlPart | null {
  const categories = q.boost?.categories ?? [];
  if (!categories.length || !q.matchAny) return null;
  return { sql: `(CASE WHEN category_ids && ?::text[] THEN ${CATEGORY_BOOST} ELSE 1 END)`, bindings: [categories] };
}

/** A product whose name opens with a brand word of the query outranks one that only mentions it ("Crocs Cleo Sandals" above "Lite Crocs Rule Cartridge"). Tuned with npm run eval: 1.5 +0.0018, 2 and 3 +0.0028 on CrowdFlower, Chorus unchanged. */
const OPENER_BOOST = 2;

/** The regular expression of names opening with one of `words` (leading punctuation skipped, a whole word). */
export function openerPattern(words: string[]): string {
  const alts = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `^[^[:alnum:]]*(${alts.join('|')})([^[:alnum:]]|$)`;
}

/**
 * `opener_hit` of a document: its name opens with a brand word of the query (EngineQuery.boost.openers).
 * Null when the query has none, and when matching any word (there coverage decides first: partialOpenerFactor).
 */
export function openerHit(q: Pick<EngineQuery, 'boost' | 'matchAny'>): SqlPart | null {
  const words = q.boost?.openers ?? [];
  if (!words.length || q.matchAny) return null;
  return { sql: 'name_norm ~ ?', bindings: [openerPattern(words)] };
}

/**
 * Matching any word, the factor on a document's text rank for a name opening with a brand word of
 * the query: among products covering the query alike, the maker's first ("Otterbox Defender Case
 * for Apple iPhone 6" before an "Apple iPhone 5 ... Otterbox" listing). Null without brand words.
 */
export function partialOpenerFactor(q: Pick<EngineQuery, 'boost' | 'matchAny'>): SqlPart | null {
  const words = q.boost?.openers ?? [];
  if (!words.length || !q.matchAny) return null;
  return { sql: `(CASE WHEN name_norm ~ ? THEN ${OPENER_BOOST} ELSE 1 END)`, bindings: [openerPattern(words)] };
}

/** The share of its coverage a product for the other gender keeps (audienceFactor). */
const AUDIENCE_CONFLICT = 0.5;

/**
 * Matching any word, the factor on a product's coverage for whom it is for (EngineQuery.boost.audience):
 * a name that says the other gender and not the query's ("Nike Womens Running Shoes" for "mens running
 * shoes") keeps AUDIENCE_CONFLICT of it, so a men's shoe that is no running shoe comes first. A name
 * saying both ("Womens Mens Earrings") is for the query's too. Binds the other side's tsquery, then the query's.
 */
export function audienceFactor(q: Pick<EngineQuery, 'boost' | 'matchAny'>): SqlPart | null {
  const a = q.boost?.audience;
  if (!a?.own.length || !a.other.length || !q.matchAny) return null;
  const named = (words: string[]) => [...new Set(words.flatMap((w) => [w, stem(w)]))].map((w) => `${lexeme(w)}:A`).join(' | ');
  return {
    sql: `(CASE WHEN tsv @@ (SELECT to_tsquery('simple', ?)) AND NOT tsv @@ (SELECT to_tsquery('simple', ?)) THEN ${AUDIENCE_CONFLICT} ELSE 1 END)`,
    bindings: [named(a.other), named(a.own)],
  };
}

/** How much a name's length moves its text rank (BM25's b for the name; 0: not at all, 1: in proportion). Tuned with npm run eval: 0.2-0.3 best on both collections, 0.5 flat. */
const NAME_LENGTH_B = 0.3;
/** Words of a document's name (the column `nameWordsOf` fills when it is written: a string replace per matching row cost 0.55 µs). */
export const NAME_WORDS_SQL = 'name_words';
/** Words of the normalized name `name` (SQL): its spaces, plus one. */
export const nameWordsOf = (name: string): string => `(length(${name}) - length(replace(${name}, ' ', '')) + 1)`;

/**
 * The factor on a document's text rank for the length of its name against the store's average
 * (EngineQuery.boost.nameWords), as BM25 normalizes a field's term frequency: a name that is
 * mostly the query's words ("Oster Beehive Blender") is more about them than a long one that also
 * has them ("Blendtec Total Blender with WildSide Jar and Mini-Twister Jar"). `words`: the SQL of
 * the document's name length. Null without the store's average.
 */
export function nameLengthFactor(q: Pick<EngineQuery, 'boost'>, words = 'nw'): SqlPart | null {
  const avg = q.boost?.nameWords;
  if (!avg || avg <= 0) return null;
  return { sql: `(1.0 / (${1 - NAME_LENGTH_B} + ${NAME_LENGTH_B} * ${words} / ?::float8))`, bindings: [avg] };
}

/**
 * Per-word rank shares: half an equal share, half the word's share of the query's rarity, so a
 * rare word counts more without one word's field alone deciding (equal shares without weights).
 */
export function rarityShares<T extends { weight: number }>(terms: T[]): T[] {
  const total = terms.reduce((sum, t) => sum + t.weight, 0);
  const equal = 1 / terms.length;
  return terms.map((t) => ({ ...t, weight: Math.round((total > 0 ? (equal + t.weight / total) / 2 : equal) * 1e4) / 1e4 }));
}

/**
 * Partial-match coverage weights: the rarest word counts COVERAGE_UNIT, others in proportion to
 * their rarity (BM25 idf), so one rare word outweighs a common one and equal words count alike.
 * The unit is above the text rank's range (0..1) so coverage decides first.
 */
export function coverageWeights<T extends { weight: number }>(terms: T[]): T[] {
  const max = Math.max(...terms.map((t) => t.weight));
  return terms.map((t) => ({ ...t, weight: max > 0 ? Math.round(((COVERAGE_UNIT * t.weight) / max) * 1e4) / 1e4 : COVERAGE_UNIT }));
}
const COVERAGE_UNIT = 2;

/**
 * Matching any word, the share of a word's coverage weight that a match in the description alone
 * earns: a product that has the word only in its description ("Pro-Lite Longboard" described as
 * having "pads") covers the query more than one without it, less than one naming it. Tuned with
 * npm run eval (CrowdFlower +0.0024 at 0.15-0.35, Chorus -0.0002; 0.5 hurts "for" queries unless
 * prepositions are left out).
 */
export const DESCRIPTION_COVERAGE = 0.25;

/**
 * One term's coverage in the any-word score, with its bindings in order: weight, its tsquery over
 * the fields above the description and, when `described` (its tsquery over every field), that one
 * too. `query` is the SQL that reads a tsquery binding.
 */
export function coverageSql(described: string | null, query: string): string {
  if (!described) return `?::float8 * (tsv @@ ${query})::int`;
  // The second test only for the rows the first leaves out.
  return `?::float8 * (CASE WHEN tsv @@ ${query} THEN 1 WHEN tsv @@ ${query} THEN ${DESCRIPTION_COVERAGE} ELSE 0 END)`;
}

/** ORDER BY of a query: in-stock first when asked, then the sort; relevance mixes in popularity, margin, the query's language, product type and brand words (`opener`: column `opener_hit`), and (`nameLength`: column `nw`) the name's length. */
export function orderBy(q: Pick<EngineQuery, 'sort' | 'boost' | 'matchAny'>, lang = false, productType = false, nameLength = false, opener = false): SqlPart {
  const head = q.boost?.inStockFirst ? 'in_stock DESC, ' : '';
  switch (q.sort ?? 'relevance') {
    case 'price_asc':
      return { sql: `${head}price ASC, product_id`, bindings: [] };
    case 'price_desc':
      return { sql: `${head}price DESC, product_id`, bindings: [] };
    case 'newest':
      return { sql: `${head}created_at DESC, product_id`, bindings: [] };
    case 'popular':
      return { sql: `${head}popularity DESC, score DESC, product_id`, bindings: [] };
    default: {
      const r = relevance(q, lang, productType, nameLength, opener);
      return { sql: `${head}${r.sql} DESC, popularity DESC, product_id`, bindings: r.bindings };
    }
  }
}

/**
 * A row's relevance (orderBy) as an expression of its text score: `score` is the column, or
 * another expression of the row (the any-word statement's bounds put its coverage there).
 */
export function relevance(
  q: Pick<EngineQuery, 'boost' | 'matchAny'>,
  lang = false,
  productType = false,
  nameLength = false,
  opener = false,
  score = 'score',
): SqlPart {
  const pop = q.boost?.popularity ?? 0;
  const margin = q.boost?.margin ?? 0;
  // Matching any word, the category is a factor on the text rank only (partialCategoryFactor).
  const categories = q.matchAny ? [] : (q.boost?.categories ?? []);
  // With merchandising shifts a tiny floor keeps a factor meaningful where there is no text score (browsing a category).
  const base = q.boost?.shifts?.length ? `(${score} + 1e-6)` : score;
  let sql = lang ? `${base} * (CASE WHEN lang_hit THEN ${LANG_BOOST} ELSE 1 END)` : base;
  if (productType) sql += ` * (CASE WHEN head_hit THEN ${HEAD_BOOST} ELSE 1 END)`;
  if (opener) sql += ` * (CASE WHEN opener_hit THEN ${OPENER_BOOST} ELSE 1 END)`;
  const bindings: unknown[] = [];
  // All words matched: the name's length against the store's (matching any word, it is in the text rank: coverage decides first).
  const length = nameLength ? nameLengthFactor(q) : null;
  if (length) {
    sql += ` * ${length.sql}`;
    bindings.push(...length.bindings);
  }
  if (pop || margin) {
    sql += ` * (1 + ? * ln(1 + popularity) / greatest(ln(1 + (SELECT max(popularity) FROM f)), 1e-9) + ? * least(greatest(coalesce(margin, 0), 0), 1))`;
    bindings.push(pop, margin);
  }
  // Product-type intent: products in the category the query names rank above mere mentions,
  // typical ones first among them (`typ`: see typicality(); null outside those categories).
  if (categories.length) sql += ` * (CASE WHEN typ IS NOT NULL THEN ${CATEGORY_BOOST} * (1 + ${TYPICAL_BOOST} * typ) ELSE 1 END)`;
  // Merchandising boosts and buries: a factor on relevance for the products their filters match.
  for (const shift of q.boost?.shifts ?? []) {
    const cond = filterSql(shift.filters);
    if (!cond.sql) continue;
    sql += ` * (CASE WHEN true${cond.sql} THEN ?::float8 ELSE 1 END)`;
    bindings.push(...cond.bindings, shift.factor);
  }
  return { sql, bindings };
}

const CATEGORY_BOOST = 6;
/** Enough for a typical product to pass one that merely has the query's word in its name. */
const TYPICAL_BOOST = 10;

/** Typicality of a document: the summed weights of the typical words its name (weight A) has; 0 without any (the engine's `typ` column is null outside the query's categories). */
export function typicality(q: Pick<EngineQuery, 'boost'>): SqlPart {
  const words = q.boost?.typical ?? [];
  if (!words.length) return { sql: '0', bindings: [] };
  return {
    sql: `(${words.map(() => `?::float8 * (tsv @@ to_tsquery('simple', ?))::int`).join(' + ')})`,
    bindings: words.flatMap((w) => [w.weight, `${lexeme(w.word)}:A`]),
  };
}

/** tsvector of a document row built from its parts: weights as in RANK_WEIGHTS. The name's text (`name_text`) has its first word once, the brand and codes beside it (`beside_name`) only the words it lacks (shared/text/name-opener.ts). */
export const TSV_SQL = `
  setweight(to_tsvector('simple', v.name_text), 'A') ||
  setweight(to_tsvector('simple', v.beside_name), 'A') ||
  setweight(to_tsvector('simple', v.category_text || ' ' || v.attribute_text), 'B') ||
  setweight(to_tsvector('simple', v.name_stem), 'C') ||
  setweight(to_tsvector('simple', v.description_norm), 'D')`;
