import { join } from 'node:path';
import { postBatchBody, type LoadResult } from '../../scripts/lib/load-catalog.js';
import { mapperFor } from '../../scripts/catalog/mappers.js';
import { readJsonl } from '../../scripts/catalog/read-jsonl.js';

const CATALOGS: Array<{ dir: string; kind: 'chorus' | 'flipkart' }> = [
  { dir: 'chorus-icecat', kind: 'chorus' },
  { dir: 'flipkart-products', kind: 'flipkart' },
];

/**
 * `total` products built from the two real catalogs, replicated in rounds with varied ids
 * (`<id>-r<round>`) and prices (+1.7 % per round), as ready-to-send batch bodies of 1,000: a load
 * generator sends prepared payloads, so the clock measures the service and not this process
 * reading and mapping the source files.
 */
export async function prepareReplicated(dataDir: string, total: number): Promise<string[]> {
  const bodies: string[] = [];
  let batch: Record<string, unknown>[] = [];
  let count = 0;
  for (let round = 0; count < total; round++) {
    for (const c of CATALOGS) {
      const mapper = mapperFor(c.kind);
      for await (const raw of readJsonl(join(dataDir, c.dir, 'products.jsonl.gz'))) {
        if (count >= total) break;
        const p = mapper(raw as never) as unknown as Record<string, unknown> | null;
        if (!p) continue;
        batch.push(round === 0 ? p : { ...p, id: `${String(p.id)}-r${round}`, price: (Number(p.price) * (1 + 0.017 * round)).toFixed(2), sale_price: null });
        count++;
        if (batch.length === 1000) {
          bodies.push(JSON.stringify({ upsert: batch }));
          batch = [];
        }
      }
    }
  }
  if (batch.length) bodies.push(JSON.stringify({ upsert: batch }));
  return bodies;
}

/** Sends prepared bodies, `inFlight` at a time, with a progress line; sums the batch results. */
export async function sendPrepared(opts: {
  url: string;
  key: string;
  bodies: string[];
  inFlight: number;
  runId: string;
  progress?: boolean;
}): Promise<LoadResult> {
  const sum: LoadResult = { sent: 0, upserted: 0, unchanged: 0, errors: [], seconds: 0 };
  const started = Date.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: opts.inFlight }, async () => {
      while (next < opts.bodies.length) {
        const no = next++;
        const r = await postBatchBody(opts.url, opts.key, `bench-${opts.runId}-${no}`, opts.bodies[no]);
        sum.sent += r.upserted + r.unchanged + r.errors.length;
        sum.upserted += r.upserted;
        sum.unchanged += r.unchanged;
        sum.errors.push(...r.errors);
        if (opts.progress)
          process.stderr.write(`\rsent ${sum.sent} products (${Math.round(sum.sent / ((Date.now() - started) / 1000))}/s), errors ${sum.errors.length}   `);
      }
    }),
  );
  if (opts.progress) process.stderr.write('\n');
  sum.seconds = (Date.now() - started) / 1000;
  return sum;
}
