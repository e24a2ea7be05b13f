import { centsToDecimal, chorusAttributes, type ChorusRaw } from './chorus.mapper.js';
import { LIMITS, text, type ProductIn } from './product-in.js';

/**
 * Maps one Chorus/Icecat record to ProductIn as a store's own feed would send it: the fields the
 * data has and nothing the loader infers (no categories, every attribute rather than the first 40).
 * The evaluation's figure that counts is measured on this; `mapChorus` adds inferred categories.
 * Throws on a record without a usable id or price, as `mapChorus` does.
 */
export function mapChorusRaw(raw: ChorusRaw): ProductIn {
  const id = raw.id === undefined || raw.id === null ? null : text(String(raw.id), Infinity);
  if (!id || id.length > LIMITS.id) throw new Error(`chorus record without a usable id: ${JSON.stringify(raw.id)}`);
  const cents = typeof raw.price === 'string' && raw.price.trim() ? Number(raw.price) : raw.price;
  if (typeof cents !== 'number' || !Number.isFinite(cents) || cents < 0) throw new Error(`chorus record ${id} has no valid price`);
  const description = text(raw.short_description, LIMITS.text);
  const firstEan = Array.isArray(raw.ean) ? text(raw.ean[0], Infinity) : null;
  return {
    id,
    name: { en: text(raw.title, LIMITS.text) ?? text(raw.name, LIMITS.text) ?? id },
    ...(description ? { description: { en: description } } : {}),
    brand: text(raw.supplier, LIMITS.brand),
    model: text(raw.name, LIMITS.model),
    gtin: firstEan && firstEan.length <= LIMITS.gtin ? firstEan : null,
    price: centsToDecimal(cents),
    currency: 'USD',
    attributes: chorusAttributes(raw, Infinity),
  };
}
