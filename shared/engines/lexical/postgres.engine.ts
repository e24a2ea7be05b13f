import type { Knex } from 'knex';
import { categoryLabels, type EngineQuery, type EngineResult, type IndexSettings, type LexicalEngine, type SearchDoc } from './port.js';
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
  nameWordsOf,
  TSV_SQL,
  termsOf,
  tsQuery,
  typicality,
  type SqlPart,
} from './postgres.sql.js';
import { derivedWrite } from '../../platform/db/derived-write.js';
import { beyondName, openerOnce } from '../../text/name-opener.js';
import { StoreFacets } from './postgres.store-facets.js';
import { CATEGORY_LABEL, FACET_LIMIT, categoryKeyTest, facetLimit, facetValues, isCategoryFacet } from './postgres.facet-sql.js';

/** An engine result without the generation it was read from. */
function strip({ generation: _g, ...res }: EngineResult & { generation?: number }): EngineResult {
  return res;
}

/**
 * A query text parsed once per statement, not once per matching row: a scalar subquery without
 * outer references is an InitPlan, evaluated once (to_tsquery is only STABLE, so the planner does
 * not fold it). The WHERE match keeps to_tsquery itself: the planner estimates its selectivity.
 */
const ONCE = `(SELECT to_tsquery('simple', ?))`;

/** `part` with its to_tsquery calls parsed once (ONCE). */
function once(part: { sql: string; bindings: unknown[] }): { sql: string; bindings: unknown[] } {
  return { ...part, sql: part.sql.replaceAll(`to_tsquery('simple', ?)`, ONCE) };
}

/**
 * One statement for a chunk of documents, in product order; a document never goes back to an older
 * product version. Its card and description go to search_cards (read for a page's rows only) for
 * the documents written, in the same statement.
 */
const UPSERT_DOCS = `WITH v AS (
       SELECT * FROM jsonb_to_recordset(?::jsonb) AS v(product_id text, name_norm text, name_text text, name_stem text, beside_name text, brand text, brand_norm text, codes text[],
              category_ids text[], category_text text, attribute_text text, description_norm text,
              facets jsonb, price float8, in_stock boolean, visible boolean, popularity float8, margin float8,
              created_at timestamptz, source_version bigint, card jsonb, description jsonb, lang_terms text[], heads text[])),
     written AS (
       INSERT INTO search_docs (tenant_id, generation, product_id, name_norm, name_words, brand, brand_norm, codes, category_ids,
                                facets, price, in_stock, visible, popularity, margin, created_at, source_version, lang_terms, heads, tsv)
       SELECT ?, ?, v.product_id, v.name_norm, ${nameWordsOf('v.name_norm')}, v.brand, v.brand_norm, v.codes, v.category_ids, v.facets, v.price,
              v.in_stock, v.visible, v.popularity, v.margin, v.created_at, v.source_version, coalesce(v.lang_terms, '{}'), coalesce(v.heads, '{}'), ${TSV_SQL}
         FROM v
        -- In product order: writers of the same products (a batch and a generation being built, overlapping batches) lock
        -- them in the same order, so none waits on another that waits on it (a deadlock, one of them killed).
        ORDER BY v.product_id
       ON CONFLICT (tenant_id, generation, product_id) DO UPDATE SET
         name_norm = EXCLUDED.name_norm, name_words = EXCLUDED.name_words, brand = EXCLUDED.brand, brand_norm = EXCLUDED.brand_norm, codes = EXCLUDED.codes,
         category_ids = EXCLUDED.category_ids, facets = EXCLUDED.facets,
         price = EXCLUDED.price, in_stock = EXCLUDED.in_stock, visible = EXCLUDED.visible, popularity = EXCLUDED.popularity,
         margin = EXCLUDED.margin, created_at = EXCLUDED.created_at, source_version = EXCLUDED.source_version,
         lang_terms = EXCLUDED.lang_terms, heads = EXCLUDED.heads, tsv = EXCLUDED.tsv
       WHERE search_docs.source_version <= EXCLUDED.source_version
       RETURNING product_id)
     INSERT INTO search_cards (tenant_id, generation, product_id, card, description)
     SELECT ?, ?, v.product_id, v.card, v.description FROM v JOIN written w ON w.product_id = v.product_id ORDER BY v.product_id
     ON CONFLICT (tenant_id, generation, product_id) DO UPDATE SET card = EXCLUDED.card, description = EXCLUDED.description`;

