import type { ClickStat } from './signals.repo.js';

/** Largest factor a product's score gets from clicks (bounded: clicks reorder, never bury relevance). */
export const MAX_CLICK_FACTOR = 5;
/** A product is passed over when its click rate per examination is, with 90 % confidence, below this. */
export const PASSED_OVER_RATE = 0.15;
/** One-sided 90 % normal quantile (the Wilson bound of passedOver). */
const Z90 = 1.2816;

/**
 * Whether shoppers pass over a product they were shown: the upper end of the Wilson interval of
 * its click rate per examination (clicks / examinations, examinations being the position-bias
 * model's expected looks) is below PASSED_OVER_RATE. Few examinations never decide it (the
 * interval is wide); a product at the top of many first pages with a few stray clicks does.
 */
export function passedOver(clicks: number, examinations: number): boolean {
  if (examinations <= 0 || clicks >= examinations) return false;
  const n = examinations;
  const p = clicks / n;
  const z2 = Z90 * Z90;
  const upper = (p + z2 / (2 * n) + Z90 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return upper < PASSED_OVER_RATE;
}

/** What a query's shoppers taught: chosen products' attractiveness (0..1), and the products they pass over. */
export interface QueryClicks {
  boosts: Map<string, number>;
  passed: Set<string>;
}

/** One store's statistics: those answering, and whether a load of newer ones is under way or when one may start. */
interface Held {
  stats: Promise<Map<string, QueryClicks>>;
  /** When the statistics answering were read (a reload starts a minute later). */
  at: number;
  /** A signals notice came after they were read. */
  stale: boolean;
  loading: boolean;
  /** A failed reload: the next one starts no sooner. */
  retryAt: number;
}

/**
 * Click statistics of each store held per process (loaded on first use, reloaded after a
 * signals notice or a minute): for a normalized query, the products shoppers chose and their
 * position-bias-corrected attractiveness (0..1), and the products they were shown and pass over.
 * One load per store is in flight at a time: searches meanwhile use the statistics held (or wait
 * on the first load). A first load that fails rejects the searches waiting on it and is not held
 * (the next search loads again); a reload that fails keeps the old statistics, and the next one
 * starts no sooner than `retryMs` later.
 */
export class ClickBoosts {
  private held = new Map<string, Held>();

  constructor(
    private load: (tenantId: string) => Promise<ClickStat[]>,
    private ttlMs = 60_000,
    private retryMs = 5_000,
    private now: () => number = Date.now,
  ) {}

  changed(tenantId: string): void {
    const h = this.held.get(tenantId);
    if (h) h.stale = true;
  }

  async forQuery(tenantId: string, query: string): Promise<QueryClicks | null> {
    let h = this.held.get(tenantId);
    if (!h) {
      h = { stats: this.read(tenantId), at: this.now(), stale: false, loading: true, retryAt: 0 };
      const first = h;
      this.held.set(tenantId, first);
      first.stats.then(
        () => void (first.loading = false),
        // A failed first load is not held: the next search loads again.
        () => this.held.get(tenantId) === first && this.held.delete(tenantId),
      );
    } else if (!h.loading && (h.stale || this.now() - h.at > this.ttlMs) && this.now() >= h.retryAt) {
      this.reload(tenantId, h);
    }
    return (await h.stats).get(query) ?? null;
  }

  /** Newer statistics in the background; the old ones answer until they are in. */
  private reload(tenantId: string, h: Held): void {
    const started = this.now();
    // A notice during the reload may come after its read: it marks the statistics stale again.
    const wasStale = h.stale;
    h.stale = false;
    h.loading = true;
    const stats = this.read(tenantId);
    stats.then(
      () => {
        h.loading = false;
        h.stats = stats;
        h.at = started;
      },
      () => {
        h.loading = false;
        h.stale ||= wasStale;
        h.retryAt = this.now() + this.retryMs;
      },
    );
  }

  private read(tenantId: string): Promise<Map<string, QueryClicks>> {
    return this.load(tenantId).then((rows) => {
      const out = new Map<string, QueryClicks>();
      for (const r of rows) {
        let m = out.get(r.query);
        if (!m) out.set(r.query, (m = { boosts: new Map(), passed: new Set() }));
        if (Number(r.clicks) > 0) m.boosts.set(r.product_id, Number(r.attractiveness));
        if (passedOver(Number(r.clicks), Number(r.examinations))) m.passed.add(r.product_id);
      }
      return out;
    });
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

/**
 * Skips as evidence (after the cascade model): the products shoppers were shown and pass over
 * (`passed`) move below every other candidate, the query's matches not yet shown among them, in
 * their order otherwise. They stay in the results; what they make room for matches the query
 * (callers pass matching products only), and its own clicks or skips decide at the next recompute.
 */
export function passBelow<T extends { id: string }>(ranked: T[], passed: Set<string>): T[] {
  if (!passed.size) return ranked;
  return [...ranked.filter((h) => !passed.has(h.id)), ...ranked.filter((h) => passed.has(h.id))];
}
