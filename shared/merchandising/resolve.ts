import type { FilterValue } from '../engines/lexical/port.js';
import { contextHolds, type Candidate } from './rule-index.js';
import type { RuleConsequencesT } from './rule.schema.js';

/** What the applied rules add up to, in the response's terms. */
export interface MerchPlan {
  redirect: { url: string; rule_id: string } | null;
  banners: Array<{ id: string; html: string | null; image_url: string | null; link_url: string | null; position: 'top' | 'inline' | 'bottom' }>;
  /** Pinned product ids by position (1-based), ascending. */
  pins: Array<{ id: string; position: number }>;
  hides: Set<string>;
  boosts: Array<{ filters: Record<string, FilterValue>; factor: number }>;
  addFilters: Record<string, FilterValue>;
  /** Every matching rule, applied or skipped, with the reason (debug trace). */
  trace: Array<{ rule_id: string; name: string; applied: boolean; reason?: string; notes?: string[] }>;
}

export interface ResolveOptions {
  filters: Record<string, FilterValue>;
  /** RankingConfig merch_rules: false skips every rule. */
  enabled: boolean;
  disabledIds: ReadonlySet<string>;
  /** Rules an experiment variant switches on for this search, even when disabled. */
  forcedIds: ReadonlySet<string>;
  now: number;
  /**
   * What keeps a rule's filter from applying now, if anything: a name the store does not filter by
   * (an attribute unmapped since), or a value of the wrong shape for it (a list for `price`, stored
   * before rule filters were checked). Such a filter to add, boost or bury is skipped (a trace note),
   * not applied: the engine would match nothing and empty every search the rule meets.
   */
  filterProblem(name: string, value: unknown): string | null;
}

/**
 * Conflict order: priority (higher first), then specificity of the matching pattern (`is`, then
 * `starts_with`, then `contains`, then no pattern), longer pattern first, then the older rule
 * (then the id, so the order is total). In that order: the first redirect wins, each pin position
 * goes to the first rule that claims it (a product keeps its first position), hides are unioned,
 * banners are collected in order, boosts and buries all apply, and for filters to add the first
 * rule naming a filter wins.
 */
export function resolveRules(candidates: Candidate[], opts: ResolveOptions): MerchPlan {
  const plan: MerchPlan = { redirect: null, banners: [], pins: [], hides: new Set(), boosts: [], addFilters: {}, trace: [] };
  const ordered = [...candidates].sort(
    (a, b) =>
      b.rule.priority - a.rule.priority ||
      b.specificity - a.specificity ||
      b.length - a.length ||
      a.rule.createdAt - b.rule.createdAt ||
      (a.rule.id < b.rule.id ? -1 : a.rule.id > b.rule.id ? 1 : 0),
  );
  const takenPositions = new Set<number>();
  const pinned = new Set<string>();
  for (const { rule } of ordered) {
    const skip = (reason: string) => plan.trace.push({ rule_id: rule.id, name: rule.name, applied: false, reason });
    const forced = opts.forcedIds.has(rule.id);
    if (!opts.enabled) {
      skip('merch_rules_off');
      continue;
    }
    if (opts.disabledIds.has(rule.id)) {
      skip('disabled_by_config');
      continue;
    }
    if (!rule.enabled && !forced) {
      skip('disabled');
      continue;
    }
    if (rule.from !== null && opts.now < rule.from) {
      skip('not_yet_active');
      continue;
    }
    if (rule.until !== null && opts.now >= rule.until) {
      skip('expired');
      continue;
    }
    if (!contextHolds(rule, opts.filters)) {
      skip('filter_context_not_met');
      continue;
    }
    const notes: string[] = [];
    apply(rule.id, rule.consequences, plan, { takenPositions, pinned, notes, filterProblem: opts.filterProblem });
    plan.trace.push({
      rule_id: rule.id,
      name: rule.name,
      applied: true,
      ...(forced && !rule.enabled ? { reason: 'experiment_variant' } : {}),
      ...(notes.length ? { notes } : {}),
    });
  }
  // A hidden product is never shown, pinned or not (hiding is for products that must not appear).
  plan.pins = plan.pins.filter((p) => !plan.hides.has(p.id)).sort((a, b) => a.position - b.position);
  return plan;
}

interface Seen {
  takenPositions: Set<number>;
  pinned: Set<string>;
  notes: string[];
  filterProblem(name: string, value: unknown): string | null;
}

function apply(ruleId: string, c: RuleConsequencesT, plan: MerchPlan, seen: Seen) {
  if (c.redirect) {
    if (!plan.redirect) plan.redirect = { url: c.redirect.url, rule_id: ruleId };
    else seen.notes.push(`redirect: rule ${plan.redirect.rule_id} came first`);
  }
  c.banners.forEach((b, i) =>
    plan.banners.push({
      id: `${ruleId}-${i + 1}`,
      html: b.html ?? null,
      image_url: b.image_url ?? null,
      link_url: b.link_url ?? null,
      position: b.position,
    }),
  );
  for (const p of c.pins) {
    if (seen.takenPositions.has(p.position)) {
      seen.notes.push(`pin ${p.product_id}: position ${p.position} taken by an earlier rule`);
      continue;
    }
    if (seen.pinned.has(p.product_id)) {
      seen.notes.push(`pin ${p.product_id}: pinned by an earlier rule`);
      continue;
    }
    seen.takenPositions.add(p.position);
    seen.pinned.add(p.product_id);
    plan.pins.push({ id: p.product_id, position: p.position });
  }
  for (const id of c.hides) plan.hides.add(id);
  for (const kind of ['boosts', 'buries'] as const) {
    c[kind].forEach((b, i) => {
      const problem = Object.entries(b.filters)
        .map(([name, value]) => seen.filterProblem(name, value))
        .find(Boolean);
      if (problem) seen.notes.push(`${kind}.${i}: ${problem}; skipped`);
      else plan.boosts.push({ filters: b.filters as Record<string, FilterValue>, factor: kind === 'boosts' ? 1 + b.weight : 1 / (1 + b.weight) });
    });
  }
  for (const [name, value] of Object.entries(c.add_filters ?? {})) {
    const problem = seen.filterProblem(name, value);
    if (problem) seen.notes.push(`add_filters.${name}: ${problem}; skipped`);
    else if (name in plan.addFilters) seen.notes.push(`add_filters.${name}: set by an earlier rule`);
    else plan.addFilters[name] = value as FilterValue;
  }
}
