import type { Knex } from 'knex';
import { ownFilter, type EngineQuery } from './port.js';
import {
  ABOVE_DESCRIPTION,
  audienceFactor,
  coverageSql,
  coverageWeights,
  filterSql,
  headHit,
  openerHit,
  partialCategoryFactor,
  partialHeadFactor,
  partialOpenerFactor,
  idSql,
  langHit,
  orderBy,
  relevance,
  RANK_WEIGHTS,
  rarityShares,
  nameLengthFactor,
  NAME_WORDS_SQL,
  termsOf,
  tsQuery,
  typicality,
  type SqlPart,
} from './postgres.sql.js';
import { CATEGORY_LABEL, FACET_LIMIT, categoryKeyTest, facetLimit, facetValues, isCategoryFacet } from './postgres.facet-sql.js';

/**
 * The search statement of the Postgres engine (PostgresEngine.search): matches, total, strong
 * count, the page with its cards and the facet counts of one query in one statement. Built by
 * several small functions rather than one: V8 optimizes each on its own, where the single
 * function of all of it took TurboFan 0.4-1.1 s of a core per compile and was compiled again
 * whenever a query of a new shape deoptimized it (8 times in a minute of the bench's mix).
 */
export interface SearchStatement {
  sql: string;
  bindings: Knex.RawBinding[];
  /** The strong count below which the facet counts were left to the caller's fallback (EngineQuery.deferFacetsBelow). */
  defer: number | null;
}

/**
 * A query text parsed once per statement, not once per matching row: a scalar subquery without
 * outer references is an InitPlan, evaluated once (to_tsquery is only STABLE, so the planner does
 * not fold it). The WHERE match keeps to_tsquery itself: the planner estimates its selectivity.
 */
const ONCE = `(SELECT to_tsquery('simple', ?))`;

/** `part` with its to_tsquery calls parsed once (ONCE). */
function once(part: SqlPart): SqlPart {
  return { ...part, sql: part.sql.replaceAll(`to_tsquery('simple', ?)`, ONCE) };
}

/** One word's tsqueries: restricted to some fields (`ts`), over every field (`described`), and its weight. */
interface TermQuery {
  ts: string;
  weight: number;
  described: string | null;
}

/** The text rank of a row (`text`) and the per-word queries it and the any-word coverage read. */
interface TextParts {
  ts: string | null;
  ranked: boolean;
  text: string;
  textBindings: unknown[];
  perTerm: TermQuery[];
  partial: TermQuery[];
}

/** Matching any word: the coverage of a row and the factors on its text part (`typed`), with their bindings. */
interface AnyWordParts {
  typed: string;
  typeBindings: unknown[];
  coverage: string;
  coverageBindings: unknown[];
}

/** The columns of the match set m that the page, the counts and the order read. */
interface MatchColumns {
  score: SqlPart;
  typ: SqlPart;
  strong: SqlPart;
  lang: SqlPart;
  head: SqlPart;
  opener: SqlPart;
  textOnce: SqlPart | null;
  order: SqlPart;
  byLength: boolean;
  /** Whether relevance reads lang_hit (a language and words). */
  langTested: boolean;
}

