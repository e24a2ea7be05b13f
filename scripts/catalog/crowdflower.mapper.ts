import { LIMITS, text, type ProductIn } from './product-in.js';

/** A CrowdFlower dev record (../shared/data/crowdflower-dev/README.md): `{id, title, description}`, description null or raw HTML. */
export type CrowdflowerRaw = Record<string, unknown>;

/**
 * Maps one CrowdFlower record to ProductIn: title as the name, description exactly as the retailer
 * wrote it (HTML included: a store sends what its platform holds). The collection has no brand,
 * category, attribute or price; the API needs a price, so every product gets 0 USD. Null when a
 * record has no id or title (none in the dev file).
 */
export function mapCrowdflower(raw: CrowdflowerRaw): ProductIn | null {
  const id = typeof raw.id === 'string' ? text(raw.id, Infinity) : null;
  const name = text(raw.title, LIMITS.text);
  if (!id || id.length > LIMITS.id || !name) return null;
  const description = text(raw.description, LIMITS.text);
  return { id, name: { en: name }, ...(description ? { description: { en: description } } : {}), price: '0.00', currency: 'USD' };
}
