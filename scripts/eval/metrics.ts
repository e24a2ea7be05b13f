/** Graded relevance judgments of one query: product id -> grade 0..3. */
export type Judgments = Map<string, number>;

/** nDCG@k with gain = grade and discount 1/log2(rank+1); the ideal ranking comes from the query's own judgments. */
export function ndcgAt(k: number, ranked: string[], judged: Judgments): number {
  const dcg = ranked.slice(0, k).reduce((sum, id, i) => sum + (judged.get(id) ?? 0) / Math.log2(i + 2), 0);
  const ideal = [...judged.values()]
    .sort((a, b) => b - a)
    .slice(0, k)
    .reduce((sum, g, i) => sum + g / Math.log2(i + 2), 0);
  return ideal > 0 ? dcg / ideal : 0;
}

/** Share of the top k that has a judgment at all (unjudged results count as 0 in nDCG). */
export function judgedAt(k: number, ranked: string[], judged: Judgments): number {
  const top = ranked.slice(0, k);
  return top.length ? top.filter((id) => judged.has(id)).length / k : 0;
}

/** Reciprocal rank of the first result graded relevant (grade >= 2), 0 when none in the list. */
export function reciprocalRank(ranked: string[], judged: Judgments): number {
  const i = ranked.findIndex((id) => (judged.get(id) ?? 0) >= 2);
  return i < 0 ? 0 : 1 / (i + 1);
}

export function mean(values: number[]): number {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
}

/** Parses `query,docid,rating` CSV into judgments per query. */
export function parseJudgments(csv: string): Map<string, Judgments> {
  const out = new Map<string, Judgments>();
  for (const line of csv.split(/\r?\n/).slice(1)) {
    if (!line.trim()) continue;
    const m = /^(.*),([^,]+),(\d+)$/.exec(line);
    if (!m) continue;
    const query = m[1].replace(/^"|"$/g, '');
    const judged = out.get(query) ?? new Map<string, number>();
    judged.set(m[2], Number(m[3]));
    out.set(query, judged);
  }
  return out;
}
