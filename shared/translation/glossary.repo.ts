import type { Knex } from 'knex';
import { conflict } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import type { GlossaryTermInput } from './translation.schema.js';

export interface GlossaryRow {
  tenant_id: string;
  id: string;
  source_locale: string;
  target_locale: string;
  source_term: string;
  target_term: string | null;
  do_not_translate: boolean;
  case_sensitive: boolean;
  note: string | null;
  created_at: Date;
  updated_at: Date;
}

/** Most terms one tenant may keep (every text of a backfill is matched against its pair's terms). */
export const MAX_GLOSSARY_TERMS = 5000;

const duplicate = () => conflict('glossary_duplicate', 'the glossary already has this source term for this locale pair');
const isUnique = (err: unknown) => (err as { code?: string }).code === '23505';

/**
 * Whether another term of the pair already matches this one's source term. A case-insensitive term
 * matches every casing, so "Zara" beside "zara" would leave two rules for one token (which one wins
 * was down to sort order); only two case-sensitive terms may differ in case alone.
 */
async function clashes(db: Knex, tenantId: string, input: GlossaryTermInput, exceptId?: string): Promise<boolean> {
  const q = db('translation_glossary')
    .where({ tenant_id: tenantId, source_locale: input.source_locale, target_locale: input.target_locale })
    .andWhereRaw('lower(source_term) = lower(?)', [input.source_term]);
  if (exceptId) q.whereNot({ id: exceptId });
  if (input.case_sensitive) q.andWhere((b) => b.where({ source_term: input.source_term }).orWhere({ case_sensitive: false }));
  return !!(await q.first('id'));
}

const lockTenant = (trx: Knex, tenantId: string) => trx.raw(`SELECT pg_advisory_xact_lock(hashtextextended('translation-glossary:' || ?, 0))`, [tenantId]);

function values(input: GlossaryTermInput) {
  return {
    source_locale: input.source_locale,
    target_locale: input.target_locale,
    source_term: input.source_term,
    target_term: input.target_term ?? null,
    do_not_translate: input.do_not_translate,
    case_sensitive: input.case_sensitive,
    note: input.note ?? null,
  };
}

export function glossaryRepo(db: Knex) {
  return {
    /** Oldest first; the cursor holds the last row's (created_at, id) at millisecond precision. */
    async list(tenantId: string, opts: { after?: { at: string; id: string }; limit: number }): Promise<GlossaryRow[]> {
      const q = db<GlossaryRow>('translation_glossary').where({ tenant_id: tenantId });
      if (opts.after) q.andWhereRaw(`(date_trunc('milliseconds', created_at), id) > (?::timestamptz, ?)`, [opts.after.at, opts.after.id]);
      return q.orderByRaw(`date_trunc('milliseconds', created_at), id`).limit(opts.limit);
    },
    async count(tenantId: string): Promise<number> {
      const [{ n }] = await db('translation_glossary').where({ tenant_id: tenantId }).count({ n: '*' });
      return Number(n);
    },
    /** The terms that apply to one locale pair. */
    async forPair(tenantId: string, source: string, target: string): Promise<GlossaryRow[]> {
      return db<GlossaryRow>('translation_glossary').where({ tenant_id: tenantId, source_locale: source, target_locale: target });
    },
    async create(tenantId: string, input: GlossaryTermInput): Promise<GlossaryRow> {
      return db.transaction(async (trx) => {
        // One writer at a time per tenant, so the cap and the case-insensitive duplicate check hold under concurrent requests.
        await lockTenant(trx, tenantId);
        const [{ n }] = await trx('translation_glossary').where({ tenant_id: tenantId }).count({ n: '*' });
        if (Number(n) >= MAX_GLOSSARY_TERMS) throw conflict('glossary_full', `a glossary holds at most ${MAX_GLOSSARY_TERMS} terms`);
        if (await clashes(trx, tenantId, input)) throw duplicate();
        try {
          const [row] = await trx('translation_glossary')
            .insert({ tenant_id: tenantId, id: newId('gt'), ...values(input) })
            .returning('*');
          return row as GlossaryRow;
        } catch (err) {
          throw isUnique(err) ? duplicate() : err;
        }
      });
    },
    async replace(tenantId: string, id: string, input: GlossaryTermInput): Promise<GlossaryRow | undefined> {
      return db.transaction(async (trx) => {
        await lockTenant(trx, tenantId);
        // Another tenant's or an unknown id is a 404 whatever the body says, before any duplicate check.
        if (!(await trx('translation_glossary').where({ tenant_id: tenantId, id }).first('id'))) return undefined;
        if (await clashes(trx, tenantId, input, id)) throw duplicate();
        try {
          const [row] = await trx('translation_glossary')
            .where({ tenant_id: tenantId, id })
            .update({ ...values(input), updated_at: trx.fn.now() })
            .returning('*');
          return row as GlossaryRow | undefined;
        } catch (err) {
          throw isUnique(err) ? duplicate() : err;
        }
      });
    },
    async remove(tenantId: string, id: string): Promise<boolean> {
      return (await db('translation_glossary').where({ tenant_id: tenantId, id }).delete()) > 0;
    },
  };
}