/** The engine statement of a query (see PostgresEngine.search). */
export function searchStatement(q: EngineQuery): SearchStatement {
  const t = textParts(q);
  const any = t.ranked ? anyWordParts(q, t.partial) : null;
  // A filter no asked facet ignores (a facet ignores its own) narrows the matches themselves:
  // with an index behind it ("coffee" read as a brand) the statement never reads the other rows.
  // Without words the match is the whole store: every filter narrows it, and a facet whose own
  // filter is set counts the store's rows under the other filters (facetSource), not a copy of
  // every row of the store (100k rows spilled to temp files, scanned once per facet).
  // Facets that follow every filter (EngineQuery.facetsFollowFilters) count m as the page reads it.
  const textless = !t.ts;
  const { early, late } = textless || q.facetsFollowFilters ? { early: q.filters, late: {} } : splitFilters(q);
  const all = filterSql(late);
  const pushed = filterSql(early);
  const only = idSql(q);
  // Matching any word by relevance, a row's coverage bounds its score: at least the coverage, less than the coverage
  // plus one (the text part, typed / (1 + typed), is in [0, 1)), and every factor of relevance is positive. The text
  // rank (three to five ts_rank_cd a row) is computed only for rows whose upper bound reaches the lower bound of the
  // page's last row (`thr`, `cand`); the others cannot reach the page. Same page, same scores, same order.
  const bounded =
    any !== null &&
    (q.sort ?? 'relevance') === 'relevance' &&
    !q.boost?.shifts?.length &&
    (q.boost?.popularity ?? 0) >= 0 &&
    (q.boost?.margin ?? 0) >= 0 &&
    q.limit > 0;
  const cols = matchColumns(q, t, any, all, bounded);
  const bounds = bounded && any ? boundedPage(q, cols.langTested, t, any) : null;
  // Fewer strong matches than the caller's fallback threshold: the caller matches any word next
  // and counts facets over that, so these counts are not made (facetsDeferred).
  const defer = q.deferFacetsBelow != null && q.facets?.length ? q.deferFacetsBelow : null;
  const facetCols = facetColumns(q, late, textless, only, defer);
  const bindings = [
    q.tenantId,
    ...cols.score.bindings,
    ...cols.typ.bindings,
    ...cols.strong.bindings,
    ...cols.lang.bindings,
    ...cols.head.bindings,
    ...cols.opener.bindings,
    ...(cols.textOnce?.bindings ?? []),
    q.tenantId,
    ...(t.ts ? [t.ts] : []),
    ...only.bindings,
    ...pushed.bindings,
    ...all.bindings,
    ...(bounds?.bindings ?? []),
    ...cols.order.bindings,
    ...cols.order.bindings,
    q.limit,
    q.offset,
    q.tenantId,
    ...facetCols.flatMap((c) => c.bindings),
  ] as Knex.RawBinding[];
  const match = t.ts ? `AND tsv @@ to_tsquery('simple', ?)` : '';
  // Without filters f is m itself: read m's rows in place instead of copying every match once more.
  const sql = `
      WITH g AS (SELECT active FROM search_generations WHERE tenant_id = ?),
      m AS MATERIALIZED (
        SELECT product_id, price, popularity, margin, created_at, in_stock, brand, brand_norm, category_ids, facets,
               ${cols.score.sql} AS ${bounded ? 'cov, search_docs.ctid AS rid' : 'score'}, ${cols.typ.sql} AS typ,
               ${cols.strong.sql} AS strong, ${cols.lang.sql} AS lang_hit, ${cols.head.sql} AS head_hit, ${cols.opener.sql} AS opener_hit,
               ${cols.byLength ? NAME_WORDS_SQL : '0'} AS nw
          FROM search_docs ${cols.textOnce ? `CROSS JOIN LATERAL (SELECT ${cols.textOnce.sql} AS text_rank OFFSET 0) r` : ''}, g
         WHERE tenant_id = ? AND generation = g.active AND visible ${match}${only.sql}${pushed.sql}
      ),
      f AS ${all.sql ? '' : 'NOT '}MATERIALIZED (SELECT * FROM m WHERE true ${all.sql}),${bounds?.sql ?? ''}
      page AS (SELECT product_id, score, strong, row_number() OVER (ORDER BY ${cols.order.sql}) AS ord FROM (SELECT * FROM ${bounds ? 'cand' : 'f'} ORDER BY ${cols.order.sql} LIMIT ? OFFSET ?) top),
      counts AS (SELECT count(*) AS n, count(*) FILTER (WHERE strong) AS strong FROM f)
      SELECT (SELECT active FROM g) AS generation, (SELECT n FROM counts)::int AS total, (SELECT strong FROM counts)::int AS strong,
             (SELECT coalesce(json_agg(json_build_object('id', p.product_id, 'score', p.score, 'strong', p.strong, 'card', d.card, 'description', d.description) ORDER BY p.ord), '[]')
                FROM page p CROSS JOIN LATERAL ${cardOf('p.product_id', '(SELECT active FROM g)')}) AS hits
             ${facetCols.map((c) => `,\n${c.sql}`).join('')}`;
  return { sql, bindings, defer };
}

