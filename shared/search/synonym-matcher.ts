import { tokenize } from '../text/normalize.js';
import { withoutArticle } from '../text/stem.js';

/**
 * The form a word is compared in: without the Arabic article written onto it, so a rule on "هاتف" fires for
 * "الهاتف" and "والهاتف" (and one written "الجوال" for "جوال"), as the engine's stems match both. Other words as they are.
 */
const key = (token: string) => withoutArticle(token) ?? token;
const keys = (text: string) => tokenize(text).map(key);

/** A synonym rule as the search path uses it: every text already normalized. */
export interface CompiledRuleInput {
  id: string;
  kind: 'equivalent' | 'one_way';
  terms: string[];
  input: string | null;
  outputs: string[];
  conditions: { unless_terms?: string[]; require_terms?: string[] } | null;
  setKey: string;
  global: boolean;
}

interface Entry {
  phrase: string[];
  expansions: string[][];
  ruleId: string;
  unless: string[][];
  require: string[][];
  setKey: string;
  global: boolean;
}

/** A stretch of the query: the shopper's words, and what synonyms add to them. */
export interface Segment {
  tokens: string[];
  expansions: string[][];
  ruleIds: string[];
}

/**
 * Matches synonym phrases (multi-word on both sides) in a token list, longest phrase first, left to
 * right, so several rules can fire in one query; each match becomes one segment whose expansions
 * are alternatives to the shopper's own words.
 */
export class SynonymMatcher {
  private byFirst = new Map<string, Entry[]>();
  readonly size: number;

  constructor(rules: CompiledRuleInput[]) {
    let n = 0;
    for (const r of rules) {
      const phrases = r.kind === 'equivalent' ? r.terms : r.input ? [r.input] : [];
      for (const phrase of phrases) {
        const tokens = keys(phrase);
        if (!tokens.length) continue;
        const others = r.kind === 'equivalent' ? r.terms.filter((t) => t !== phrase) : r.outputs;
        const entry: Entry = {
          phrase: tokens,
          expansions: others.map((o) => tokenize(o)).filter((o) => o.length),
          ruleId: r.id,
          unless: (r.conditions?.unless_terms ?? []).map(keys),
          require: (r.conditions?.require_terms ?? []).map(keys),
          setKey: r.setKey,
          global: r.global,
        };
        const list = this.byFirst.get(tokens[0]) ?? [];
        list.push(entry);
        this.byFirst.set(tokens[0], list);
        n++;
      }
    }
    for (const list of this.byFirst.values()) list.sort((a, b) => b.phrase.length - a.phrase.length);
    this.size = n;
  }

  /**
   * Splits tokens into segments; `sets` are the tenant sets that are on, `global` whether platform rules apply.
   * `query`: the normalized query the conditions are checked against (default the tokens): the words the
   * rule parser took out as a filter or sort ("cheapest", a brand) are still part of it.
   */
  apply(tokens: string[], opts: { sets: ReadonlySet<string>; global: boolean; query?: string }): Segment[] {
    const out: Segment[] = [];
    const keyed = tokens.map(key);
    const text = ` ${(opts.query === undefined ? keyed : keys(opts.query)).join(' ')} `;
    for (let i = 0; i < tokens.length;) {
      const matches = (this.byFirst.get(keyed[i]) ?? []).filter(
        (e) => (e.global ? opts.global : opts.sets.has(e.setKey)) && startsAt(keyed, i, e.phrase) && conditionsHold(e, text),
      );
      if (!matches.length) {
        out.push({ tokens: [tokens[i]], expansions: [], ruleIds: [] });
        i++;
        continue;
      }
      const len = matches[0].phrase.length;
      const same = matches.filter((m) => m.phrase.length === len);
      const expansions = new Map<string, string[]>();
      for (const m of same) for (const e of m.expansions) expansions.set(e.join(' '), e);
      out.push({ tokens: tokens.slice(i, i + len), expansions: [...expansions.values()], ruleIds: [...new Set(same.map((m) => m.ruleId))] });
      i += len;
    }
    return out;
  }
}

function startsAt(tokens: string[], i: number, phrase: string[]): boolean {
  for (let k = 0; k < phrase.length; k++) if (tokens[i + k] !== phrase[k]) return false;
  return true;
}

/** unless_terms: skip when any is in the query; require_terms: apply only when all are. */
function conditionsHold(e: Entry, text: string): boolean {
  const has = (words: string[]) => text.includes(` ${words.join(' ')} `);
  if (e.unless.some(has)) return false;
  return e.require.every(has);
}
