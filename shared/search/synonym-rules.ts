import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import { normalizeText } from '../text/normalize.js';

/**
 * What the search path reads about synonyms: the enabled rules that apply to a tenant (its own and
 * the platform's global ones) with every text normalized like queries are, and the Redis channel
 * on which every write announces a change so processes drop their cached rules.
 */
export interface SynonymRule {
  id: string;
  kind: 'equivalent' | 'one_way';
  /** equivalent: every term matches every other. */
  terms: string[];
  /** one_way: this phrase also searches `outputs`. */
  input: string | null;
  outputs: string[];
  /** one_way only: skip when any unless_terms phrase is in the query; apply only when every require_terms phrase is. */
  conditions: { unless_terms: string[]; require_terms: string[] } | null;
  /** The tenant's named set (matched against the search's synonym_sets); not meaningful for global rules. */
  setKey: string;
  locale: string | null;
  /** A platform rule: applies unless the search turns global_synonyms off. */
  global: boolean;
}

interface StoredRule {
  id: string;
  tenant_id: string | null;
  kind: 'equivalent' | 'one_way';
  terms: string[];
  input: string | null;
  outputs: string[];
  conditions: { unless_terms?: string[]; require_terms?: string[] } | null;
  set_key: string;
  locale: string | null;
}

/** The enabled rules of a tenant, then the enabled global rules, each in creation order. */
export async function loadSynonymRules(db: Knex, tenantId: string): Promise<SynonymRule[]> {
  const rows: StoredRule[] = await db('synonyms')
    .select('id', 'tenant_id', 'kind', 'terms', 'input', 'outputs', 'conditions', 'set_key', 'locale')
    .where({ enabled: true })
    .andWhere((w) => w.where({ tenant_id: tenantId }).orWhereNull('tenant_id'))
    .orderByRaw('tenant_id IS NULL, created_at, id');
  return rows.map(compactRule);
}

/** One stored row in the compact, normalized shape (empty texts dropped). */
export function compactRule(r: StoredRule): SynonymRule {
  const n = (xs: string[] | undefined) => (xs ?? []).map((x) => normalizeText(x)).filter(Boolean);
  return {
    id: r.id, kind: r.kind, terms: n(r.terms), input: r.input ? normalizeText(r.input) || null : null, outputs: n(r.outputs),
    conditions: r.conditions ? { unless_terms: n(r.conditions.unless_terms), require_terms: n(r.conditions.require_terms) } : null,
    setKey: r.set_key, locale: r.locale, global: r.tenant_id === null,
  };
}

export const synonymsChangedChannel = (queuePrefix: string) => `${queuePrefix}:synonyms-changed`;

/**
 * Announces a synonym change to every process (message: the tenant id, or `*` for global rules),
 * after the write committed. This process also drops the tenant's cached context at once.
 */
export async function noticeSynonymsChanged(
  deps: { redis: Redis; config: { queuePrefix: string }; contexts?: { forget(tenantId: string): void; results: { clear(tenantId: string): void } } },
  tenantId: string | null,
): Promise<void> {
  if (tenantId !== null && deps.contexts) {
    deps.contexts.forget(tenantId);
    deps.contexts.results.clear(tenantId);
  }
  await deps.redis.publish(synonymsChangedChannel(deps.config.queuePrefix), tenantId ?? '*');
}
