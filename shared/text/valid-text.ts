/**
 * The one check for text the API accepts. JSON can carry two things no store can keep: a lone
 * UTF-16 surrogate (`"\ud800"`: Postgres jsonb refuses it, and UTF-8 encoding silently turns it
 * into U+FFFD in text columns) and U+0000 (Postgres text refuses it). Every string and object key
 * of a request goes through `invalidText` once: the route layer for the request as a whole, the
 * batch and import code for each of their items, so one bad item never fails the others.
 */
declare global {
  // ES2024, in Node 20; the project's TypeScript lib stops at ES2022.
  interface String {
    isWellFormed(): boolean;
  }
}

export interface InvalidText {
  /** Dotted path to the string or key, e.g. `upsert.3.name.en` or `attributes.(key)`. */
  field: string;
  message: string;
}

/** `s` cut to at most `n` UTF-16 units, never inside a surrogate pair (an emoji across the cut is left out whole). */
export function clipChars(s: string, n: number): string {
  if (s.length <= n) return s;
  const last = s.charCodeAt(n - 1);
  return s.slice(0, last >= 0xd800 && last <= 0xdbff ? n - 1 : n);
}

/**
 * `s`'s length in characters as the spec's limits count them: Unicode code points, so an emoji
 * (two UTF-16 units) is one, like an Arabic letter or mark. zod's string limits count the same
 * way; `s.length` refused a text at its limit. A lone surrogate counts one (textProblem refuses it).
 */
export function charLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length - 1; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff) {
      const next = s.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** Why `s` cannot be stored, or null when it can. */
export function textProblem(s: string): string | null {
  if (!s.isWellFormed()) return 'holds a lone UTF-16 surrogate (e.g. \\ud800), which is not a character';
  if (s.includes('\u0000')) return 'holds U+0000 (NUL), which cannot be stored';
  return null;
}

/**
 * True when every string and object key in `value` can be stored (`skip`: top-level fields checked
 * elsewhere). The same walk as invalidText with nothing made along the way: the request path asks
 * this first and builds field paths only for a request that fails.
 */
export function allTextValid(value: unknown, skip?: readonly string[]): boolean {
  if (typeof value === 'string') return value.isWellFormed() && !value.includes('\u0000');
  if (value === null || typeof value !== 'object') return true;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (!allTextValid(value[i])) return false;
    return true;
  }
  for (const key in value) {
    if (!Object.prototype.hasOwnProperty.call(value, key) || skip?.includes(key)) continue;
    if (!key.isWellFormed() || key.includes('\u0000') || !allTextValid((value as Record<string, unknown>)[key])) return false;
  }
  return true;
}

/**
 * Every string and object key in `value` (a parsed JSON value, query or path params) that cannot
 * be stored, at most `max` of them. `skip` names top-level fields checked elsewhere, item by item.
 */
export function invalidText(value: unknown, opts: { prefix?: string; skip?: readonly string[]; max?: number } = {}): InvalidText[] {
  const out: InvalidText[] = [];
  const max = opts.max ?? 20;
  const visit = (v: unknown, path: string, top: boolean): void => {
    if (out.length >= max) return;
    if (typeof v === 'string') {
      const problem = textProblem(v);
      if (problem) out.push({ field: path || '(root)', message: problem });
      return;
    }
    if (v === null || typeof v !== 'object') return;
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length && out.length < max; i++) visit(v[i], join(path, String(i)), false);
      return;
    }
    for (const key of Object.keys(v)) {
      if (top && opts.skip?.includes(key)) continue;
      const problem = textProblem(key);
      // JSON.stringify writes NUL as \u0000 and (well-formed since ES2019) a lone surrogate as \ud800.
      if (problem) out.push({ field: join(path, `(key ${JSON.stringify(key)})`), message: `a field name ${problem}` });
      else visit((v as Record<string, unknown>)[key], join(path, key), false);
      if (out.length >= max) return;
    }
  };
  visit(value, opts.prefix ?? '', true);
  return out;
}

const join = (path: string, part: string) => (path ? `${path}.${part}` : part);
