import type { Notices } from '../platform/notices.js';
import { RuleIndex, type RuleRow } from '../merchandising/index.js';
import { assignVariant, type Variant } from '../experiments/index.js';
import { TenantCache } from './tenant-cache.js';

/** What search holds per tenant for merchandising: the compiled rules and the running experiment. */
export interface MerchSnapshot {
  rules: RuleIndex;
  experiment: { id: string; variants: Variant[] } | null;
}

/** A search's place in the running experiment. */
export interface Assignment {
  experiment_id: string;
  variant: string;
  ranking: Record<string, unknown> | null;
  ruleIds: string[];
}

export interface MerchSources {
  rules(tenantId: string): Promise<RuleRow[]>;
  runningExperiment(tenantId: string): Promise<{ id: string; variants: Variant[] } | undefined>;
}

/**
 * The per-process merchandising state of each tenant (a TenantCache: memory only on the search
 * path). A `rules` or `experiments` notice drops the tenant's state, so the next search (in any
 * API process, within the notice's delivery) compiles the new rules; every 5 minutes it is
 * reloaded anyway in case a notice was lost.
 */
export class MerchState {
  private cache: TenantCache<MerchSnapshot>;

  constructor(src: MerchSources, notices: Notices, ttlMs = 5 * 60_000) {
    this.cache = new TenantCache(
      async (tenantId) => {
        const [rows, exp] = await Promise.all([src.rules(tenantId), src.runningExperiment(tenantId)]);
        return { rules: new RuleIndex(rows), experiment: exp ? { id: exp.id, variants: exp.variants } : null };
      },
      { ttlMs },
    );
    notices.on('rules', (id) => this.cache.forget(id));
    notices.on('experiments', (id) => this.cache.forget(id));
  }

  get(tenantId: string): Promise<MerchSnapshot> {
    return this.cache.get(tenantId);
  }
}

/** The session's variant of the running experiment; searches without a session are not in an experiment. */
export function assignmentOf(snapshot: MerchSnapshot, session: string | null): Assignment | null {
  const exp = snapshot.experiment;
  if (!exp || !session) return null;
  const v = assignVariant(exp.id, session, exp.variants);
  return { experiment_id: exp.id, variant: v.key, ranking: v.ranking, ruleIds: v.rule_ids };
}
