import { fileURLToPath } from 'node:url';
import type { CatalogKind } from '../catalog/mappers.js';

/** A catalog file shipped in the repo, with the mapper kind that reads it. */
export interface ShippedSample {
  file: string;
  kind: CatalogKind;
  /** What the demo prints while loading it. */
  label: string;
}

const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));

/** A varied subset of the Flipkart catalog (CC BY-SA 4.0, see README.md here); regenerate with select-flipkart.ts. */
export const FLIPKART_SAMPLE: ShippedSample = { file: here('flipkart-sample.jsonl.gz'), kind: 'flipkart', label: 'Flipkart sample (real products, INR)' };

/** Arabic-English products written for the demo (not real store data), already in the API's ProductIn shape. */
export const DEMO_STORE_SAMPLE: ShippedSample = {
  file: here('demo-store.product-in.jsonl'),
  kind: 'product-in',
  label: 'Arabic-English demo store (written for the demo, SAR)',
};

/** What `npm run demo` loads when no catalog is given. */
export const SHIPPED_SAMPLES: readonly ShippedSample[] = [FLIPKART_SAMPLE, DEMO_STORE_SAMPLE];
