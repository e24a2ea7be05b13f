// Query rules: understands price limits, sort orders, brands and colours in a normalized query
// (English and Arabic) and turns them into filters and a sort, leaving the rest as search text.
// Runs on every search, so all phrase tables are compiled once at module load (see rules/*).
//
// Order matters: prices first (so "under 100" is gone before anything reads "100"), then sort
// phrases, then brands and colours on whole words, then connector clean-up.

import { takePrices } from './rules/price.js';
import { takeSort } from './rules/sort.js';
import { takeTerms } from './rules/terms.js';
import type { ParsedRules, RuleContext } from './rules/types.js';

export type { ParsedRules, RuleContext, RuleSort } from './rules/types.js';
export { COLOR_WORDS } from './rules/terms.js';

const CONTROL = /[\u0000-\u001f]/g;

/**
 * Finds price, sort, brand and colour intents in normalized text (output of normalizeText).
 * A bare number is never a price: it needs a comparison word ("under", "اقل من", "<"), a range
 * ("100-200", "بين 100 و 200") or "100+", and a unit after it ("65 inch", "2tb") rules it out.
 */
export function parseRules(normalized: string, ctx: RuleContext, words?: ReadonlyMap<string, number>): ParsedRules {
  const fired: ParsedRules['fired'] = [];
  const filters: ParsedRules['filters'] = {};
  // Pad so phrases at either end see a space; control characters are our placeholders.
  let text = ` ${normalized.replace(CONTROL, ' ')} `;
  text = takePrices(text, filters, fired);
  const sorted = takeSort(text, fired);
  const rest = takeTerms(sorted.text, ctx, filters, fired, words);
  return { filters, sort: sorted.sort, rest, fired };
}
