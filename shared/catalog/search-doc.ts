import { normalizeText, tokenize, isCodeLike } from '../text/normalize.js';
import { stem } from '../text/stem.js';
import { capRepeats } from '../text/repeats.js';
import { clipChars } from '../text/valid-text.js';
import { headForms, productHeads } from '../text/product-head.js';
import { categoryLevelKey, categoryLevelKeys, type IndexSettings, type SearchDoc } from '../engines/lexical/port.js';

export { categoryLevelKey };
import type { StoredProduct } from './canonical.js';
import { applyMapping, type AttributeValue, type MappingItem } from './mapping.js';
import { pathLabels } from '../text/category-label.js';

interface CategoryRef {
  id: string;
  path: Array<Record<string, string>>;
}

/** A product's category targets: each leaf id and each level key (`lvl:a>b`), as filters and category intent use them. */
export function categoryTargets(p: StoredProduct): string[] {
  const out: string[] = [];
  for (const c of (p.categories as CategoryRef[] | undefined) ?? []) {
    out.push(c.id);
    out.push(...categoryLevelKeys(c.path.map(pathLabel)));
  }
  return out;
}

/** The label a level's key is made of: English, else its first language. */
const pathLabel = (level: Record<string, string>) => level.en ?? Object.values(level)[0] ?? '';

const joinNorm = (parts: Array<string | null | undefined>) => normalizeText(parts.filter(Boolean).join(' '));

/** Builds the engine document of a stored product under the tenant's attribute mapping. */
export function buildSearchDoc(p: StoredProduct, mapping: Map<string, MappingItem>, createdAt: Date): SearchDoc {
  const names = Object.values(p.name).map(splitCompatibility);
  const nameNorm = joinNorm(names.map((n) => n.main));
  const compatibility = joinNorm(names.map((n) => n.compat));
  const categories = (p.categories as CategoryRef[] | undefined) ?? [];
  const categoryIds = new Set<string>();
  const categoryPaths: SearchDoc['categoryPaths'] = [];
  const categoryLabels: string[] = [];
  for (const c of categories) {
    const keys = categoryLevelKeys(c.path.map(pathLabel));
    categoryIds.add(c.id);
    for (const key of keys) categoryIds.add(key);
    categoryPaths.push(c.path.map((label, i) => ({ id: i === c.path.length - 1 ? c.id : keys[i], label })));
    categoryLabels.push(...pathLabels(c.path));
  }
  const attrs = applyMapping(p.attributes as Record<string, AttributeValue> | undefined, mapping);
  const facets: SearchDoc['facets'] = {};
  for (const a of attrs) if (a.facet) facets[a.name] = facetValue(a.value);
  // Short values name what the product is or has ("Black", "USB Type-C"); long ones are prose
  // ("integrated microphone, receiver, speaker and ...") and weigh like the description.
  const values = attrs.flatMap((a) => (typeof a.value === 'boolean' ? [] : Array.isArray(a.value) ? a.value.map(String) : [String(a.value)]));
  const attributeText = joinNorm([compatibility, ...values.filter(isShortValue)]);
  // Long values are often lists ("Gmail,Google Calendar,Google Chrome,..."): a word they repeat counts PROSE_REPEATS times at most.
  const attributeProse = capRepeats(joinNorm(values.filter((v) => !isShortValue(v))), PROSE_REPEATS);
  // A description of a few words is a second name ("Desktop Board DX58SO"), not prose.
  const descriptions = Object.values((p.description as Record<string, string> | undefined) ?? {});
  const tagline = descriptions.filter((d) => wordsAtMost(d, TAGLINE_WORDS));
  const codes = [p.model, p.sku, p.gtin].filter((c): c is string => typeof c === 'string' && c.length > 0).map((c) => normalizeText(c));
  const price = Number(p.sale_price ?? p.price);
  const firstPath = categories[0]?.path;
  return {
    id: p.id,
    name: p.name,
    nameNorm,
    langTerms: langTerms(p.name),
    heads: [...new Set(Object.values(p.name).flatMap(productHeads).flatMap(headForms))],
    // Stemmed forms of the name and the category labels: "laptop" finds a product in "Laptops".
    nameStem: tokenize(`${nameNorm} ${joinNorm(categoryLabels)}`)
      .filter((t) => !isCodeLike(t))
      .map(stem)
      .join(' '),
    brand: (p.brand as string | null | undefined) ?? null,
    brandNorm: p.brand ? normalizeText(p.brand as string) : null,
    codes,
    categoryIds: [...categoryIds],
    categoryPaths,
    categoryText: joinNorm([...categoryLabels, ...((p.tags as string[] | undefined) ?? [])]),
    attributeText: tagline.length ? joinNorm([attributeText, ...tagline]) : attributeText,
    descriptionNorm: clipChars(joinNorm([...descriptions.filter((d) => !tagline.includes(d)), attributeProse]), 4000),
    facets,
    price,
    inStock: p.in_stock,
    visible: p.visible,
    popularity: Number(p.popularity ?? 0),
    margin: typeof p.margin === 'number' ? p.margin : null,
    createdAt: createdAt.getTime(),
    description: snippets(p.description as Record<string, string> | undefined),
    card: {
      id: p.id,
      name: p.name,
      url: (p.url as string | null | undefined) ?? null,
      image_url: (p.image_url as string | null | undefined) ?? null,
      price: p.price,
      sale_price: p.sale_price,
      currency: p.currency,
      in_stock: p.in_stock,
      brand: (p.brand as string | null | undefined) ?? null,
      category: firstPath ? firstPath[firstPath.length - 1] : null,
    },
  };
}