/**
 * The built-in engine: per-tenant documents in `search_docs` of the same database, weighted
 * full-text vectors, trigram index on names, facet columns. A generation number per tenant
 * plays the role of Typesense's collection-behind-an-alias.
 */
export class PostgresEngine implements LexicalEngine {
  readonly name = 'postgres';

  /** Whole-store counts for searches without words, per tenant (postgres.store-facets.ts). */
  private storeFacets: StoreFacets;

  /** `storeFacetsMinRows`: the smallest filter value whose counts are held (StoreFacets; tests use a few). */
  constructor(
    private db: Knex,
    options: { storeFacetsMinRows?: number } = {},
  ) {
    this.storeFacets = new StoreFacets(db, facetQuery, options.storeFacetsMinRows);
  }

  /** Whether the store's counts are held for a tenant (a search without words may use them). */
  holdsStoreCounts(tenantId: string): boolean {
    return this.storeFacets.holds(tenantId);
  }

  private async liveGenerations(tenantId: string): Promise<number[]> {
    await this.db.raw('INSERT INTO search_generations (tenant_id, active) VALUES (?, 1) ON CONFLICT DO NOTHING', [tenantId]);
    const row = await this.db('search_generations').where({ tenant_id: tenantId }).first();
    return row.building ? [row.active, row.building] : [row.active];
  }

  async upsert(tenantId: string, docs: SearchDoc[], _settings: IndexSettings): Promise<void> {
    if (!docs.length) return;
    for (const generation of await this.liveGenerations(tenantId)) await this.write(tenantId, generation, docs);
    this.storeFacets.changed(tenantId);
  }

  async writeGeneration(tenantId: string, generation: number, docs: SearchDoc[]): Promise<void> {
    if (docs.length) await this.write(tenantId, generation, docs);
  }

  /** One transaction (derived data: no wait for the WAL flush); a document never goes back to an older product version. */
  private async write(tenantId: string, generation: number, docs: SearchDoc[]): Promise<void> {
    const rows = docs.map((d) => ({
      product_id: d.id,
      name_norm: d.nameNorm,
      ...nameText(d),
      brand: d.brand,
      brand_norm: d.brandNorm,
      codes: d.codes,
      category_ids: d.categoryIds,
      category_text: d.categoryText,
      attribute_text: d.attributeText,
      description_norm: d.descriptionNorm,
      facets: d.facets,
      price: d.price,
      in_stock: d.inStock,
      visible: d.visible,
      popularity: d.popularity,
      margin: d.margin,
      created_at: new Date(d.createdAt).toISOString(),
      source_version: d.version ?? Date.now(),
      card: d.card,
      description: d.description ?? null,
      lang_terms: d.langTerms ?? [],
      heads: d.heads ?? [],
    }));
    const labels = new Map<string, Record<string, string>>();
    for (const d of docs) for (const [id, label] of categoryLabels(d)) labels.set(id, label);
    await derivedWrite(this.db, async (trx) => {
      await trx.raw(UPSERT_DOCS, [JSON.stringify(rows), tenantId, generation, tenantId, generation]);
      if (!labels.size) return;
      await trx.raw(
        `INSERT INTO search_categories (tenant_id, id, label) SELECT ?, v.id, v.label FROM jsonb_to_recordset(?::jsonb) AS v(id text, label jsonb)
         ON CONFLICT (tenant_id, id) DO UPDATE SET label = EXCLUDED.label WHERE search_categories.label <> EXCLUDED.label`,
        // In id order: two workers upserting shared categories lock them in the same order.
        [tenantId, JSON.stringify([...labels].sort(([a], [b]) => (a < b ? -1 : 1)).map(([id, label]) => ({ id, label })))],
      );
    });
  }

