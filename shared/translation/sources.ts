import { fieldId, sourceFields, type ProductSource } from './fields.js';
import type { ItemRow, StaleChange } from './items.repo.js';
import { FIELDS } from './translation.schema.js';

/** The current source fields of each product per target locale, built once per product and locale. */
function currentSources(products: ProductSource[], preferred: string) {
  const byProduct = new Map(products.map((p) => [p.id, p]));
  const current = new Map<string, Map<string, { text: string; hash: string }>>();
  return (item: ItemRow): { product: ProductSource | undefined; now: { text: string; hash: string } | undefined } => {
    const product = byProduct.get(item.product_id);
    if (!product) return { product, now: undefined };
    const key = `${product.id}\u0000${item.target_locale}`;
    let map = current.get(key);
    if (!map) current.set(key, (map = new Map(sourceFields(product, item.target_locale, preferred, FIELDS).map((f) => [fieldId(f), f]))));
    return { product, now: map.get(fieldId({ productId: item.product_id, field: item.field, fieldKey: item.field_key })) };
  };
}

/**
 * Items whose source text no longer matches the product (its hash moved), with the new source:
 * they go stale (or, pending, just take it). Items whose field is gone are goneFields' business.
 */
export function staleChanges(items: ItemRow[], products: ProductSource[], preferred: string): StaleChange[] {
  const lookup = currentSources(products, preferred);
  const out: StaleChange[] = [];
  for (const item of items) {
    const { now } = lookup(item);
    if (!now || now.hash === item.source_hash) continue;
    out.push({ id: item.id, source_text: now.text, source_hash: now.hash });
  }
  return out;
}

/**
 * Items of the given products whose field no longer needs translating: the product dropped it, or
 * now carries it in the target language (the store's own translation, which always wins). Left in
 * place, the approved feed and the exports would hand a store module our text to write over the
 * store's own.
 */
export function goneFields(items: ItemRow[], products: ProductSource[], preferred: string): string[] {
  const lookup = currentSources(products, preferred);
  return items
    .filter((item) => {
      const { product, now } = lookup(item);
      return !!product && !now;
    })
    .map((item) => item.id);
}

type LangMap = Record<string, string>;

/**
 * The product with served translations filled into its locale fields (name, description, category
 * leaf labels; attribute values as `<name>@<locale>` attributes). The store's own text always wins.
 */
export function overlay<P extends ProductSource>(product: P, items: ItemRow[]): P {
  if (!items.length) return product;
  const p: ProductSource = { ...product, name: { ...product.name } };
  const fill = (map: LangMap, locale: string, text: string) => {
    if (!map[locale]?.trim()) map[locale] = text;
  };
  for (const item of items) {
    const text = item.translated_text;
    if (text == null) continue;
    const locale = item.target_locale;
    if (item.field === 'name') fill(p.name, locale, text);
    else if (item.field === 'description') fill((p.description = { ...(p.description ?? {}) }), locale, text);
    else if (item.field === 'category') {
      p.categories = (p.categories ?? []).map((c) => {
        if (c.id !== item.field_key) return c;
        const path = [...c.path];
        const leaf = { ...path[path.length - 1] };
        fill(leaf, locale, text);
        path[path.length - 1] = leaf;
        return { ...c, path };
      });
    } else if (item.field === 'attribute_value') {
      const attrs = (p.attributes = { ...(p.attributes ?? {}) });
      const [name, index] = item.field_key.split('#');
      const key = `${name}@${locale}`;
      if (index === undefined) attrs[key] = text;
      else attrs[key] = [...(Array.isArray(attrs[key]) ? (attrs[key] as string[]) : []), text];
    }
  }
  return p as P;
}
