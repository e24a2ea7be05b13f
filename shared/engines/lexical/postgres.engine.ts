import type { Knex } from 'knex';
import { categoryLabels, type EngineQuery, type EngineResult, type IndexSettings, type LexicalEngine, type SearchDoc, type StaleBuild } from './port.js';
import { filterSql, idSql, orderBy, nameWordsOf, tsQuery, TSV_SQL } from './postgres.sql.js';
import { cardOf, facetQuery, searchStatement } from './postgres.statement.js';
import { derivedWrite } from '../../platform/db/derived-write.js';
import { beyondName, openerOnce } from '../../text/name-opener.js';
import { StoreFacets } from './postgres.store-facets.js';
import * as generations from './postgres.generations.js';

const { deleteDocs } = generations;

/** An engine result without the generation it was read from. */
function strip({ generation: _g, ...res }: EngineResult & { generation?: number }): EngineResult {
  return res;
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
    // A category's label gathers every language its products give it: a product that names it in one language only
    // (a hidden draft, an untranslated one) adds or updates that language and never drops the others.
    for (const d of docs) for (const [id, label] of categoryLabels(d)) labels.set(id, { ...labels.get(id), ...label });
    await derivedWrite(this.db, async (trx) => {
      await trx.raw(UPSERT_DOCS, [JSON.stringify(rows), tenantId, generation, tenantId, generation]);
      if (!labels.size) return;
      await trx.raw(
        `INSERT INTO search_categories (tenant_id, id, label) SELECT ?, v.id, v.label FROM jsonb_to_recordset(?::jsonb) AS v(id text, label jsonb)
         ON CONFLICT (tenant_id, id) DO UPDATE SET label = search_categories.label || EXCLUDED.label WHERE NOT search_categories.label @> EXCLUDED.label`,
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

  async beginGeneration(tenantId: string, _settings: IndexSettings, owner?: string): Promise<number> {
    await this.liveGenerations(tenantId);
    return generations.beginGeneration(this.db, tenantId, owner ?? null);
  }

  async swapGeneration(tenantId: string, generation: number): Promise<void> {
    const old = await this.db.transaction(async (trx) => {
      const row = await trx('search_generations').where({ tenant_id: tenantId }).forUpdate().first();
      if (!row || row.building !== generation) throw new Error(`generation ${generation} is not being built for ${tenantId}`);
      await trx('search_generations')
        .where({ tenant_id: tenantId })
        .update({ active: generation, ...generations.NOT_BUILDING });
      return row.active as number;
    });
    this.storeFacets.changed(tenantId);
    await this.db.transaction((trx) => deleteDocs(trx, { tenant_id: tenantId, generation: old }));
    // A whole generation just changed: fresh statistics keep the planner on the text index.
    await this.db.raw('ANALYZE search_docs, search_cards');
  }

  async dropGeneration(tenantId: string, generation: number): Promise<void> {
    await generations.dropGeneration(this.db, tenantId, generation);
  }

  async dropBuild(tenantId: string, owner: string): Promise<number | null> {
    return generations.dropBuild(this.db, tenantId, owner);
  }

  async staleBuilds(olderThanMs: number): Promise<StaleBuild[]> {
    return generations.staleBuilds(this.db, olderThanMs);
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

  /** The engine statement (see search; built by postgres.statement.ts). */
  private async statement(q: EngineQuery): Promise<EngineResult & { generation: number }> {
    const { sql, bindings, defer } = searchStatement(q);
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

/**
 * The texts of a document's name vectors (TSV_SQL): its first word, the maker, counted once, and its
 * brand and codes without the words the name has (shared/text/name-opener.ts); `name_norm`,
 * `brand_norm` and `codes` keep the values as they are.
 */
function nameText(d: SearchDoc): { name_text: string; name_stem: string; beside_name: string } {
  const once = openerOnce(d.nameNorm, d.nameStem);
  return { name_text: once.name, name_stem: once.stem, beside_name: beyondName(d.nameNorm, [d.brandNorm, ...d.codes]).join(' ') };
}
