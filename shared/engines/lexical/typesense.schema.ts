import type { CollectionFieldSchema } from 'typesense';
import { categoryLabels, categoryLevelKey, type IndexSettings, type SearchDoc } from './port.js';
import { asciiDigits } from '../../text/normalize.js';

/** The collection as `POST /collections` takes it (CollectionSchema of the v30 spec). */
export interface TypesenseCollectionSchema {
  name: string;
  fields: CollectionFieldSchema[];
  default_sorting_field?: string;
  /** `reindex_job`: the jobs row that began a generation being built (a cancel drops only its own). */
  metadata?: { reindex_job?: string };
}

/** A facet attribute's field: `f_<name>`, so attribute names never collide with ours. */
export const facetFieldName = (name: string) => `f_${name}`;

/**
 * A facet attribute's numbers: `n_<name>` (float[]), for range filters. Stores send an attribute as
 * text, numbers or flags, often mixed across products, so `f_<name>` holds every value as text (the
 * facet counts' form, as the Postgres engine counts them: 9 is "9") and this field the values that
 * are numbers, or text that is one ("42").
 */
export const numericFieldName = (name: string) => `n_${name}`;

const NUMERIC_TEXT = /^\s*-?[0-9]+(\.[0-9]+)?\s*$/;

/**
 * Typesense's filter tokenizer toggles "inside a value" on every backtick and ignores the
 * backslash escape that its value splitter honours (and the splitter keeps the backslash), so a
 * value containing a backtick cannot be written in `filter_by`. Filter keys are stored and
 * queried with the backtick swapped for U+02CB (a look-alike that no filter syntax uses);
 * facet values come back through `fromFilterKey`.
 */
const TICK = '`';
const TICK_STANDIN = '\u02cb';
export const toFilterKey = (v: string) => v.split(TICK).join(TICK_STANDIN);
export const fromFilterKey = (v: string) => v.split(TICK_STANDIN).join(TICK);

/** Fields of a tenant generation, derived from the index settings (facet attributes and their types). */
export function collectionSchema(name: string, settings: IndexSettings): TypesenseCollectionSchema {
  const fields: CollectionFieldSchema[] = [
    // Normalized text (locale-free: the Arabic layer and lower-casing ran before indexing).
    { name: 'name_norm', type: 'string' },
    { name: 'name_stem', type: 'string' },
    { name: 'brand', type: 'string', facet: true, optional: true },
    { name: 'brand_norm', type: 'string', optional: true },
    // Filter keys: normalized brand and every category id (leaf ids and `lvl:` path keys).
    { name: 'brand_key', type: 'string', optional: true },
    { name: 'codes', type: 'string[]', optional: true },
    { name: 'category_ids', type: 'string[]', optional: true },
    // Facet values carry their labels: JSON `[id, label]`, leaf categories and path levels apart.
    { name: 'category_facet', type: 'string[]', facet: true, optional: true },
    { name: 'category_tree', type: 'string[]', facet: true, optional: true },
    { name: 'category_text', type: 'string' },
    { name: 'attribute_text', type: 'string' },
    { name: 'description_norm', type: 'string' },
    ...settings.facetFields.flatMap((f) => [
      { name: facetFieldName(f.name), type: 'string[]' as const, facet: true, optional: true },
      { name: numericFieldName(f.name), type: 'float[]' as const, optional: true },
    ]),
    { name: 'price', type: 'float', facet: true },
    { name: 'in_stock', type: 'bool', facet: true },
    { name: 'visible', type: 'bool' },
    { name: 'popularity', type: 'float' },
    { name: 'margin', type: 'float', optional: true },
    { name: 'created_at', type: 'int64' },
    { name: 'version', type: 'int64', optional: true },
    // Stored for the hit, never searched.
    { name: 'card_json', type: 'string', index: false, optional: true },
    { name: 'description_json', type: 'string', index: false, optional: true },
  ];
  return { name, fields, default_sorting_field: 'popularity' };
}

/** The Typesense document of a search document. */
export function toTypesenseDoc(d: SearchDoc): Record<string, unknown> {
  const labels = categoryLabels(d);
  const facetValues = (tree: boolean) => d.categoryIds.filter((id) => id.startsWith('lvl:') === tree).map((id) => JSON.stringify([id, labels.get(id) ?? null]));
  const doc: Record<string, unknown> = {
    id: d.id,
    name_norm: d.nameNorm,
    name_stem: d.nameStem,
    brand: d.brand,
    brand_norm: d.brandNorm,
    brand_key: d.brandNorm == null ? null : toFilterKey(d.brandNorm),
    codes: d.codes,
    category_ids: d.categoryIds.map(toFilterKey),
    category_facet: facetValues(false),
    category_tree: facetValues(true),
    category_text: d.categoryText,
    attribute_text: d.attributeText,
    description_norm: d.descriptionNorm,
    price: d.price,
    in_stock: d.inStock,
    visible: d.visible,
    popularity: d.popularity,
    margin: d.margin,
    created_at: d.createdAt,
    version: d.version ?? null,
    card_json: JSON.stringify(d.card),
    description_json: d.description ? JSON.stringify(d.description) : null,
  };
  for (const [name, value] of Object.entries(d.facets)) {
    const values = Array.isArray(value) ? value : [value];
    doc[facetFieldName(name)] = values.map((v) => toFilterKey(String(v)));
    // A number as text in any digits the stores write: "٥٢" (Arabic-Indic) is 52.
    const numbers = values.flatMap((v) =>
      typeof v === 'number' ? [v] : typeof v === 'string' && NUMERIC_TEXT.test(asciiDigits(v)) ? [Number(asciiDigits(v))] : [],
    );
    if (numbers.length) doc[numericFieldName(name)] = numbers;
  }
  return doc;
}

/** A category facet value (`[id, label]` JSON) as id and label. */
export function parseCategoryFacetValue(value: string): { value: string; label?: Record<string, string> } {
  try {
    const [id, label] = JSON.parse(value) as [string, Record<string, string> | null];
    return label ? { value: id, label } : { value: id };
  } catch {
    return { value };
  }
}
