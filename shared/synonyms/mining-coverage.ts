import { normalizeText } from '../text/normalize.js';
import type { Candidate } from './mining-candidates.js';

/** A tenant's enabled synonym rule, as far as coverage is concerned. */
export interface ExistingRule {
  kind: 'equivalent' | 'one_way';
  terms: string[];
  input: string | null;
  outputs: string[];
}

/**
 * Answers "does an enabled rule already make this candidate's queries match?": an equivalent rule
 * holding both texts covers either kind; a one_way rule input => output covers that direction.
 */
export function coverage(rules: ExistingRule[]): (candidate: Candidate) => boolean {
  const n = (x: string) => normalizeText(x);
  const groups = rules.filter((r) => r.kind === 'equivalent').map((r) => new Set(r.terms.map(n)));
  const oneWay = new Set<string>();
  for (const r of rules) {
    if (r.kind !== 'one_way' || !r.input) continue;
    for (const o of r.outputs) oneWay.add(`${n(r.input)}\u0000${n(o)}`);
  }
  const together = (a: string, b: string) => groups.some((g) => g.has(a) && g.has(b));
  const direct = (a: string, b: string) => together(a, b) || oneWay.has(`${a}\u0000${b}`);
  return (c) => {
    if (c.kind === 'one_way') return c.outputs.every((o) => direct(c.input!, o));
    const [a, b] = c.terms;
    return together(a, b) || (direct(a, b) && direct(b, a));
  };
}