/** The query's text match and rank: the whole query's cover density plus each word's own rank by its share of the query's rarity. */
function textParts(q: EngineQuery): TextParts {
  const ts = tsQuery(q);
  // Cover density rewards query words close together; normalization 1 damps long spec-heavy titles.
  const rank = `ts_rank_cd(?::float4[], tsv, ${ONCE}, 1)`;
  const own =
    ts && q.preferFirstAlternative && q.terms ? tsQuery({ ...q, terms: q.terms.map((t) => ({ ...t, alternatives: t.alternatives.slice(0, 1) })) }) : null;
  const ranked = !!ts && !q.noTextRank;
  const perTerm = rarityShares(ranked ? termQueries(q) : []);
  // Matching any word: products with more of the query's words above the description come first
  // (each word counted by its rarity: a rare word the shopper typed outweighs a common one), then by rank.
  // A qualifier's words ("children" of "bike for children") count in any field: descriptions say whom a product is for;
  // another word found in the description only covers a share of its weight (a preposition none).
  const partial = q.matchAny && ranked ? coverageWeights(termQueries(q, ABOVE_DESCRIPTION, '')) : [];
  // Several words: each word's own rank too, by its share of the query's rarity, so a word far
  // from the others (in another field) still counts for what it is worth; cover density alone
  // makes such a match near zero.
  const text = [rank, ...(own ? [`0.5 * ${rank}`] : []), ...perTerm.map(() => `${rank} * ?::float8`)].join(' + ');
  const textBindings = [RANK_WEIGHTS, ts, ...(own ? [RANK_WEIGHTS, own] : []), ...perTerm.flatMap((t) => [RANK_WEIGHTS, t.ts, t.weight])];
  return { ts, ranked, text, textBindings, perTerm, partial };
}

/** One tsquery per word of a several-word query (none for one word), restricted to the fields of `weights` when given. */
function termQueries(q: EngineQuery, weights?: string, qualifierWeights = weights): TermQuery[] {
  const terms = termsOf(q);
  if (terms.length < 2) return [];
  const out: TermQuery[] = [];
  terms.forEach((t, i) => {
    const one = { terms: [t], tokens: [], prefixLast: q.prefixLast && i === terms.length - 1 };
    const own = t.qualifier ? qualifierWeights : weights;
    // Restricted to some fields, a word (not a preposition) also found in the description only covers a share (coverageSql).
    const described = own && !t.preposition ? tsQuery(one) : null;
    const ts = tsQuery(one, own);
    if (ts) out.push({ ts, weight: t.weight ?? 1, described });
  });
  return out;
}

/** Matching any word (`partial`: its words' coverage weights): the coverage and the factors on the text part; null otherwise. */
function anyWordParts(q: EngineQuery, partial: TermQuery[]): AnyWordParts | null {
  if (!partial.length) return null;
  // Products of the query's type come first among those covering it alike.
  const typeFactor = partialHeadFactor(q);
  // The name's length weighs on the text rank (coverage decides first).
  const anyLength = nameLengthFactor(q, NAME_WORDS_SQL);
  const textRank = anyLength ? `r.text_rank * ${anyLength.sql}` : 'r.text_rank';
  // ... and those whose names open with a brand word of the query.
  const openerFactor = partialOpenerFactor(q);
  // ... and those in a category the query names.
  const categoryFactor = partialCategoryFactor(q);
  const typed = [openerFactor?.sql, typeFactor?.sql, categoryFactor?.sql, textRank].filter(Boolean).join(' * ');
  // ... and a product for the other gender than the one the query names covers it by half ("mens running shoes").
  const audience = audienceFactor(q);
  const covered = `(${partial.map((t) => coverageSql(t.described, ONCE)).join(' + ')})`;
  const typedOnce = [...(openerFactor?.bindings ?? []), ...(typeFactor?.bindings ?? []), ...(categoryFactor?.bindings ?? []), ...(anyLength?.bindings ?? [])];
  return {
    typed,
    typeBindings: [...typedOnce, ...typedOnce],
    coverage: audience ? `(${covered} * ${audience.sql})` : covered,
    coverageBindings: [...partial.flatMap((t) => [t.weight, t.ts, ...(t.described ? [t.described] : [])]), ...(audience?.bindings ?? [])],
  };
}

/**
 * The match set's computed columns. Scores, strength and the language and type tests are read for
 * the rows the late filters (`all`) keep only: the others are in m for the facet counts of their
 * own filter, nothing else.
 */
