import { facetLimit, type EngineHit, type EngineResult, type FacetCount } from '../engines/lexical/port.js';

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
 * Facet counts of the organic matches (`a`, the engine's answer) and of the pinned products (`b`),
 * two disjoint sets under the same filters, added up so disjunctive counts stay exact; ranges take
 * the outer bounds. Buckets are ordered by count, then value, like the engine's, and cut at its limit
 * (facetLimit). When the engine's list was full, a value it left out has an organic count nobody
 * knows: a pinned product's value missing from it is left out too, rather than shown with the pin's
 * count alone.
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
    const limit = facetLimit(name);
    const full = x.length >= limit;
    const byValue = new Map<string, FacetCount>(x.map((bucket) => [bucket.value, { ...bucket }]));
    for (const bucket of y) {
      const prev = byValue.get(bucket.value);
      if (prev) byValue.set(bucket.value, { ...prev, count: prev.count + bucket.count, label: prev.label ?? bucket.label });
      else if (!full) byValue.set(bucket.value, { ...bucket });
    }
    out[name] = [...byValue.values()].sort((p, q) => q.count - p.count || (p.value < q.value ? -1 : p.value > q.value ? 1 : 0)).slice(0, limit);
  }
  return out;
}
