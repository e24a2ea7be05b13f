import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mapChorus } from '../catalog/chorus.mapper.js';
import { mapChorusRaw } from '../catalog/chorus-raw.mapper.js';
import { mapCrowdflower } from '../catalog/crowdflower.mapper.js';
import type { ProductIn } from '../catalog/product-in.js';
import { readJsonl } from '../catalog/read-jsonl.js';
import { postBatchBody } from '../lib/load-catalog.js';
import { parseJudgments, type Judgments } from './metrics.js';

/**
 * The judged collections `npm run eval` scores, each loaded through the public batch API onto a
 * tenant of its own. Raw loads are the figures that count (a store's own data is what the service
 * meets); `chorus+categories` adds the Chorus loader's inferred categories as a second figure.
 */
export interface Collection {
  /** Shown in the tables and summary lines; also names the tenant (`eval-<name>`). */
  name: string;
  /** The folder under the shared data dir: products.jsonl.gz and judgments-dev.csv. */
  folder: string;
  map: (raw: Record<string, unknown>) => ProductIn | null;
}

export const COLLECTIONS = {
  chorus: { name: 'chorus', folder: 'chorus-icecat', map: mapChorusRaw },
  'chorus+categories': { name: 'chorus+categories', folder: 'chorus-icecat', map: mapChorus },
  crowdflower: { name: 'crowdflower', folder: 'crowdflower-dev', map: mapCrowdflower },
} satisfies Record<string, Collection>;

/** The collections of one run: both raw ones (or only `only`), plus Chorus with categories when asked for. */
export function selectCollections(only: string | undefined, categories: boolean): Collection[] {
  if (only !== undefined && only !== 'chorus' && only !== 'crowdflower') throw new Error(`--collection is chorus or crowdflower, not ${only}`);
  const out: Collection[] = [];
  if (only !== 'crowdflower') out.push(COLLECTIONS.chorus, ...(categories ? [COLLECTIONS['chorus+categories']] : []));
  if (only !== 'chorus') out.push(COLLECTIONS.crowdflower);
  return out;
}

/** Every product of a collection, mapped as it will be sent (kept in memory: the peers index the same objects). */
export async function readProducts(dataDir: string, c: Collection): Promise<ProductIn[]> {
  const out: ProductIn[] = [];
  for await (const raw of readJsonl(join(dataDir, c.folder, 'products.jsonl.gz'))) {
    const p = c.map(raw as Record<string, unknown>);
    if (p) out.push(p);
  }
  return out;
}

export async function readCollectionJudgments(dataDir: string, c: Collection): Promise<Map<string, Judgments>> {
  return parseJudgments(await readFile(join(dataDir, c.folder, 'judgments-dev.csv'), 'utf8'));
}

/** Sends products through POST /v1/products/batch, 1,000 a batch, two batches in flight; returns the per-item errors. */
export async function sendProducts(
  url: string,
  key: string,
  products: ProductIn[],
  runId: string,
): Promise<Array<{ id: string | null; code: string; message: string }>> {
  const errors: Array<{ id: string | null; code: string; message: string }> = [];
  const batches: ProductIn[][] = [];
  for (let i = 0; i < products.length; i += 1000) batches.push(products.slice(i, i + 1000));
  let next = 0;
  const lane = async () => {
    while (next < batches.length) {
      const no = next++;
      const body = await postBatchBody(url, key, `eval-${runId}-${no}`, JSON.stringify({ upsert: batches[no] }));
      errors.push(...body.errors);
    }
  };
  await Promise.all([lane(), lane()]);
  return errors;
}
