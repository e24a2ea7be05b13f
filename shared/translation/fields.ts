import { sha256 } from '../platform/ids.js';
import type { Field } from './translation.schema.js';

/** What of a stored product translation reads (its own text per language and its codes). */
export interface ProductSource {
  id: string;
  name: Record<string, string>;
  description?: Record<string, string>;
  brand?: string | null;
  model?: string | null;
  sku?: string | null;
  gtin?: string | null;
  categories?: Array<{ id: string; path: Array<Record<string, string>> }>;
  attributes?: Record<string, unknown>;
}

/** One translatable text of a product. */
export interface SourceField {
  productId: string;
  field: Field;
  fieldKey: string;
  sourceLocale: string;
  text: string;
  hash: string;
}

/** The normalized form a source hash is taken of: NFC, whitespace collapsed, trimmed. */
export const normalizeSource = (text: string) => text.normalize('NFC').replace(/\s+/g, ' ').trim();
export const sourceHash = (text: string) => sha256(normalizeSource(text)).slice(0, 32);

/** The language a product's text is translated from: the store's default if the product has it, else its first other language. */
function sourceLocaleOf(map: Record<string, string> | undefined, target: string, preferred: string): string | null {
  if (!map) return null;
  if (preferred !== target && map[preferred]?.trim()) return preferred;
  return Object.keys(map).find((l) => l !== target && map[l]?.trim()) ?? null;
}

/**
 * The product's texts that a translation into `target` would cover, for the fields asked. A field
 * the product already carries in the target language (the store's own translation) is left out.
 */
export function sourceFields(p: ProductSource, target: string, preferred: string, fields: readonly Field[]): SourceField[] {
  const out: SourceField[] = [];
  const want = new Set(fields);
  const add = (field: Field, fieldKey: string, sourceLocale: string, text: string) => {
    if (!text.trim()) return;
    out.push({ productId: p.id, field, fieldKey, sourceLocale, text, hash: sourceHash(text) });
  };
  const nameLocale = sourceLocaleOf(p.name, target, preferred);
  if (want.has('name') && nameLocale && !p.name[target]?.trim()) add('name', '', nameLocale, p.name[nameLocale]);
  const descLocale = sourceLocaleOf(p.description, target, preferred);
  if (want.has('description') && descLocale && !p.description?.[target]?.trim()) add('description', '', descLocale, p.description![descLocale]);
  if (want.has('category')) {
    for (const c of p.categories ?? []) {
      const leaf = c.path[c.path.length - 1];
      const locale = sourceLocaleOf(leaf, target, preferred);
      if (locale && !leaf[target]?.trim()) add('category', c.id, locale, leaf[locale]);
    }
  }
  // Attributes carry no language: they are in the store's default language (or the name's).
  const attrLocale = nameLocale ?? preferred;
  for (const [key, value] of Object.entries(p.attributes ?? {})) {
    if (want.has('attribute_name') && /\p{L}/u.test(key)) add('attribute_name', key, attrLocale, key);
    if (!want.has('attribute_value')) continue;
    if (typeof value === 'string' && /\p{L}/u.test(value)) add('attribute_value', key, attrLocale, value);
    if (Array.isArray(value)) value.forEach((v, i) => typeof v === 'string' && /\p{L}/u.test(v) && add('attribute_value', `${key}#${i}`, attrLocale, v));
  }
  return out;
}

/** Key of an item among a product's fields. */
export const fieldId = (f: { productId: string; field: string; fieldKey: string }) => `${f.productId}\u0000${f.field}\u0000${f.fieldKey}`;
