import { normalizeText, tokenize } from './normalize.js';
import { stem } from './stem.js';

/** The parts of a category label that lists several kinds: "Bags, Wallets & Belts" -> Bags, Wallets, Belts (Arabic: "و" between words). */
export function labelParts(label: string): string[] {
  return label
    .split(/\s*(?:&|,|\/|\band\b)\s*|\s+و\s+/)
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * The category labels a product's path says of it, each language's levels in turn. A level that
 * lists several kinds ("Bags, Wallets & Belts") is one of them for this product: it keeps the
 * kinds a deeper level names too ("... > Belts": Belts), and all of them when none does (a domain:
 * "Kitchen & Dining") or when a part is what goes with the others ("Mobiles & Accessories":
 * OF_THE_OTHERS). The deepest level is kept whole: its parts may be one kind's names ("Laptops &
 * Notebooks"). Indexed whole, every belt of a store had "wallets" in its category text and matched
 * "leather wallet" before a wallet could.
 */
export function pathLabels(path: Array<Record<string, string>>): string[] {
  const langs = [...new Set(path.flatMap((level) => Object.keys(level)))];
  const out: string[] = [];
  for (const lang of langs) {
    const seen = new Set<string>();
    const kept: string[] = [];
    for (let i = path.length - 1; i >= 0; i--) {
      const label = path[i][lang];
      if (!label) continue;
      const parts = labelParts(label);
      const kinds = seen.size > 0 && parts.length > 1 && !parts.some(isOfTheOthers);
      const named = kinds ? parts.filter((part) => [...stems(part)].some((s) => seen.has(s))) : [];
      const own = named.length ? named.join(' ') : label;
      // What the level says as the store wrote it: a level's sibling kinds are weighed against it whole.
      for (const s of stems(label)) seen.add(s);
      kept.push(own);
    }
    out.push(...kept.reverse());
  }
  return out;
}

const stems = (text: string): Set<string> => new Set(tokenize(normalizeText(text)).map(stem));

/**
 * A part that names what goes with the others, not a kind of its own: "Mobiles & Accessories" is
 * mobiles and their accessories, one domain, kept whole. General language (English and Arabic).
 */
const OF_THE_OTHERS = new Set(['accessories', 'accessory', 'parts', 'spares', 'supplies', 'اكسسوارات', 'ملحقات', 'مستلزمات']);
const isOfTheOthers = (part: string): boolean => tokenize(normalizeText(part)).every((w) => OF_THE_OTHERS.has(w));
