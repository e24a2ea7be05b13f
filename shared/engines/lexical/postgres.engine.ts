import type { Knex } from 'knex';
import type { EngineQuery, EngineResult, IndexSettings, LexicalEngine, SearchDoc } from './port.js';
import { filterSql, ORDER_BY, RANK_WEIGHTS, TSV_SQL, tsQuery } from './postgres.sql.js';

const FACET_LIMIT = 50;

/**
 * The built-in engine: per-tenant documents in `search_docs` of the same database, weighted
 * full-text vectors, trigram index on names, facet columns. A generation number per tenant
 * plays the role of Typesense's collection-behind-an-alias.
 */
export class PostgresEngine implements LexicalEngine {
  readonly name = 'postgres';

  constructor(private db: Knex) {}

  private async liveGenerations(tenantId: string): Promise<number[]> {
    await this.db.raw('INSERT INTO search_generations (tenant_id, active) VALUES (?, 1) ON CONFLICT DO NOTHING', [tenantId]);
    const row = await this.db('search_generations').where({ tenant_id: tenantId }).first();
    return row.building ? [row.active, row.building] : [row.active];
  }

  async upsert(tenantId: string, docs: SearchDoc[], _settings: IndexSettings): Promise<void> {
    if (!docs.length) return;
    for (const generation of await this.liveGenerations(tenantId)) await this.write(tenantId, generation, docs);
  }

  async writeGeneration(tenantId: string, generation: number, docs: SearchDoc[]): Promise<void> {
    if (docs.length) await this.write(tenantId, generation, docs);
  }

  /** One statement per chunk; a document never goes back to an older product version. */
  private async write(tenantId: string, generation: number, docs: SearchDoc[]): Promise<void> {
    const rows = docs.map((d) => ({
      product_id: d.id, name_norm: d.nameNorm, name_stem: d.nameStem, brand_norm: d.brandNorm, codes: d.codes,
      category_ids: d.categoryIds, category_paths: d.categoryPaths, category_text: d.categoryText,
      attribute_text: d.attributeText, description_norm: d.descriptionNorm, facets: d.facets, price: d.price,
      in_stock: d.inStock, visible: d.visible, popularity: d.popularity, margin: d.margin,
      created_at: new Date(d.createdAt).toISOString(), source_version: d.version ?? Date.now(), card: d.card,
    }));
    await this.db.raw(
      `INSERT INTO search_docs (tenant_id, generation, product_id, name_norm, brand_norm, codes, category_ids, category_paths,
                                facets, price, in_stock, visible, popularity, margin, created_at, source_version, card, tsv)
       SELECT ?, ?, v.product_id, v.name_norm, v.brand_norm, v.codes, v.category_ids, v.category_paths, v.facets, v.price,
              v.in_stock, v.visible, v.popularity, v.margin, v.created_at, v.source_version, v.card, ${TSV_SQL}
         FROM jsonb_to_recordset(?::jsonb) AS v(product_id text, name_norm text, name_stem text, brand_norm text, codes text[],
              category_ids text[], category_paths jsonb, category_text text, attribute_text text, description_norm text,
              facets jsonb, price float8, in_stock boolean, visible boolean, popularity float8, margin float8,
              created_at timestamptz, source_version bigint, card jsonb)
       ON CONFLICT (tenant_id, generation, product_id) DO UPDATE SET
         name_norm = EXCLUDED.name_norm, brand_norm = EXCLUDED.brand_norm, codes = EXCLUDED.codes,
         category_ids = EXCLUDED.category_ids, category_paths = EXCLUDED.category_paths, facets = EXCLUDED.facets,
         price = EXCLUDED.price, in_stock = EXCLUDED.in_stock, visible = EXCLUDED.visible, popularity = EXCLUDED.popularity,
         margin = EXCLUDED.margin, created_at = EXCLUDED.created_at, source_version = EXCLUDED.source_version,
         card = EXCLUDED.card, tsv = EXCLUDED.tsv
       WHERE search_docs.source_version <= EXCLUDED.source_version`,
      [tenantId, generation, JSON.stringify(rows)],
    );
  }

  async remove(tenantId: string, ids: string[]): Promise<void> {
    if (!ids.length) return;
    await this.db('search_docs').where({ tenant_id: tenantId }).whereIn('product_id', ids).delete();
  }

