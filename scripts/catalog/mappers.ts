import type { ProductIn } from './product-in.js';
import { mapChorus } from './chorus.mapper.js';
import { mapFlipkart } from './flipkart.mapper.js';

export type CatalogKind = 'chorus' | 'flipkart';

/** The mapper of a catalog kind. */
export function mapperFor(kind: CatalogKind): (raw: Record<string, unknown>) => ProductIn | null {
  return kind === 'chorus' ? mapChorus : mapFlipkart;
}

/** Guesses the catalog kind from its folder name. */
export function detectCatalogKind(path: string): CatalogKind {
  if (/chorus|icecat/i.test(path)) return 'chorus';
  if (/flipkart/i.test(path)) return 'flipkart';
  throw new Error(`cannot tell the catalog kind of ${path}: pass --kind chorus|flipkart`);
}