function matchColumns(q: EngineQuery, t: TextParts, any: AnyWordParts | null, all: SqlPart, bounded: boolean): MatchColumns {
  const lazy = (part: SqlPart): SqlPart =>
    all.sql ? { sql: `CASE WHEN true${all.sql} THEN ${part.sql} END`, bindings: [...all.bindings, ...part.bindings] } : part;
  const score = !t.ranked ? '0' : any ? `${any.coverage} + ${any.typed} / (1 + ${any.typed})` : t.text;
  // The score column: bounded, the coverage alone and the row's address (the rank comes in `cand`).
  const scorePart =
    bounded && any
      ? lazy({ sql: any.coverage, bindings: any.coverageBindings })
      : lazy({ sql: score, bindings: t.ranked ? (any ? [...any.coverageBindings, ...any.typeBindings] : t.textBindings) : [] });
  // All words above the description, or a product of the type the query names: a match by
  // description words alone is weak, and a few strong matches call for the any-word fallback
  // (see SearchService).
  const strong = t.perTerm.length && !q.matchAny ? tsQuery(q, ABOVE_DESCRIPTION) : null;
  const intent = q.boost?.categories?.length ? q.boost.categories : null;
  const lang = t.ranked ? langHit(q) : null;
  const head = t.ranked ? headHit(q) : null;
  const opener = t.ranked ? openerHit(q) : null;
  // Typicality inside the categories the query names, null outside them: the row's one test of its categories,
  // which relevance reads (orderBy); typicality itself is never computed elsewhere.
  // (Matching any word the category is read in the text part instead: partialCategoryFactor.)
  const typical = once(typicality(q));
  const byLength = t.ranked && !q.matchAny && !!nameLengthFactor(q);
  return {
    score: scorePart,
    typ: lazy(
      intent && !q.matchAny
        ? { sql: `CASE WHEN category_ids && ?::text[] THEN ${typical.sql} END`, bindings: [intent, ...typical.bindings] }
        : { sql: '0', bindings: [] },
    ),
    strong: strong
      ? lazy({ sql: `(tsv @@ ${ONCE}${intent ? ' OR category_ids && ?::text[]' : ''})`, bindings: [strong, ...(intent ? [intent] : [])] })
      : { sql: 'true', bindings: [] },
    lang: lang ? lazy(lang) : { sql: 'false', bindings: [] },
    head: head ? lazy(head) : { sql: 'false', bindings: [] },
    opener: opener ? lazy(opener) : { sql: 'false', bindings: [] },
    // The any-word score uses the text rank twice: computed once per row (LATERAL text_rank; OFFSET 0
    // keeps the planner from pulling the subquery up, which would inline the rank twice).
    textOnce: t.ranked && any && !bounded ? lazy({ sql: t.text, bindings: t.textBindings }) : null,
    order: orderBy(q, !!lang, !!head, byLength, !!opener),
    byLength,
    langTested: !!lang,
  };
}

/** The bounded any-word page's CTEs (see `bounded`): the last page row's lower bound, then the rows that can reach it, scored. */
function boundedPage(q: EngineQuery, lang: boolean, t: TextParts, any: AnyWordParts): SqlPart {
  const low = relevance(q, lang, false, false, false, 'cov');
  const high = relevance(q, lang, false, false, false, '(cov + 1)');
  const stockFirst = !!q.boost?.inStockFirst;
  const reaches = stockFirst
    ? `thr.lb IS NULL OR f.in_stock > thr.in_stock OR (f.in_stock = thr.in_stock AND ${high.sql} >= thr.lb)`
    : `thr.lb IS NULL OR ${high.sql} >= thr.lb`;
  return {
    sql: `
      thr AS (SELECT in_stock, ${low.sql} AS lb FROM f ORDER BY ${stockFirst ? 'in_stock DESC, ' : ''}lb DESC LIMIT 1 OFFSET ${Number(q.offset + q.limit - 1)}),
      cand AS (SELECT c.*, c.cov + ${any.typed} / (1 + ${any.typed}) AS score
                 FROM (SELECT f.* FROM f LEFT JOIN thr ON true WHERE ${reaches}) c
                 CROSS JOIN LATERAL (SELECT ${t.text} AS text_rank, name_norm, name_words, heads FROM search_docs WHERE ctid = c.rid OFFSET 0) r),`,
    bindings: [...low.bindings, ...any.typeBindings, ...high.bindings, ...t.textBindings],
  };
}

/** The facet count columns, each left out (a CASE on the strong count) below `defer`. */
function facetColumns(q: EngineQuery, late: EngineQuery['filters'], textless: boolean, only: SqlPart, defer: number | null): SqlPart[] {
  return (q.facets ?? []).map((name, i) => {
    const counted = facetQuery(name, facetSource(q, name, late, textless, only), q.tenantId);
    return {
      sql: `${defer != null ? `CASE WHEN (SELECT strong FROM counts) >= ${Number(defer)} THEN ${counted.sql} END` : counted.sql} AS facet_${i}`,
      bindings: counted.bindings,
    };
  });
}

