import { judgedAt, mean, ndcgAt, reciprocalRank, type Judgments } from './metrics.js';

/** Our search and its peers, in table order: Postgres full text, MiniSearch defaults, MiniSearch tuned. */
export const SYSTEMS = ['ours', 'pg', 'minisearch', 'minisearch-tuned'] as const;
export type System = (typeof SYSTEMS)[number];
const LABELS: Record<System, string> = { ours: 'ours', pg: 'pg-fts', minisearch: 'ms-def', 'minisearch-tuned': 'ms-tuned' };

/** One judged query with every system's ranked ids (deeper than k: the condensed metric reads past it). */
export interface QueryLists {
  query: string;
  judged: Judgments;
  lists: Record<System, string[]>;
}

export interface QueryScores {
  query: string;
  ndcg: Record<System, number>;
  /** nDCG@k of the list with unjudged results left out (the judging pool's bias removed). */
  condensed: Record<System, number>;
  judged: Record<System, number>;
  rr: Record<System, number>;
}

const perSystem = (f: (s: System) => number) => Object.fromEntries(SYSTEMS.map((s) => [s, f(s)])) as Record<System, number>;

/** Scores one query for every system: nDCG@k (unjudged = 0), condensed nDCG@k, judged@k and reciprocal rank. */
export function scoreQuery(q: QueryLists, k: number): QueryScores {
  return {
    query: q.query,
    ndcg: perSystem((s) => ndcgAt(k, q.lists[s], q.judged)),
    condensed: perSystem((s) =>
      ndcgAt(
        k,
        q.lists[s].filter((id) => q.judged.has(id)),
        q.judged,
      ),
    ),
    judged: perSystem((s) => judgedAt(k, q.lists[s], q.judged)),
    rr: perSystem((s) => reciprocalRank(q.lists[s], q.judged)),
  };
}

/** The per-query table of one collection, by query (a stable order, so two runs diff line by line). */
export function formatTable(collection: string, rows: QueryScores[]): string {
  const head = `${`[${collection}] query`.padEnd(34)}${SYSTEMS.map((s) => LABELS[s].padStart(9)).join('')}${'judged'.padStart(8)}\n`;
  const body = [...rows]
    .sort((a, b) => a.query.localeCompare(b.query))
    .map((r) => `${r.query.slice(0, 34).padEnd(34)}${SYSTEMS.map((s) => r.ndcg[s].toFixed(3).padStart(9)).join('')}${r.judged.ours.toFixed(2).padStart(8)}\n`);
  return head + body.join('');
}

export interface Summary {
  collection: string;
  queries: number;
  ndcg: Record<System, number>;
  condensed: Record<System, number>;
  judged: Record<System, number>;
  mrr: Record<System, number>;
}

export function summarize(collection: string, rows: QueryScores[]): Summary {
  const avg = (pick: (r: QueryScores) => Record<System, number>) => perSystem((s) => mean(rows.map((r) => pick(r)[s])));
  return {
    collection,
    queries: rows.length,
    ndcg: avg((r) => r.ndcg),
    condensed: avg((r) => r.condensed),
    judged: avg((r) => r.judged),
    mrr: avg((r) => r.rr),
  };
}

const ratio = (a: number, b: number) => (b > 0 ? (a / b).toFixed(3) : '-');
const figures = (m: Record<System, number>) => SYSTEMS.map((s) => `${LABELS[s]} ${m[s].toFixed(4)}`).join('  ');

/** The summary line of a collection: nDCG@10 of ours and each peer, and ours over the BM25 library (both configurations). */
export function summaryLine(s: Summary): string {
  return `${s.collection.padEnd(18)} nDCG@10  ${figures(s.ndcg)}  ours/ms-def ${ratio(s.ndcg.ours, s.ndcg.minisearch)}  ours/ms-tuned ${ratio(s.ndcg.ours, s.ndcg['minisearch-tuned'])}  (${s.queries} queries)`;
}

/** The secondary figures of a collection: condensed nDCG@10, judged@10 and MRR (first grade >= 2). */
export function detailLines(s: Summary): string {
  const pad = ' '.repeat(19);
  return `${pad}condensed ${figures(s.condensed)}\n${pad}judged@10 ${figures(s.judged)}\n${pad}MRR       ${figures(s.mrr)}`;
}
