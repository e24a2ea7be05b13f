import { flipkartCategoryLevels, type FlipkartRaw } from '../catalog/flipkart.mapper.js';

/** The fields of a Flipkart record the mapper reads; the rest (`category_tree_raw`, `crawl_timestamp`) is left out of the sample. */
const KEPT = [
  'id',
  'pid',
  'name',
  'brand',
  'retail_price_inr',
  'discounted_price_inr',
  'product_rating',
  'overall_rating',
  'fk_advantage',
  'category_path',
  'description',
  'product_url',
];

/** Descriptions are cut to this many characters (at a word) so the shipped sample stays small. */
export const DESCRIPTION_CHARS = 400;

const hasPrice = (r: FlipkartRaw) => typeof r.retail_price_inr === 'number' || typeof r.discounted_price_inr === 'number';

/** Text cut at the last space before `max` characters, with "..." when something was cut. */
export function cutAtWord(value: string, max: number): string {
  if (value.length <= max) return value;
  const cut = value.slice(0, max);
  const space = cut.lastIndexOf(' ');
  return `${(space > max / 2 ? cut.slice(0, space) : cut).trimEnd()}...`;
}

/** Round-robin over groups (in group order) until every group is empty: neighbours in the result come from different groups. */
function interleave<T>(groups: T[][]): T[] {
  const out: T[] = [];
  for (let round = 0; groups.some((g) => round < g.length); round++) for (const g of groups) if (round < g.length) out.push(g[round]);
  return out;
}

/** Records grouped by a key, groups in key order, records in `order` inside each group. */
function groupBy(records: FlipkartRaw[], key: (r: FlipkartRaw) => string, order: (a: FlipkartRaw, b: FlipkartRaw) => number): FlipkartRaw[][] {
  const groups = new Map<string, FlipkartRaw[]>();
  for (const r of records) {
    const k = key(r);
    groups.set(k, [...(groups.get(k) ?? []), r]);
  }
  return [...groups.keys()].sort().map((k) => groups.get(k)!.sort(order));
}

/** Share per group, proportional to the square root of its size (capped at its size), the largest that fits in `n`. */
export function sqrtQuotas(sizes: number[], n: number): number[] {
  const at = (k: number) => sizes.map((s) => Math.min(s, Math.floor(Math.sqrt(s) * k)));
  const sum = (k: number) => at(k).reduce((a, b) => a + b, 0);
  let lo = 0;
  let hi = n;
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (sum(mid) <= n) lo = mid;
    else hi = mid;
  }
  return at(lo);
}

const levelsOf = (r: FlipkartRaw) => flipkartCategoryLevels(r.category_path, String(r.name));
const byId = (a: FlipkartRaw, b: FlipkartRaw) => String(a.id).localeCompare(String(b.id));
const hasBrand = (r: FlipkartRaw) => typeof r.brand === 'string' && r.brand.trim() !== '';
/** Records with a brand first (most have one; Flipkart left it empty on many watches), then by id. */
const brandedFirst = (a: FlipkartRaw, b: FlipkartRaw) => Number(hasBrand(b)) - Number(hasBrand(a)) || byId(a, b);

/**
 * A varied subset of the Flipkart catalog: records with a price and at least two category levels, one per distinct
 * name (the catalog repeats names for size and colour variants). Each top-level category gets a share proportional to
 * the square root of its size, so small categories are kept whole and large ones stay large without dominating; inside
 * one, records are taken round-robin over the second-level categories, branded records first. Deterministic: groups in
 * name order, records in id order (ids are hashes, so that order is arbitrary). The result is in id order.
 */
export function selectFlipkartSample(records: Iterable<FlipkartRaw>, n: number): FlipkartRaw[] {
  const seen = new Set<string>();
  const candidates: FlipkartRaw[] = [];
  for (const r of [...records].sort(byId)) {
    const name = typeof r.name === 'string' ? r.name.trim().toLowerCase().replace(/\s+/g, ' ') : '';
    if (!name || !hasPrice(r) || levelsOf(r).length < 2 || seen.has(name)) continue;
    seen.add(name);
    candidates.push(r);
  }
  const tops = groupBy(candidates, (r) => levelsOf(r)[0], byId).map((top) => interleave(groupBy(top, (r) => levelsOf(r)[1], brandedFirst)));
  const quotas = sqrtQuotas(
    tops.map((t) => t.length),
    n,
  );
  return tops
    .flatMap((t, i) => t.slice(0, quotas[i]))
    .sort(byId)
    .map(trimRecord);
}

/** Only the fields the mapper reads, the description cut to DESCRIPTION_CHARS. */
function trimRecord(r: FlipkartRaw): FlipkartRaw {
  const out: FlipkartRaw = {};
  for (const k of KEPT) if (r[k] !== undefined && r[k] !== null) out[k] = r[k];
  if (typeof out.description === 'string') out.description = cutAtWord(out.description, DESCRIPTION_CHARS);
  return out;
}
