import { normalizeText } from '../text/normalize.js';

/** What the storefront reads of the store's suggestion dictionary (in memory): its category entries and each target's labels. */
export interface CategoryEntries {
  entriesOf(kind: 'category'): Array<{ norm: string; target: string | null }>;
  categoryLabel(target: string): Record<string, string> | null;
}

/** Per dictionary: the key parts of its levels, and the part each label (any language) stands for. */
const made = new WeakMap<CategoryEntries, { keyParts: Set<string>; parts: Map<string, string> }>();

/**
 * The level key of a category label path in any of the store's languages: "أزياء > نسائي" is
 * fashion>women. Keys are made of the levels' English labels normalized (categoryLevelKey); a
 * label in another language is found among the dictionary's category entries (one per label, each
 * language's), whose target is the level's key (`lvl:fashion>women`: its last part) or, for the
 * deepest level, the category id (its English label). A label it does not know stays as typed.
 * The table is made once per dictionary (a new catalog makes a new dictionary).
 */
export function levelKeyOf(dictionary: CategoryEntries): (labels: string[]) => string {
  let table = made.get(dictionary);
  if (!table) {
    table = { keyParts: new Set(), parts: new Map() };
    const entries = dictionary.entriesOf('category');
    for (const e of entries) if (e.target?.startsWith('lvl:')) for (const part of e.target.slice(4).split('>')) table.keyParts.add(part);
    for (const e of entries) {
      if (!e.target || table.parts.has(e.norm)) continue;
      const part = e.target.startsWith('lvl:') ? e.target.slice(4).split('>').pop()! : englishOf(dictionary.categoryLabel(e.target));
      if (part) table.parts.set(e.norm, part);
    }
    made.set(dictionary, table);
  }
  const { keyParts, parts } = table;
  // A key's own part (what keys and English labels give) is taken as it is.
  return (labels) =>
    labels
      .map((label) => {
        const norm = normalizeText(label);
        return keyParts.has(norm) ? norm : (parts.get(norm) ?? norm);
      })
      .join('>');
}

/** A leaf's English label normalized (as level keys are made: the English label, else the first). */
function englishOf(label: Record<string, string> | null): string | null {
  const text = label ? (label.en ?? Object.values(label)[0]) : undefined;
  return text ? normalizeText(text) : null;
}
