import type { ClickStat } from './signals.repo.js';

/** Largest factor a product's score gets from clicks (bounded: clicks reorder, never bury relevance). */
export const MAX_CLICK_FACTOR = 5;

/**
 * Click statistics of each store held per process (loaded on first use, reloaded after a
 * signals notice or a minute): for a normalized query, the products shoppers chose and their
 * position-bias-corrected attractiveness (0..1).
 */
export class ClickBoosts {
  private held = new Map<string, { at: number; stale: boolean; stats: Promise<Map<string, Map<string, number>>> }>();

  constructor(
    private load: (tenantId: string) => Promise<ClickStat[]>,
    private ttlMs = 60_000,
  ) {}

  changed(tenantId: string): void {
    const h = this.held.get(tenantId);
    if (h) h.stale = true;
  }

  async forQuery(tenantId: string, query: string): Promise<Map<string, number> | null> {
    let h = this.held.get(tenantId);
    if (!h || h.stale || Date.now() - h.at > this.ttlMs) {
      const stats = this.load(tenantId).then((rows) => {
        const out = new Map<string, Map<string, number>>();
        for (const r of rows) {
          let m = out.get(r.query);
          if (!m) out.set(r.query, (m = new Map()));
          m.set(r.product_id, Number(r.attractiveness));
        }
        return out;
      });
      const next = { at: Date.now(), stale: false, stats };
      // The old statistics answer until the new ones are in.
      if (h)
        stats.then(
          () => this.held.set(tenantId, next),
          () => undefined,
        );
      else this.held.set(tenantId, (h = next));
      if (h !== next) h.at = Date.now();
    }
    return (await h.stats).get(query) ?? null;
  }
}

/**
 * Reorders hits with click attractiveness a (0..1): score = 1/(k + rank) x (1 + 4 x a^1.5), at
 * most 5x. The power keeps occasional clicks (a = 0.05: 1.04x) from moving a product while a
 * product most searchers choose (a = 0.9: 4.4x) rises over the top ranks. Hits are only those that
 * matched the query (callers pass matching products only).
 */
export function clickOrder<T extends { id: string }>(ranked: T[], boosts: Map<string, number>, k = 10): T[] {
  const scored = ranked.map((h, i) => ({ h, s: (1 / (k + i + 1)) * (1 + (MAX_CLICK_FACTOR - 1) * Math.min(1, boosts.get(h.id) ?? 0) ** 1.5), i }));
  return scored.sort((a, b) => b.s - a.s || a.i - b.i).map((x) => x.h);
}