  async beginGeneration(tenantId: string, _settings: IndexSettings): Promise<number> {
    await this.liveGenerations(tenantId);
    return this.db.transaction(async (trx) => {
      const row = await trx('search_generations').where({ tenant_id: tenantId }).forUpdate().first();
      if (row.building) await trx('search_docs').where({ tenant_id: tenantId, generation: row.building }).delete();
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
    await this.db('search_docs').where({ tenant_id: tenantId, generation: old }).delete();
  }

  async dropGeneration(tenantId: string, generation: number): Promise<void> {
    await this.db('search_generations').where({ tenant_id: tenantId, building: generation }).update({ building: null });
    await this.db('search_docs').where({ tenant_id: tenantId, generation }).delete();
  }

  async dropTenant(tenantId: string): Promise<void> {
    await this.db('search_docs').where({ tenant_id: tenantId }).delete();
    await this.db('search_generations').where({ tenant_id: tenantId }).delete();
  }

  /** One round trip: matches, total, the page and the requested facets. */
  async search(q: EngineQuery): Promise<EngineResult> {
    const ts = tsQuery(q);
    const filters = filterSql(q.filters);
    const match = ts ? `AND tsv @@ to_tsquery('simple', ?)` : '';
    const score = ts ? `ts_rank(?::float4[], tsv, to_tsquery('simple', ?))` : '0';
    const facetNames = q.facets ?? [];
    const facetSql = facetNames.map((name) => facetQuery(name)).join(',\n');
    const sql = `
      WITH g AS (SELECT active FROM search_generations WHERE tenant_id = ?),
      m AS MATERIALIZED (
        SELECT product_id, card, price, popularity, created_at, in_stock, brand_norm, category_paths, facets, ${score} AS score
          FROM search_docs, g
         WHERE tenant_id = ? AND generation = g.active AND visible ${match} ${filters.sql}
      )
      SELECT (SELECT count(*) FROM m) AS total,
             (SELECT coalesce(json_agg(h), '[]') FROM (SELECT product_id AS id, score, card FROM m ORDER BY ${ORDER_BY[q.sort ?? 'relevance']} LIMIT ? OFFSET ?) h) AS hits
             ${facetSql ? `,\n${facetSql}` : ''}`;
    const bindings: Knex.RawBinding[] = [q.tenantId];
    if (ts) bindings.push(RANK_WEIGHTS, ts);
    bindings.push(q.tenantId);
    if (ts) bindings.push(ts);
    bindings.push(...(filters.bindings as Knex.RawBinding[]), q.limit, q.offset);
    for (const name of facetNames) bindings.push(...facetBindings(name));
    const { rows } = await this.db.raw(sql, bindings);
    const row = rows[0];
    return { total: Number(row.total), hits: row.hits, facets: remapFacetColumns(row, facetNames) };
  }
}

function facetQuery(name: string): string {
  const alias = `"facet_${name.replace(/"/g, '')}"`;
  if (name === 'price') return `(SELECT json_build_object('min', min(price), 'max', max(price)) FROM m) AS ${alias}`;
  const source = name === 'brand'
    ? `SELECT card->>'brand' AS value FROM m WHERE card->>'brand' IS NOT NULL`
    : name === 'in_stock'
      ? `SELECT in_stock::text AS value FROM m`
      : name === 'category'
        ? `SELECT c->-1->>'id' AS value FROM m, jsonb_array_elements(category_paths) c`
        : `SELECT jsonb_array_elements_text(CASE jsonb_typeof(facets->?) WHEN 'array' THEN facets->? ELSE jsonb_build_array(facets->?) END) AS value FROM m WHERE jsonb_exists(facets, ?)`;
  return `(SELECT coalesce(json_agg(b), '[]') FROM (SELECT value, count(*)::int AS count FROM (${source}) s GROUP BY value ORDER BY count DESC, value LIMIT ${FACET_LIMIT}) b) AS ${alias}`;
}

function facetBindings(name: string): string[] {
  return ['price', 'brand', 'in_stock', 'category'].includes(name) ? [] : [name, name, name, name];
}

function remapFacetColumns(row: Record<string, unknown>, names: string[]): EngineResult['facets'] {
  const out: EngineResult['facets'] = {};
  for (const name of names) out[name] = row[`facet_${name.replace(/"/g, '')}`] as never;
  return out;
}