  async remove(tenantId: string, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.db.transaction((trx) => deleteDocs(trx, { tenant_id: tenantId }, ids));
    this.storeFacets.changed(tenantId);
  }

  async beginGeneration(tenantId: string, _settings: IndexSettings): Promise<number> {
    await this.liveGenerations(tenantId);
    return this.db.transaction(async (trx) => {
      const row = await trx('search_generations').where({ tenant_id: tenantId }).forUpdate().first();
      if (row.building) await deleteDocs(trx, { tenant_id: tenantId, generation: row.building });
      const next = Math.max(row.active, row.building ?? 0) + 1;
      await trx('search_generations').where({ tenant_id: tenantId }).update({ building: next });
      return next;
    });
  }

  async swapGeneration(tenantId: string, generation: number): Promise<void> {
    const old = await this.db.transaction(async (trx) => {
      const row = await trx('search_generations').where({ tenant_id: tenantId }).forUpdate().first();
      if (!row || row.building !== generation) throw new Error(`generation ${generation} is not being built for ${tenantId}`);
      await trx('search_generations').where({ tenant_id: tenantId }).update({ active: generation, building: null });
      return row.active as number;
    });
    this.storeFacets.changed(tenantId);
    await this.db.transaction((trx) => deleteDocs(trx, { tenant_id: tenantId, generation: old }));
    // A whole generation just changed: fresh statistics keep the planner on the text index.
    await this.db.raw('ANALYZE search_docs, search_cards');
  }

  async dropGeneration(tenantId: string, generation: number): Promise<void> {
    await this.db('search_generations').where({ tenant_id: tenantId, building: generation }).update({ building: null });
    await this.db.transaction((trx) => deleteDocs(trx, { tenant_id: tenantId, generation }));
  }

  async dropTenant(tenantId: string): Promise<void> {
    await this.db.transaction(async (trx) => {
      await deleteDocs(trx, { tenant_id: tenantId });
      await trx('search_generations').where({ tenant_id: tenantId }).delete();
    });
    this.storeFacets.changed(tenantId);
  }

  /** The tenant's index changed in another process: counts held for it go (StoreFacets). */
  changed(tenantId: string): void {
    this.storeFacets.changed(tenantId);
  }

  /**
   * One round trip: matches (small columns only), total, the page (cards read for its rows only)
   * and the requested facets with disjunctive counts. Without words, the counts the store's held
   * counts know (StoreFacets) are not counted again; with all of them and the total known, only the
   * page is read.
   */
  async search(q: EngineQuery): Promise<EngineResult> {
    if (q.noTextRank && !q.facets?.length) return this.preview(q);
    const known = !q.noTextRank && !tsQuery(q) ? this.storeFacets.answer(q) : null;
    if (!known) return strip(await this.statement(q));
    const missing = (q.facets ?? []).filter((name) => known.facets[name] === undefined);
    const res =
      !missing.length && known.total != null && !q.boost?.shifts?.length
        ? { ...(await this.page(q)), total: known.total, strong: known.total, facets: {} }
        : await this.statement({ ...q, facets: missing });
    // Counted for another generation (a swap whose notice has not come yet): counted again, here.
    if (res.generation !== known.generation) {
      this.storeFacets.changed(q.tenantId);
      return strip(await this.statement(q));
    }
    const facets: EngineResult['facets'] = {};
    for (const name of q.facets ?? []) facets[name] = known.facets[name] ?? res.facets[name];
    return { ...strip(res), facets };
  }

