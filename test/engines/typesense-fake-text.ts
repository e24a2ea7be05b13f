/**
 * Text matching for the fake Typesense, as Typesense 30 matches `q` (the parts the adapter relies
 * on): tokens are words with special characters removed; every query token must match a word of
 * some `query_by` field, exactly, as a prefix (last token, where that field's `prefix` is true), or
 * within the field's `num_typos`, which Typesense counts over bytes (optimal string alignment, a
 * transposition one typo) and allows only from 4 bytes (1 typo) and 7 bytes (2 typos), so an
 * Arabic letter is two. Synonym sets are expanded as Typesense's SynonymIndex::synonym_reduction
 * does (every combination of roots found as consecutive query tokens and their synonyms), and a
 * document matched by any expansion is one match. Not modelled: drop_tokens, split_join_tokens,
 * typos on prefixes, ranking (text_match stays constant).
 */

export interface FakeSynonymItem {
  id: string;
  root?: string;
  synonyms: string[];
}

export const tokens = (text: string): string[] =>
  text
    .toLowerCase()
    .split(/\s+/)
    .map((w) => w.replace(/[^\p{L}\p{N}]/gu, ''))
    .filter(Boolean);

/** Optimal string alignment distance over UTF-8 bytes, as Typesense's ART fuzzy search counts typos. */
function typos(a: Buffer, b: Buffer): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

function tokenMatches(token: string, word: string, maxTypos: number, prefix: boolean): boolean {
  if (word === token || (prefix && word.startsWith(token))) return true;
  const bytes = Buffer.from(token);
  const allowed = Math.min(maxTypos, bytes.length < 4 ? 0 : bytes.length < 7 ? 1 : 2);
  return allowed > 0 && typos(bytes, Buffer.from(word)) <= allowed;
}

/** The query and every synonym expansion of it (Typesense caps 200 per position). */
export function expansions(query: string[], items: FakeSynonymItem[]): string[][] {
  const dp: string[][][] = Array.from({ length: query.length + 1 }, () => []);
  dp[query.length] = [[]];
  const add = (cell: string[][], exp: string[]) => {
    if (cell.length < 200 && !cell.some((e) => e.join(' ') === exp.join(' '))) cell.push(exp);
  };
  for (let i = query.length - 1; i >= 0; i--) {
    for (const suffix of dp[i + 1]) add(dp[i], [query[i], ...suffix]);
    for (const item of items) {
      const root = tokens(item.root ?? '');
      if (!root.length || root.some((w, k) => query[i + k] !== w)) continue;
      for (const suffix of dp[i + root.length]) for (const syn of item.synonyms) add(dp[i], [...tokens(syn), ...suffix]);
    }
  }
  return dp[0];
}

const listOf = (raw: string | undefined, n: number) => {
  const parts = (raw ?? '').split(',');
  return Array.from({ length: n }, (_, i) => parts[i] ?? parts[0] ?? '');
};

/** Whether `doc` matches the search's `q` (with its synonym items) on its `query_by` fields. */
export function textMatches(p: Record<string, string>, items: FakeSynonymItem[], doc: Record<string, unknown>): boolean {
  const query = tokens(p.q ?? '*');
  if (p.q === '*' || !query.length) return true;
  const fields = (p.query_by ?? '').split(',');
  const numTypos = listOf(p.num_typos ?? '2', fields.length).map(Number);
  const prefixes = listOf(p.prefix ?? 'true', fields.length).map((v) => v === 'true');
  const words = fields.map((f) => {
    const v = doc[f];
    return tokens(Array.isArray(v) ? v.join(' ') : typeof v === 'string' ? v : '');
  });
  return expansions(query, items).some((exp) =>
    exp.every((token, i) => fields.some((_, f) => words[f].some((w) => tokenMatches(token, w, numTypos[f], prefixes[f] && i === exp.length - 1)))),
  );
}
