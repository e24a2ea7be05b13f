import type { Knex } from 'knex';
import type { SuggestTerm } from '../../search/vocabulary-builder.js';

export interface SuggestRow {
  kind: 'query' | 'brand' | 'category';
  norm: string;
  display: string;
  target: string | null;
  weight: number;
}

export function vocabularyRepo(db: Knex) {
  return {
    /** Replaces the tenant's vocabulary and suggestion dictionary in one transaction. */
    async replace(tenantId: string, terms: Map<string, number>, suggestions: SuggestTerm[]): Promise<void> {
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
        const words = [...terms.keys()];
        for (let i = 0; i < words.length; i += 20_000) {
          const chunk = words.slice(i, i + 20_000);
          await trx.raw(`INSERT INTO search_vocab (tenant_id, term, freq) SELECT ?, unnest(?::text[]), unnest(?::int[])`, [tenantId, chunk, chunk.map((w) => terms.get(w)!)]);
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
    async terms(tenantId: string): Promise<Map<string, number>> {
      const rows = await db('search_vocab').select('term', 'freq').where({ tenant_id: tenantId });
      return new Map(rows.map((r: { term: string; freq: number }) => [r.term, r.freq]));
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