  /** The first page of a query without words and without merchandising shifts: its score is 0, so relevance is stock and popularity. */
  private async page(q: EngineQuery): Promise<{ generation: number; hits: EngineResult['hits'] }> {
    const filters = filterSql(q.filters);
    const head = q.boost?.inStockFirst ? 'in_stock DESC, ' : '';
    // The other sorts' ORDER BY reads columns only (no bindings, nothing of f).
    const order = !q.sort || q.sort === 'relevance' || q.sort === 'popular' ? `${head}popularity DESC, product_id` : orderBy(q).sql;
    const { rows } = await this.db.raw(
      `WITH g AS (SELECT active FROM search_generations WHERE tenant_id = ?),
       top AS (SELECT product_id, row_number() OVER (ORDER BY ${order}) AS ord
                 FROM (SELECT product_id, price, popularity, created_at, in_stock FROM search_docs
                        WHERE tenant_id = ? AND generation = (SELECT active FROM g) AND visible ${filters.sql}
                        ORDER BY ${order} LIMIT ? OFFSET ?) s)
       SELECT (SELECT active FROM g) AS generation,
              (SELECT coalesce(json_agg(json_build_object('id', p.product_id, 'score', 0, 'strong', true, 'card', d.card, 'description', d.description) ORDER BY p.ord), '[]')
                 FROM top p CROSS JOIN LATERAL ${cardOf('p.product_id', '(SELECT active FROM g)')}) AS hits`,
      [q.tenantId, q.tenantId, ...filters.bindings, q.limit, q.offset, q.tenantId] as Knex.RawBinding[],
    );
    return { generation: rows[0].generation, hits: rows[0].hits };
  }

