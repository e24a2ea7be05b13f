import { normalizeText } from '../text/normalize.js';
import type { SearchBody, SearchInput } from '../search/index.js';

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

/** What ANDing category values reads of leaf categories (`levels`), and where it notes the leaves it lacked. */
export interface Leaves {
  levels?: Map<string, Set<string>>;
  leaves: Set<string>;
}

/**
 * Category values of two groups ANDed: a product in fashion>women is in fashion, so of two related
 * levels the deeper one stays (exact for products in one category). A leaf id (no `lvl:`) is within
 * a level when every product of the leaf is in it (`leaves.levels`): then the leaf stays. Leaf ids
 * and level keys are different strings, so without its levels a leaf is within nothing but itself.
 */
export function bothLevels(a: string[], b: string[], leaves: Leaves): string[] {
  const within = (x: string, y: string) => {
    if (x === y) return true;
    if (!y.startsWith('lvl:')) return false;
    if (x.startsWith('lvl:')) return x.startsWith(`${y}>`);
    const levels = leaves.levels?.get(x);
    if (!levels) leaves.leaves.add(x);
    return levels?.has(y) ?? false;
  };
  return [...new Set([...a.filter((x) => b.some((y) => within(x, y))), ...b.filter((y) => a.some((x) => within(y, x)))])];
}

/** Leaf ids one call looks up at most (a search each): more ANDed with a level is a 400. */
export const LEAF_LOOKUPS = 20;

type Search = (tenantId: string, input: SearchInput) => Promise<{ body: SearchBody; text: string | null }>;

/**
 * The levels of leaf categories, by id: the level keys every product of the leaf is in (its path
 * and the path's parents), as the widget finds a leaf's path (category-path.ts): one search each
 * with no hits and no log, filtered on the leaf, counting the category tree. A leaf no product is
 * in has none. Leaf ids are the store's category ids and level keys its labels: only its products
 * relate the two.
 */
export async function leafLevels(search: Search, tenantId: string, leaves: string[]): Promise<Map<string, Set<string>>> {
  const levels = await Promise.all(
    leaves.map(async (id) => {
      const input: SearchInput = {
        q: '',
        lang: 'auto',
        page: 1,
        perPage: 0,
        filters: { category: [id] },
        sort: null,
        facets: ['category_tree'],
        session: null,
        debug: false,
        override: null,
        log: false,
        facetsFollowFilters: true,
      };
      const { body, text } = await search(tenantId, input);
      const answer = text ? (JSON.parse(text) as SearchBody) : body;
      const tree = answer.facets.find((f) => f.type === 'category_tree');
      const all = (tree?.buckets ?? []).filter((b) => b.value.startsWith('lvl:') && b.count === answer.total).map((b) => b.value);
      return [id, new Set(answer.total > 0 ? all : [])] as const;
    }),
  );
  return new Map(levels);
}