/**
 * Where a facet counts: m under the late filters but its own, or (textless, its own filter set) the store's rows under the
 * other filters; following every filter (facetsFollowFilters, no late filters), m itself.
 */
function facetSource(q: EngineQuery, name: string, late: EngineQuery['filters'], textless: boolean, only: SqlPart): SqlPart {
  if (textless && !q.facetsFollowFilters && q.filters && ownFilter(name) in q.filters) {
    const others = filterSql(q.filters, ownFilter(name));
    return {
      sql: `FROM search_docs WHERE tenant_id = ? AND generation = (SELECT active FROM g) AND visible${only.sql}${others.sql}`,
      bindings: [q.tenantId, ...only.bindings, ...others.bindings],
    };
  }
  const ownFilters = filterSql(late, ownFilter(name));
  return { sql: `FROM m WHERE true ${ownFilters.sql}`, bindings: ownFilters.bindings };
}

/** The query's filters that no asked facet ignores (`early`: applied with the match) and the others (`late`). */
function splitFilters(q: Pick<EngineQuery, 'filters' | 'facets'>): { early: EngineQuery['filters']; late: EngineQuery['filters'] } {
  const owned = new Set((q.facets ?? []).map(ownFilter));
  const early: NonNullable<EngineQuery['filters']> = {};
  const late: NonNullable<EngineQuery['filters']> = {};
  for (const [name, value] of Object.entries(q.filters ?? {})) (owned.has(name) ? late : early)[name] = value;
  return { early, late };
}

/**
 * The card and description (`d`) of a page row whose product id and generation are the SQL `id` and `generation`, read
 * by its key (binds the tenant id): one index probe a row whatever the table's statistics say (OFFSET 0 keeps the
 * subquery from becoming a join). As a join, before search_cards was first analyzed, the planner walked every card of
 * the store for each page: 47 ms instead of 0.5 on the 19k eval store.
 */
export const cardOf = (id: string, generation: string): string =>
  `(SELECT card, description FROM search_cards d WHERE d.tenant_id = ? AND d.generation = ${generation} AND d.product_id = ${id} OFFSET 0) d`;

/** A facet's counts over the rows `source` (a FROM clause with its WHERE) gives: the matches with every filter except the facet's own. */
export function facetQuery(name: string, source: SqlPart, tenantId: string): SqlPart {
  const from = source.sql;
  if (name === 'price') return { sql: `(SELECT json_build_object('min', min(price), 'max', max(price)) ${from})`, bindings: source.bindings };
  if (isCategoryFacet(name)) {
    // unnest in the select list (one ProjectSet) rather than a function scan per row; a label read
    // per bucket by its key (a join's estimate could pick a scan of every category of the store).
    return {
      // Every key of the rows counted first, then the facet's own kind kept (OFFSET 0 keeps the test above the count): counted
      // by hash, where the test below it left an estimate so small that the planner sorted thousands of keys to group them.
      sql: `(SELECT coalesce(json_agg(json_build_object('value', b.value, 'count', b.count, 'label', ${CATEGORY_LABEL}) ORDER BY b.count DESC, b.value), '[]')
      FROM (SELECT value, count FROM (SELECT c AS value, count(*)::int AS count FROM (SELECT unnest(category_ids) AS c ${from}) x GROUP BY c OFFSET 0) k
             WHERE ${categoryKeyTest(name, 'value')} ORDER BY count DESC, value LIMIT ${facetLimit(name)}) b)`,
      bindings: [tenantId, ...source.bindings],
    };
  }
  // The value expression's bindings come before the source's, the row test's after.
  const v = facetValues(name, (c) => c);
  const valueBindings = v.test ? v.bindings.slice(0, -1) : v.bindings;
  const testBindings = v.test ? v.bindings.slice(-1) : [];
  return {
    sql: `(SELECT coalesce(json_agg(b), '[]') FROM (SELECT value, count(*)::int AS count FROM (SELECT ${v.value} AS value ${from}${v.test ? ` AND ${v.test}` : ''}) s GROUP BY value ORDER BY count DESC, value LIMIT ${FACET_LIMIT}) b)`,
    bindings: [...valueBindings, ...source.bindings, ...testBindings],
  };
}