  /** The engine statement (see search). */
  private async statement(q: EngineQuery): Promise<EngineResult & { generation: number }> {
    const ts = tsQuery(q);
    const match = ts ? `AND tsv @@ to_tsquery('simple', ?)` : '';
    // Cover density rewards query words close together; normalization 1 damps long spec-heavy titles.
    const rank = `ts_rank_cd(?::float4[], tsv, ${ONCE}, 1)`;
    const own =
      ts && q.preferFirstAlternative && q.terms ? tsQuery({ ...q, terms: q.terms.map((t) => ({ ...t, alternatives: t.alternatives.slice(0, 1) })) }) : null;
    const ranked = ts && !q.noTextRank;
    // One tsquery per word of a several-word query.
    const terms = termsOf(q);
    const eachTerm = (weights?: string, qualifierWeights = weights) =>
      ranked && terms.length > 1
        ? terms
            .map((t, i) => {
              const one = { terms: [t], tokens: [], prefixLast: q.prefixLast && i === terms.length - 1 };
              const own = t.qualifier ? qualifierWeights : weights;
              // Restricted to some fields, a word (not a preposition) also found in the description only covers a share (coverageSql).
              const described = own && !t.preposition ? tsQuery(one) : null;
              return { ts: tsQuery(one, own), weight: t.weight ?? 1, described };
            })
            .filter((x): x is { ts: string; weight: number; described: string | null } => !!x.ts)
        : [];
    const perTerm = rarityShares(eachTerm());
    // Matching any word: products with more of the query's words above the description come first
    // (each word counted by its rarity: a rare word the shopper typed outweighs a common one), then by rank.
    // A qualifier's words ("children" of "bike for children") count in any field: descriptions say whom a product is for;
    // another word found in the description only covers a share of its weight (a preposition none).
    const partial = q.matchAny ? coverageWeights(eachTerm(ABOVE_DESCRIPTION, '')) : [];
    // Several words: each word's own rank too, by its share of the query's rarity, so a word far
    // from the others (in another field) still counts for what it is worth; cover density alone
    // makes such a match near zero.
    const text = [rank, ...(own ? [`0.5 * ${rank}`] : []), ...perTerm.map(() => `${rank} * ?::float8`)].join(' + ');
    const textBindings = [RANK_WEIGHTS, ts, ...(own ? [RANK_WEIGHTS, own] : []), ...perTerm.flatMap((t) => [RANK_WEIGHTS, t.ts, t.weight])];
    // Matching any word, products of the query's type come first among those covering it alike.
    const typeFactor = partial.length ? partialHeadFactor(q) : null;
    // Matching any word, the name's length weighs on the text rank (coverage decides first).
    const anyLength = partial.length ? nameLengthFactor(q, NAME_WORDS_SQL) : null;
    const textRank = anyLength ? `r.text_rank * ${anyLength.sql}` : 'r.text_rank';
    // ... and those whose names open with a brand word of the query.
    const openerFactor = partial.length ? partialOpenerFactor(q) : null;
    // ... and those in a category the query names.
    const categoryFactor = partial.length ? partialCategoryFactor(q) : null;
    const typed = [openerFactor?.sql, typeFactor?.sql, categoryFactor?.sql, textRank].filter(Boolean).join(' * ');
    // ... and a product for the other gender than the one the query names covers it by half ("mens running shoes").
    const audience = partial.length ? audienceFactor(q) : null;
    const covered = `(${partial.map((t) => coverageSql(t.described, ONCE)).join(' + ')})`;
    const coverage = audience ? `(${covered} * ${audience.sql})` : covered;
    const score = !ranked ? '0' : partial.length ? `${coverage} + ${typed} / (1 + ${typed})` : text;
    // All words above the description, or a product of the type the query names: a match by
    // description words alone is weak, and a few strong matches call for the any-word fallback
    // (see SearchService).
    const strong = perTerm.length && !q.matchAny ? tsQuery(q, ABOVE_DESCRIPTION) : null;
    const intent = q.boost?.categories?.length ? q.boost.categories : null;
    const lang = ranked ? langHit(q) : null;
    const head = ranked ? headHit(q) : null;
    const opener = ranked ? openerHit(q) : null;
    // A filter no asked facet ignores (a facet ignores its own) narrows the matches themselves:
    // with an index behind it ("coffee" read as a brand) the statement never reads the other rows.
    // Without words the match is the whole store: every filter narrows it, and a facet whose own
    // filter is set counts the store's rows under the other filters (facetSource), not a copy of
    // every row of the store (100k rows spilled to temp files, scanned once per facet).
    const textless = !ts;
    const { early, late } = textless ? { early: q.filters, late: {} } : splitFilters(q);
    const all = filterSql(late);
    const pushed = filterSql(early);
    const only = idSql(q);
    const byLength = !!ranked && !q.matchAny && !!nameLengthFactor(q);
    const order = orderBy(q, !!lang, !!head, byLength, !!opener);
    // Scores, strength and the language and type tests are read for the rows the late filters keep
    // (f) only: the others are in m for the facet counts of their own filter, nothing else.
    const lazy = (part: SqlPart): SqlPart =>
      all.sql ? { sql: `CASE WHEN true${all.sql} THEN ${part.sql} END`, bindings: [...all.bindings, ...part.bindings] } : part;
    const typedOnce = [...(openerFactor?.bindings ?? []), ...(typeFactor?.bindings ?? []), ...(categoryFactor?.bindings ?? []), ...(anyLength?.bindings ?? [])];
    const typeBindings = [...typedOnce, ...typedOnce];
    // Matching any word by relevance, a row's coverage bounds its score: at least the coverage, less than the coverage
    // plus one (the text part, typed / (1 + typed), is in [0, 1)), and every factor of relevance is positive. The text
    // rank (three to five ts_rank_cd a row) is computed only for rows whose upper bound reaches the lower bound of the
    // page's last row (`thr`, `cand`); the others cannot reach the page. Same page, same scores, same order.
    const bounded =
      partial.length > 0 &&
      (q.sort ?? 'relevance') === 'relevance' &&
      !q.boost?.shifts?.length &&
      (q.boost?.popularity ?? 0) >= 0 &&
      (q.boost?.margin ?? 0) >= 0 &&
      q.limit > 0;
    const coverageBindings = [...partial.flatMap((t) => [t.weight, t.ts, ...(t.described ? [t.described] : [])]), ...(audience?.bindings ?? [])];
    // The match set's score column: bounded, the coverage alone and the row's address (the rank comes in `cand`).
    const scorePart = bounded
      ? lazy({ sql: coverage, bindings: coverageBindings })
      : lazy({ sql: score, bindings: ranked ? (partial.length ? [...coverageBindings, ...typeBindings] : textBindings) : [] });
    // Typicality inside the categories the query names, null outside them: the row's one test of its categories,
    // which relevance reads (orderBy); typicality itself is never computed elsewhere.
    const typical = once(typicality(q));
    // (Matching any word the category is read in the text part instead: partialCategoryFactor.)
    const typPart = lazy(
      intent && !q.matchAny
        ? { sql: `CASE WHEN category_ids && ?::text[] THEN ${typical.sql} END`, bindings: [intent, ...typical.bindings] }
        : { sql: '0', bindings: [] },
    );
    const strongPart = strong
      ? lazy({ sql: `(tsv @@ ${ONCE}${intent ? ' OR category_ids && ?::text[]' : ''})`, bindings: [strong, ...(intent ? [intent] : [])] })
      : { sql: 'true', bindings: [] };
    const langPart = lang ? lazy(lang) : { sql: 'false', bindings: [] };
    const headPart = head ? lazy(head) : { sql: 'false', bindings: [] };
    const openerPart = opener ? lazy(opener) : { sql: 'false', bindings: [] };
    // The any-word score uses the text rank twice: computed once per row (LATERAL text_rank; OFFSET 0
    // keeps the planner from pulling the subquery up, which would inline the rank twice).
    const textOnce = ranked && partial.length && !bounded ? lazy({ sql: text, bindings: textBindings }) : null;
    const bounds = bounded ? boundedPage() : null;
    // Fewer strong matches than the caller's fallback threshold: the caller matches any word next
    // and counts facets over that, so these counts are not made (facetsDeferred).
    const defer = q.deferFacetsBelow != null && q.facets?.length ? q.deferFacetsBelow : null;
    const facetCols = (q.facets ?? []).map((name, i) => {
      const counted = facetQuery(name, facetSource(name), q.tenantId);
      return {
        sql: `${defer != null ? `CASE WHEN (SELECT strong FROM counts) >= ${Number(defer)} THEN ${counted.sql} END` : counted.sql} AS facet_${i}`,
        bindings: counted.bindings,
      };
    });
    /** The bounded any-word page's CTEs (see `bounded`): the last page row's lower bound, then the rows that can reach it, scored. */
    function boundedPage(): SqlPart {
      const low = relevance(q, !!lang, false, false, false, 'cov');
      const high = relevance(q, !!lang, false, false, false, '(cov + 1)');
      const stockFirst = !!q.boost?.inStockFirst;
      const reaches = stockFirst
        ? `thr.lb IS NULL OR f.in_stock > thr.in_stock OR (f.in_stock = thr.in_stock AND ${high.sql} >= thr.lb)`
        : `thr.lb IS NULL OR ${high.sql} >= thr.lb`;
      return {
        sql: `
      thr AS (SELECT in_stock, ${low.sql} AS lb FROM f ORDER BY ${stockFirst ? 'in_stock DESC, ' : ''}lb DESC LIMIT 1 OFFSET ${Number(q.offset + q.limit - 1)}),
      cand AS (SELECT c.*, c.cov + ${typed} / (1 + ${typed}) AS score
                 FROM (SELECT f.* FROM f LEFT JOIN thr ON true WHERE ${reaches}) c
                 CROSS JOIN LATERAL (SELECT ${text} AS text_rank, name_norm, name_words, heads FROM search_docs WHERE ctid = c.rid OFFSET 0) r),`,
        bindings: [...low.bindings, ...typeBindings, ...high.bindings, ...textBindings],
      };
    }
    /** Where a facet counts: m under the late filters but its own, or (textless, its own filter set) the store's rows under the other filters. */
    function facetSource(name: string): SqlPart {
      if (textless && q.filters && ownFilter(name) in q.filters) {
        const others = filterSql(q.filters, ownFilter(name));
        return {
          sql: `FROM search_docs WHERE tenant_id = ? AND generation = (SELECT active FROM g) AND visible${only.sql}${others.sql}`,
          bindings: [q.tenantId, ...only.bindings, ...others.bindings],
        };
      }
      const ownFilters = filterSql(late, ownFilter(name));
      return { sql: `FROM m WHERE true ${ownFilters.sql}`, bindings: ownFilters.bindings };
    }
    const bindings = [
      q.tenantId,
      ...scorePart.bindings,
      ...typPart.bindings,
      ...strongPart.bindings,
      ...langPart.bindings,
      ...headPart.bindings,
      ...openerPart.bindings,
      ...(textOnce?.bindings ?? []),
      q.tenantId,
      ...(ts ? [ts] : []),
      ...only.bindings,
      ...pushed.bindings,
      ...all.bindings,
      ...(bounds?.bindings ?? []),
      ...order.bindings,
      ...order.bindings,
      q.limit,
      q.offset,
      q.tenantId,
      ...facetCols.flatMap((c) => c.bindings),
    ] as Knex.RawBinding[];
    // Without filters f is m itself: read m's rows in place instead of copying every match once more.
    const sql = `
      WITH g AS (SELECT active FROM search_generations WHERE tenant_id = ?),
      m AS MATERIALIZED (
        SELECT product_id, price, popularity, margin, created_at, in_stock, brand, brand_norm, category_ids, facets,
               ${scorePart.sql} AS ${bounded ? 'cov, search_docs.ctid AS rid' : 'score'}, ${typPart.sql} AS typ,
               ${strongPart.sql} AS strong, ${langPart.sql} AS lang_hit, ${headPart.sql} AS head_hit, ${openerPart.sql} AS opener_hit,
               ${byLength ? NAME_WORDS_SQL : '0'} AS nw
          FROM search_docs ${textOnce ? `CROSS JOIN LATERAL (SELECT ${textOnce.sql} AS text_rank OFFSET 0) r` : ''}, g
         WHERE tenant_id = ? AND generation = g.active AND visible ${match}${only.sql}${pushed.sql}
      ),
      f AS ${all.sql ? '' : 'NOT '}MATERIALIZED (SELECT * FROM m WHERE true ${all.sql}),${bounds?.sql ?? ''}
      page AS (SELECT product_id, score, strong, row_number() OVER (ORDER BY ${order.sql}) AS ord FROM (SELECT * FROM ${bounds ? 'cand' : 'f'} ORDER BY ${order.sql} LIMIT ? OFFSET ?) top),
      counts AS (SELECT count(*) AS n, count(*) FILTER (WHERE strong) AS strong FROM f)
      SELECT (SELECT active FROM g) AS generation, (SELECT n FROM counts)::int AS total, (SELECT strong FROM counts)::int AS strong,
             (SELECT coalesce(json_agg(json_build_object('id', p.product_id, 'score', p.score, 'strong', p.strong, 'card', d.card, 'description', d.description) ORDER BY p.ord), '[]')
                FROM page p CROSS JOIN LATERAL ${cardOf('p.product_id', '(SELECT active FROM g)')}) AS hits
             ${facetCols.map((c) => `,\n${c.sql}`).join('')}`;
    const { rows } = await this.db.raw(sql, bindings);
    const row = rows[0];
    const facets: EngineResult['facets'] = {};
    if (defer != null && row.strong < defer)
      return { generation: row.generation, total: row.total, strong: row.strong, hits: row.hits, facets, facetsDeferred: true };
    (q.facets ?? []).forEach((name, i) => (facets[name] = row[`facet_${i}`]));
    return { generation: row.generation, total: row.total, strong: row.strong, hits: row.hits, facets };
  }
  /** Lean query for previews: the first `limit` matches by stock and popularity, nothing counted. */
  private async preview(q: EngineQuery): Promise<EngineResult> {
    const ts = tsQuery(q);
    const filters = filterSql(q.filters);
    const only = idSql(q);
    // The page's rows first (small columns), then their cards by key.
    const { rows } = await this.db.raw(
      `SELECT t.id, d.card
         FROM (SELECT product_id AS id, generation, in_stock, popularity FROM search_docs
                WHERE tenant_id = ? AND generation = (SELECT active FROM search_generations WHERE tenant_id = ?) AND visible
                  ${ts ? `AND tsv @@ to_tsquery('simple', ?)` : ''} ${filters.sql}${only.sql}
                ORDER BY in_stock DESC, popularity DESC, product_id LIMIT ? OFFSET ?) t
         CROSS JOIN LATERAL ${cardOf('t.id', 't.generation')}
        ORDER BY t.in_stock DESC, t.popularity DESC, t.id`,
      [
        q.tenantId,
        q.tenantId,
        ...(ts ? [ts] : []),
        ...(filters.bindings as Knex.RawBinding[]),
        ...(only.bindings as Knex.RawBinding[]),
        q.limit,
        q.offset,
        q.tenantId,
      ],
    );
    return {
      total: rows.length,
      hits: rows.map((r: { id: string; card: EngineResult['hits'][number]['card'] }) => ({ id: r.id, score: 0, card: r.card })),
      facets: {},
    };
  }
}

