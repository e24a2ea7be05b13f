import type { SearchDoc } from '../engines/lexical/port.js';
import type { VectorPayload } from '../engines/vectors/port.js';

/** What the embedder reads of a product: names (all languages), brand, category labels and attribute values. */
export function vectorText(d: SearchDoc): string {
  return [d.nameNorm, d.brandNorm ?? '', d.categoryText, d.attributeText.slice(0, 300)].join(' ');
}

/** The filter fields stored beside a product's vector. */
export function vectorPayload(d: SearchDoc): VectorPayload {
  return { categoryIds: d.categoryIds, brand: d.brand, price: d.price, inStock: d.inStock, visible: d.visible };
}
