import { normalizeText, tokenize, isCodeLike, isArabic } from '../text/normalize.js';
import { stem } from '../text/stem.js';
import { qualifierAt } from './vocabulary.js';
import { labelParts } from '../text/category-label.js';

/** Category label words (stemmed) -> the category targets (ids / level keys) whose labels contain them. */
export type CategoryWordIndex = Map<string, string[]>;

const STOP = new Set(['and', 'or', 'the', 'of', 'for', 'with', 'other', 'accessories', 'و']);
/** A word found in this many categories or more says nothing about the product type. */
const TOO_GENERIC = 40;

export function buildCategoryIndex(categories: Array<{ norm: string; target: string | null }>): CategoryWordIndex {
  const index = new Map<string, Set<string>>();
  for (const c of categories) {
    if (!c.target) continue;
    for (const word of headWords(c.norm)) {
      for (const form of forms(word)) {
        const set = index.get(form) ?? new Set<string>();
        set.add(c.target);
        index.set(form, set);
      }
    }
  }
  const out: CategoryWordIndex = new Map();
  // Narrowed once here, not per query.
  for (const [word, targets] of index) if (targets.size < TOO_GENERIC) out.set(word, narrowest([...targets]));
  return out;
}

/** The head word of each part of a label: "Camera Lenses" -> lenses; "Laptops & Notebooks" -> laptops, notebooks. */
function headWords(label: string): string[] {
  return labelParts(label)
    .map((part) => {
      const words = tokenize(normalizeText(part)).filter((w) => !STOP.has(w) && !isCodeLike(w));
      // Arabic puts the head noun first ("هواتف ذكية"), English last ("smart phones").
      return isArabic(part) ? words[0] : words[words.length - 1];
    })
    .filter((w): w is string => !!w);
}

/**
 * The categories a query names by its head word (the last word that is not a code: in
 * "bluetooth speaker" the product is a speaker), or by a compound of its last two words. What
 * follows a qualifier's preposition only qualifies the product named before it: "toys for baby"
 * names toys, not the store's baby categories.
 */
export function categoryIntent(tokens: string[], index: CategoryWordIndex): string[] {
  return namedCategories(tokens, index)?.targets ?? [];
}

/** categoryIntent's categories and the query word (or compound of two) that names them; null when none. */
export function namedCategories(tokens: string[], index: CategoryWordIndex): { word: string; targets: string[] } | null {
  const cut = qualifierAt(tokens);
  const words = (cut > 0 ? tokens.slice(0, cut) : tokens).filter((t) => !isCodeLike(t));
  if (!words.length || words.length > 5) return null;
  const arabic = isArabic(words.join(' '));
  const last = arabic ? words[0] : words[words.length - 1];
  const compound = words.length > 1 && !arabic ? words[words.length - 2] + last : null;
  const candidates = [last, compound].filter((w): w is string => !!w);
  for (const word of candidates.reverse()) {
    for (const form of forms(word)) {
      const targets = index.get(form);
      if (targets) return { word, targets };
    }
  }
  return null;
}

/**
 * Of the levels that name the word, the deepest: "Bags, Wallets & Belts" names wallets too, but its
 * "Wallets" level is where they are (the top level also holds the belts). A level goes only when a
 * level below it names the word as well.
 */
function narrowest(targets: string[]): string[] {
  const below = (t: string) => t.startsWith(LEVEL) && targets.some((o) => o.length > t.length && o.startsWith(`${t}>`));
  return targets.some(below) ? targets.filter((t) => !below(t)) : targets;
}
const LEVEL = 'lvl:';

function forms(word: string): string[] {
  const s = stem(word);
  return [...new Set([word, s, word.endsWith('s') ? word.slice(0, -1) : word])];
}
