import type { EngineHit, EngineResult, FacetCount } from '../engines/lexical/port.js';

/**
 * Pins across pages. The organic list is the engine's answer without the pinned products;
 * pinned products that pass the search's filters take their positions in the combined list
 * (positions past the end of the organic list close up behind it). Page `offset..offset+limit`
 * of the combined list needs at most the organic rows `offset - before .. offset + limit`, where
 * `before` counts the pins at or before `offset`: one engine query with that window serves any
 * page, whichever pins turn out to pass the filters.
 */
export function organicWindow(positions: number[], offset: number, limit: number): { offset: number; limit: number } {
  const before = positions.filter((p) => p <= offset).length;
  return { offset: offset - before, limit: limit + before };
}

/** The page of the combined list: `organic` are the engine's hits from `windowOffset` on; `pins` passed the filters, by position. */
export function placePins(
  pins: Array<{ hit: EngineHit; position: number }>,
  organic: EngineHit[],
  organicTotal: number,
  windowOffset: number,
  offset: number,
  limit: number,
): EngineHit[] {
  const placed = pins.map((p, i) => ({ hit: p.hit, position: Math.min(p.position, organicTotal + i + 1) }));
  const total = organicTotal + placed.length;
  let next = offset - placed.filter((p) => p.position <= offset).length;
  const at = new Map(placed.map((p) => [p.position, p.hit]));
  const page: EngineHit[] = [];
  for (let pos = offset + 1; pos <= Math.min(offset + limit, total); pos++) {
    const pin = at.get(pos);
    if (pin) {
      page.push(pin);
      continue;
    }
    const hit = organic[next - windowOffset];
    next++;
    if (hit) page.push(hit);
  }
  return page;
}

/**
 * Facet counts of two disjoint sets of matches added up (the organic matches and the pinned
 * products, both under the same filters, so disjunctive counts stay exact); ranges take the
 * outer bounds. Buckets are ordered by count, then value, like the engine's.
 */
export function addFacets(a: EngineResult['facets'], b: EngineResult['facets']): EngineResult['facets'] {
  const out: EngineResult['facets'] = {};
  for (const name of new Set([...Object.keys(a), ...Object.keys(b)])) {
    const x = a[name];
    const y = b[name];
    if (!x || !y) {
      out[name] = (x ?? y)!;
      continue;
    }
    if (!Array.isArray(x) || !Array.isArray(y)) {
      const rx = x as { min: number | null; max: number | null };
      const ry = y as { min: number | null; max: number | null };
      const pick = (u: number | null, v: number | null, f: (...n: number[]) => number) => (u === null ? v : v === null ? u : f(u, v));
      out[name] = { min: pick(rx.min, ry.min, Math.min), max: pick(rx.max, ry.max, Math.max) };
      continue;
    }
    const byValue = new Map<string, FacetCount>();
    for (const bucket of [...x, ...y]) {
      const prev = byValue.get(bucket.value);
      byValue.set(bucket.value, prev ? { ...prev, count: prev.count + bucket.count, label: prev.label ?? bucket.label } : { ...bucket });
    }
    out[name] = [...byValue.values()].sort((p, q) => q.count - p.count || (p.value < q.value ? -1 : p.value > q.value ? 1 : 0));
  }
  return out;
}