/** Deletes the documents `where` names (and of them, `ids` only when given) with their cards; in the caller's transaction. */
async function deleteDocs(trx: Knex.Transaction, where: Record<string, string | number>, ids?: string[]): Promise<void> {
  for (const table of ['search_docs', 'search_cards']) {
    const rows = trx(table).where(where);
    await (ids ? rows.whereIn('product_id', ids) : rows).delete();
  }
}

/**
 * The card and description (`d`) of a page row whose product id and generation are the SQL `id` and `generation`, read
 * by its key (binds the tenant id): one index probe a row whatever the table's statistics say (OFFSET 0 keeps the
 * subquery from becoming a join). As a join, before search_cards was first analyzed, the planner walked every card of
 * the store for each page: 47 ms instead of 0.5 on the 19k eval store.
 */
const cardOf = (id: string, generation: string): string =>
  `(SELECT card, description FROM search_cards d WHERE d.tenant_id = ? AND d.generation = ${generation} AND d.product_id = ${id} OFFSET 0) d`;

/** The filter a facet's counts ignore (counts are disjunctive). */
const ownFilter = (facet: string) => (facet === 'category_tree' ? 'category' : facet);

/** The query's filters that no asked facet ignores (`early`: applied with the match) and the others (`late`). */
function splitFilters(q: Pick<EngineQuery, 'filters' | 'facets'>): { early: EngineQuery['filters']; late: EngineQuery['filters'] } {
  const owned = new Set((q.facets ?? []).map(ownFilter));
  const early: NonNullable<EngineQuery['filters']> = {};
  const late: NonNullable<EngineQuery['filters']> = {};
  for (const [name, value] of Object.entries(q.filters ?? {})) (owned.has(name) ? late : early)[name] = value;
  return { early, late };
}

/**
 * The texts of a document's name vectors (TSV_SQL): its first word, the maker, counted once, and its
 * brand and codes without the words the name has (shared/text/name-opener.ts); `name_norm`,
 * `brand_norm` and `codes` keep the values as they are.
 */
function nameText(d: SearchDoc): { name_text: string; name_stem: string; beside_name: string } {
  const once = openerOnce(d.nameNorm, d.nameStem);
  return { name_text: once.name, name_stem: once.stem, beside_name: beyondName(d.nameNorm, [d.brandNorm, ...d.codes]).join(' ') };
}

/** A facet's counts over the rows `source` (a FROM clause with its WHERE) gives: the matches with every filter except the facet's own. */
function facetQuery(name: string, source: SqlPart, tenantId: string): SqlPart {
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
