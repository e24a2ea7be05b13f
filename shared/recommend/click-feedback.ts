/** How deep in a query's own matches the products like the chosen ones are looked for. */
export const FEEDBACK_DEPTH = 50;
/** A product counts as chosen from this attractiveness on (occasional clicks do not). */
export const FEEDBACK_MIN_ATTRACTIVENESS = 0.2;
/** Only this close (cosine of catalog vectors) to a chosen product does a product inherit from it. */
export const FEEDBACK_MIN_COSINE = 0.5;
/** A product without clicks of its own gets at most this share of a chosen product's attractiveness. */
export const FEEDBACK_SHARE = 0.5;

function cosine(a: Float32Array, b: Float32Array): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/**
 * Click feedback (relevance feedback from clicks, after Rocchio): shoppers only see the first
 * page, so what they chose says nothing directly about the query's deeper matches. A deeper match
 * that no shopper was shown inherits attractiveness from the chosen product it is closest to
 * (catalog vectors): FEEDBACK_SHARE x a(chosen) x cosine, when the cosine is at least
 * FEEDBACK_MIN_COSINE. Products with statistics of their own keep them (a product shown and
 * passed over stays low). Returns the observed statistics with the inherited ones added.
 */
export function clickFeedback(observed: Map<string, number>, vectors: Map<string, Float32Array>, candidates: string[]): Map<string, number> {
  const chosen = [...observed].filter(([id, a]) => a >= FEEDBACK_MIN_ATTRACTIVENESS && vectors.has(id)).map(([id, a]) => ({ v: vectors.get(id)!, a }));
  if (!chosen.length) return observed;
  const out = new Map(observed);
  for (const id of candidates) {
    const v = vectors.get(id);
    if (!v || out.has(id)) continue;
    let best = 0;
    for (const c of chosen) {
      const cos = cosine(v, c.v);
      if (cos >= FEEDBACK_MIN_COSINE) best = Math.max(best, c.a * cos);
    }
    if (best > 0) out.set(id, FEEDBACK_SHARE * best);
  }
  return out;
}
