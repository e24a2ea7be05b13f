import { AppError } from '../platform/errors.js';
import { usagePeriod, type UsageCounter } from '../usage/index.js';
import { searchesWithoutPlan } from '../platform/metrics.js';
import type { Entitlement, Entitlements } from './entitlements.js';

/**
 * Billed-search metering and the searches quota on the search path: one cached entitlement
 * read and in-memory counting, no database write. `enabled: false` (USAGE_METERING=off, for
 * benchmarks) counts nothing and checks nothing. When no plan can be read (Entitlements rejects)
 * the search fails open: no quota check, still counted, `limit=unknown` in the header.
 */
export class SearchMeter {
  constructor(
    private usage: UsageCounter,
    private entitlements: Pick<Entitlements, 'get'>,
    private enabled = true,
  ) {}

  /**
   * Refuses a billed search on a plan with a hard limit (free) once the month's searches reached
   * it: 402 `search_quota_exceeded`, which storefront clients treat like any search failure
   * (fall back to the store's own search, spec 7.4). Paid plans always pass and accrue overage.
   * A plan that cannot be read lets the search through: a billing hiccup never takes search down.
   */
  async admit(tenantId: string, billed: number): Promise<void> {
    if (!this.enabled || billed === 0) return;
    const ent = await this.plan(tenantId);
    if (!ent) return;
    const limit = ent.plan.searches_limit;
    if (!ent.plan.overage.hard_limit || limit === null) return;
    const used = Math.max(this.usage.used(tenantId), ent.searchesRolled);
    if (used + billed > limit) {
      throw new AppError(
        'search_quota_exceeded',
        402,
        `the ${ent.plan.name} plan's ${limit} searches this month are used up; fall back to the store's own search`,
        {
          limit,
          used,
          period: usagePeriod().month,
        },
      );
    }
  }

  /** Counts `billed` searches and returns the X-Service-Usage header value. */
  async record(tenantId: string, billed: number): Promise<string> {
    const period = usagePeriod().month;
    if (!this.enabled) return `searches=0; limit=unlimited; billed=${billed}; period=${period}`;
    if (billed) this.usage.count(tenantId, 'search', billed);
    const ent = await this.plan(tenantId);
    if (!ent) {
      if (billed) searchesWithoutPlan.inc(billed);
      return `searches=${this.usage.used(tenantId)}; limit=unknown; billed=${billed}; period=${period}`;
    }
    const used = Math.max(this.usage.used(tenantId), ent.searchesRolled);
    return `searches=${used}; limit=${ent.plan.searches_limit ?? 'unlimited'}; billed=${billed}; period=${period}`;
  }

  /** The store's plan, or null when it cannot be read (Entitlements logs that, once per store per back-off). */
  private async plan(tenantId: string): Promise<Entitlement | null> {
    try {
      return await this.entitlements.get(tenantId);
    } catch {
      return null;
    }
  }
}
