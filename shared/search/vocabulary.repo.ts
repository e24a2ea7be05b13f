import type { Knex } from 'knex';
import type { SuggestTerm } from './vocabulary-builder.js';
import type { CategoryProfile, LoadedProfile } from './category-profile.js';

export interface SuggestRow {
  kind: 'query' | 'brand' | 'category';
  norm: string;
  display: string;
  target: string | null;
  weight: number;
}

/** A store's vocabulary as kept: see vocabularyRepo.terms. */
export interface VocabularyCounts {
  terms: Map<string, number>;
  products: number;
  heads: Map<string, number>;
  nameWords: number;
  openings: Map<string, number>;
  variants: Map<string, string>;
  /** The store's description-only words with how many descriptions have them (VocabularyBuilder.describedTerms). */
  described: Map<string, number>;
}

/** The search_vocab row holding the number of products (see replace). */
const PRODUCTS_TERM = '';
/** The search_vocab row holding the products' name words, summed (no word is a space). */
const NAME_WORDS_TERM = ' ';

export function vocabularyRepo(db: Knex) {
  return {
    /**
     * Replaces the tenant's vocabulary, suggestion dictionary and category profiles in one
     * transaction. The number of products counted is kept as the frequency of the empty term
     * (no word is empty), the words of their names summed as that of a space. Description-only words
     * (`described`) are rows of their own with freq 0.
     */
    async replace(
      tenantId: string,
      terms: Map<string, number>,
      suggestions: SuggestTerm[],
      profiles: CategoryProfile[] = [],
      products = 0,
      heads = new Map<string, number>(),
      nameWords = 0,
      openings = new Map<string, number>(),
      variants = new Map<string, string>(),
      described = new Map<string, number>(),
    ): Promise<void> {
      const merged = new Map<string, SuggestTerm>();
      for (const s of suggestions) {
        const key = `${s.kind}\u0000${s.norm}`;
        const prev = merged.get(key);
        if (prev) prev.weight += s.weight;
        else merged.set(key, { ...s });
      }
      await db.transaction(async (trx) => {
        // Two rebuilds of one tenant must not interleave their delete-and-insert.
        await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`vocab:${tenantId}`]);
        await trx('search_vocab').where({ tenant_id: tenantId }).delete();
        await trx('suggest_terms').where({ tenant_id: tenantId }).delete();
        await trx('category_profiles').where({ tenant_id: tenantId }).delete();
        for (let i = 0; i < profiles.length; i += 2000) {
          await trx.raw(
            `INSERT INTO category_profiles (tenant_id, category, typical, common)
             SELECT ?, v.category, v.typical, ARRAY(SELECT jsonb_array_elements_text(v.common)) FROM jsonb_to_recordset(?::jsonb) AS v(category text, typical jsonb, common jsonb)`,
            [tenantId, JSON.stringify(profiles.slice(i, i + 2000))],
          );
        }
        await trx('search_vocab').insert([
          { tenant_id: tenantId, term: PRODUCTS_TERM, freq: products },
          { tenant_id: tenantId, term: NAME_WORDS_TERM, freq: nameWords },
        ]);
        const words = [...terms.keys()].filter((w) => w !== PRODUCTS_TERM && w !== NAME_WORDS_TERM);
        for (let i = 0; i < words.length; i += 20_000) {
          const chunk = words.slice(i, i + 20_000);
          await trx.raw(
            `INSERT INTO search_vocab (tenant_id, term, freq, heads, openings, variant)
             SELECT ?, unnest(?::text[]), unnest(?::int[]), unnest(?::int[]), unnest(?::int[]), unnest(?::text[])`,
            [
              tenantId,
              chunk,
              chunk.map((w) => terms.get(w)!),
              chunk.map((w) => heads.get(w) ?? 0),
              chunk.map((w) => openings.get(w) ?? 0),
              chunk.map((w) => variants.get(w) ?? null),
            ] as Knex.RawBinding[],
          );
        }
        const describedWords = [...described.keys()].filter((w) => !terms.has(w) && w !== PRODUCTS_TERM && w !== NAME_WORDS_TERM);
        for (let i = 0; i < describedWords.length; i += 20_000) {
          const chunk = describedWords.slice(i, i + 20_000);
          await trx.raw(`INSERT INTO search_vocab (tenant_id, term, freq, described) SELECT ?, unnest(?::text[]), 0, unnest(?::int[])`, [
            tenantId,
            chunk,
            chunk.map((w) => described.get(w)!),
          ] as Knex.RawBinding[]);
        }
        const rows = [...merged.values()];
        for (let i = 0; i < rows.length; i += 5000) {
          await trx.raw(
            `INSERT INTO suggest_terms (tenant_id, kind, norm, display, target, weight)
             SELECT ?, v.kind, v.norm, v.display, v.target, v.weight FROM jsonb_to_recordset(?::jsonb) AS v(kind text, norm text, display text, target text, weight float8)`,
            [tenantId, JSON.stringify(rows.slice(i, i + 5000))],
          );
        }
      });
    },
    /** The tenant's category profiles by category target (leaf id or level key). */
    async categoryProfiles(tenantId: string): Promise<Map<string, LoadedProfile>> {
      const rows = await db('category_profiles').select('category', 'typical', 'common').where({ tenant_id: tenantId });
      return new Map(
        rows.map((r: { category: string; typical: LoadedProfile['typical']; common: string[] }) => [
          r.category,
          { typical: r.typical, common: new Set(r.common) },
        ]),
      );
    },
    /**
     * Every word with its document frequency, the number of products they were counted over, their name words summed, the words that
     * are product types (heads), those that open names, spelling variants, and the description-only words.
     */
    async terms(tenantId: string): Promise<VocabularyCounts> {
      const all = await db('search_vocab').select('term', 'freq', 'heads', 'openings', 'variant', 'described').where({ tenant_id: tenantId });
      const described = new Map<string, number>();
      const rows: typeof all = [];
      for (const r of all) {
        if (r.described > 0) described.set(r.term, r.described);
        else rows.push(r);
      }
      const terms = new Map<string, number>(rows.map((r: { term: string; freq: number }) => [r.term, r.freq]));
      const heads = new Map<string, number>(rows.filter((r: { heads: number }) => r.heads > 0).map((r: { term: string; heads: number }) => [r.term, r.heads]));
      const openings = new Map<string, number>(
        rows.filter((r: { openings: number }) => r.openings > 0).map((r: { term: string; openings: number }) => [r.term, r.openings]),
      );
      const variants = new Map<string, string>(
        rows.filter((r: { variant: string | null }) => r.variant).map((r: { term: string; variant: string }) => [r.term, r.variant]),
      );
      const products = terms.get(PRODUCTS_TERM) ?? 0;
      const nameWords = terms.get(NAME_WORDS_TERM) ?? 0;
      terms.delete(PRODUCTS_TERM);
      terms.delete(NAME_WORDS_TERM);
      return { terms, products, heads, nameWords, openings, variants, described };
    },
    /**
     * The tenant's whole suggestion dictionary (matched in memory by SuggestDictionary), sorted
     * by norm in code point order so the API process need not sort it.
     */
    async suggestTerms(tenantId: string): Promise<SuggestRow[]> {
      return db('suggest_terms').select('kind', 'norm', 'display', 'target', 'weight').where({ tenant_id: tenantId }).orderByRaw('norm COLLATE "C"');
    },
  };
}