/**
 * `<lang>:<term>` of each language's name (and stems) with a `<lang>:` marker per language; a
 * name in one language gets only its marker (its every match is in that language).
 */
export function langTerms(name: Record<string, string>): string[] {
  const langs = Object.keys(name).filter((l) => name[l]?.trim());
  const out = new Set(langs.map((l) => `${l.slice(0, 2)}:`));
  if (langs.length < 2) return [...out];
  for (const l of langs) {
    for (const t of tokenize(normalizeText(splitCompatibility(name[l]).main))) {
      out.add(`${l.slice(0, 2)}:${t}`);
      const s = stem(t);
      if (s && s !== t) out.add(`${l.slice(0, 2)}:${s}`);
    }
  }
  return [...out];
}

/** A description of at most this many words is a tagline, indexed with the short attribute values (eval: nDCG@10 +0.004, judged-only nDCG +0.012). */
const TAGLINE_WORDS = 8;
/**
 * How often a word of the long attribute values counts (capRepeats). Tuned with npm run eval:
 * Chorus 0.7979 uncapped, 0.7986 at 6, 0.8078 at 4, 0.8079 at 3, 0.8072 at 2, 0.8024 at 1;
 * CrowdFlower 0.8244 at each (its products have few attributes).
 */
const PROSE_REPEATS = 3;
/** An attribute value of at most this many words is a property ("USB Type-C"), longer ones are prose. */
const SHORT_WORDS = 4;
const isShortValue = (v: string) => wordsAtMost(v, SHORT_WORDS);

/** Whether `v` has at most `n` space-separated words. */
function wordsAtMost(v: string, n: number): boolean {
  let words = 1;
  for (let i = v.indexOf(' '); i >= 0; i = v.indexOf(' ', i + 1)) if (++words > n) return false;
  return true;
}

// "Privacy screen for 15\" laptop": what follows "for" names what the product fits, not what it is.
const COMPATIBILITY = /\s(?:for|compatible with|fits|suitable for|متوافق مع|مناسب ل)\s/iu;

/** Splits a product name into what the product is and what it is for (indexed with a lower weight). */
export function splitCompatibility(name: string): { main: string; compat: string } {
  const m = COMPATIBILITY.exec(name);
  if (!m || m.index < 3) return { main: name, compat: '' };
  return { main: name.slice(0, m.index), compat: name.slice(m.index + m[0].length) };
}

function snippets(description: Record<string, string> | undefined): Record<string, string> | undefined {
  if (!description) return undefined;
  return Object.fromEntries(Object.entries(description).map(([lang, text]) => [lang, clipChars(text, 400)]));
}

function facetValue(value: AttributeValue): string[] | number | boolean {
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  return (Array.isArray(value) ? value : [value]).map((v) => v.trim()).filter(Boolean);
}

/** Index settings from the mapping: which canonical attributes are facets and their types. */
export function indexSettings(items: MappingItem[], locales: string[]): IndexSettings {
  const facetFields = items.filter((i) => i.facet ?? true).map((i) => ({ name: i.canonical_name, type: 'string' as const }));
  const unique = [...new Map(facetFields.map((f) => [f.name, f])).values()];
  return { facetFields: unique, locales };
}
