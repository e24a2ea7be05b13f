import { join } from 'node:path';
import { loadCatalog, type LoadResult } from '../../scripts/lib/load-catalog.js';

const CATALOGS: Array<{ dir: string; kind: 'chorus' | 'flipkart' }> = [
  { dir: 'chorus-icecat', kind: 'chorus' },
  { dir: 'flipkart-products', kind: 'flipkart' },
];

/**
 * Sends `total` products built from the two real catalogs, replicated in rounds with varied
 * ids (`<id>-r<round>`) and prices (+1.7 % per round), through the public batch API.
 */
export async function sendReplicated(opts: { url: string; key: string; dataDir: string; total: number; inFlight: number; runId: string; progress?: boolean }): Promise<LoadResult> {
  const sum: LoadResult = { sent: 0, upserted: 0, unchanged: 0, errors: [], seconds: 0 };
  const started = Date.now();
  for (let round = 0; sum.sent < opts.total; round++) {
    for (const c of CATALOGS) {
      if (sum.sent >= opts.total) break;
      const r = await loadCatalog({
        url: opts.url, key: opts.key, file: join(opts.dataDir, c.dir, 'products.jsonl.gz'), kind: c.kind,
        limit: opts.total - sum.sent, inFlight: opts.inFlight, runId: `${opts.runId}-${round}-${c.kind}`, progress: opts.progress,
        transform: (p) => round === 0 ? p : { ...p, id: `${String(p.id)}-r${round}`, price: (Number(p.price) * (1 + 0.017 * round)).toFixed(2), sale_price: null },
      });
      sum.sent += r.sent;
      sum.upserted += r.upserted;
      sum.unchanged += r.unchanged;
      sum.errors.push(...r.errors);
    }
  }
  sum.seconds = (Date.now() - started) / 1000;
  return sum;
}
