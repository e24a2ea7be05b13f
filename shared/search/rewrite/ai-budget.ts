import type { Redis } from 'ioredis';

/** UTC month of a time, as usage keys name it. */
const monthOf = (now: Date) => now.toISOString().slice(0, 7);

/**
 * Each store's AI spend this month, in micro-USD: the `ai_cost_micros_usd` usage metric, kept in
 * Redis under the usage keys' naming (`<prefix>:usage:ai_cost_micros_usd:<tenant>:<YYYY-MM>`) so
 * every API process adds to one total. The monthly budget comes from the store's plan once the
 * billing area provides it (`planBudget`), else from AI_BUDGET_MICROS_USD.
 */
export class AiBudget {
  constructor(
    private redis: Pick<Redis, 'get' | 'incrby' | 'expire'>,
    private prefix: string,
    private defaultMicros: number,
    /** The plan's budget: a number, null for "no fixed budget", undefined to use the default. */
    private planBudget: (tenantId: string) => Promise<number | null | undefined> = async () => undefined,
  ) {}

  key(tenantId: string, now = new Date()): string {
    return `${this.prefix}:usage:ai_cost_micros_usd:${tenantId}:${monthOf(now)}`;
  }

  async spent(tenantId: string, now = new Date()): Promise<number> {
    return Number((await this.redis.get(this.key(tenantId, now))) ?? 0);
  }

  /** The month's budget in micro-USD; null: no limit. */
  async limit(tenantId: string): Promise<number | null> {
    const plan = await this.planBudget(tenantId);
    return plan === undefined ? this.defaultMicros : plan;
  }

  /** Whether the store may still call the model this month (spent below its budget). */
  async allows(tenantId: string): Promise<{ ok: boolean; spent: number; limit: number | null }> {
    const [spent, limit] = await Promise.all([this.spent(tenantId), this.limit(tenantId)]);
    return { ok: limit === null || spent < limit, spent, limit };
  }

  async add(tenantId: string, micros: number, now = new Date()): Promise<void> {
    if (micros <= 0) return;
    const key = this.key(tenantId, now);
    await this.redis.incrby(key, Math.ceil(micros));
    await this.redis.expire(key, 70 * 86400);
  }
}
