import { basename, dirname } from 'node:path';
import { mapChorus } from './chorus.mapper.js';
import { mapFlipkart } from './flipkart.mapper.js';
import { mapProductIn } from './product-in.mapper.js';
import type { ProductIn } from './product-in.js';

export {
  mapChorus,
  inferChorusType,
  typeFromAttributes,
  typeFromSpecs,
  centsToDecimal,
  chorusAttributes,
  CHORUS_TYPES,
  CHORUS_ACCESSORY_TYPES,
  MAX_CHORUS_ATTRIBUTES,
} from './chorus.mapper.js';
export type { ChorusRaw } from './chorus.mapper.js';
export { mapChorusRaw } from './chorus-raw.mapper.js';
export { mapCrowdflower } from './crowdflower.mapper.js';
export type { CrowdflowerRaw } from './crowdflower.mapper.js';
export { mapFlipkart, flipkartCategoryLevels, flipkartCategoryId } from './flipkart.mapper.js';
export type { FlipkartRaw } from './flipkart.mapper.js';
export { mapProductIn } from './product-in.mapper.js';
export { readJsonl } from './read-jsonl.js';
export type { ProductIn, CategoryRef, AttributeValue, LangText } from './product-in.js';

/** The catalogs we have mappers for. */
export type CatalogKind = 'chorus' | 'flipkart' | 'product-in';

/** A raw-record -> ProductIn mapper; null means "skip this record". */
export type CatalogMapper = (raw: Record<string, unknown>) => ProductIn | null;

/** The mapper for a catalog kind. */
export function mapperFor(kind: CatalogKind): CatalogMapper {
  switch (kind) {
    case 'chorus':
      return mapChorus;
    case 'flipkart':
      return mapFlipkart;
    case 'product-in':
      return mapProductIn;
    default:
      throw new Error(`unknown catalog kind: ${String(kind)}`);
  }
}

const KIND_BY_NAME: Array<[RegExp, CatalogKind]> = [
  [/chorus|icecat/i, 'chorus'],
  [/flipkart/i, 'flipkart'],
  [/product-in/i, 'product-in'],
];

/** The catalog kind of a data file, from its folder name (chorus-icecat/..., flipkart-products/...), then the file name (`*.product-in.jsonl`); throws when unknown. */
export function detectCatalogKind(path: string): CatalogKind {
  for (const part of [basename(dirname(path)), basename(path)]) {
    const hit = KIND_BY_NAME.find(([re]) => re.test(part));
    if (hit) return hit[1];
  }
  throw new Error(
    `cannot tell the catalog kind of ${path}: expected a chorus-icecat/ or flipkart-products/ folder or a *.product-in.jsonl file (or pass the kind explicitly)`,
  );
}
