import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { normalizeText } from '../shared/text/normalize.js';
import { SuggestDictionary } from '../shared/search/suggest-dictionary.js';
import { parseJudgments } from '../scripts/eval/metrics.js';

/**
 * bench/suggest-dictionary: the in-memory suggestion dictionary of the biggest tenant in
 * DATABASE_URL (e.g. a database kept by `BENCH_KEEP=1 npm run bench:search`): rows, load and
 * build time, heap it holds, and completion time over the bench's prefixes. Needs --expose-gc:
 *   DATABASE_URL=... node --expose-gc --import tsx bench/suggest-dictionary.ts
 */
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc --import tsx');
const config = loadConfig();
const deps = createDeps(config);
try {
  const [top] = (await deps.db('suggest_terms').select('tenant_id').count({ n: '*' }).groupBy('tenant_id').orderBy('n', 'desc').limit(1)) as unknown as Array<{
    tenant_id: string;
  }>;
  if (!top) throw new Error('no suggest_terms rows in this database');
  const products = await deps.repos.products.count(top.tenant_id);
  await deps.repos.vocabulary.suggestTerms(top.tenant_id); // warm the connection and the table pages

  let t0 = performance.now();
  const rows = await deps.repos.vocabulary.suggestTerms(top.tenant_id);
  const loadMs = performance.now() - t0;
  const kinds = new Map<string, number>();
  for (const r of rows) kinds.set(r.kind, (kinds.get(r.kind) ?? 0) + 1);
  t0 = performance.now();
  const dict = new SuggestDictionary(rows);
  const buildMs = performance.now() - t0;

  // Memory: three more dictionaries held at once, each built from a copy of the rows with
  // fresh strings (as a load makes them); the copies themselves are garbage when measured.
  const memory = () => {
    gc();
    gc();
    const m = process.memoryUsage();
    return { heap: m.heapUsed, buffers: m.arrayBuffers };
  };
  // The answer memo at its cap: 1,000 distinct prefixes' rows (the service keeps its answers built from them).
  const memoBefore = memory();
  const distinct = [...new Set(rows.flatMap((r) => [2, 3, 4, 6, 8].map((n) => r.norm.slice(0, n).trim())))].filter(Boolean).slice(0, 1000);
  for (const prefix of distinct) dict.memo(prefix, () => dict.complete(prefix, 8));
  const memoMiB = (memory().heap - memoBefore.heap) / 2 ** 20;

  const fresh = (s: string | null) => (s === null ? null : Buffer.from(s).toString());
  const before = memory();
  const held = [];
  for (let i = 0; i < 3; i++)
    held.push(new SuggestDictionary(rows.map((r) => ({ ...r, norm: fresh(r.norm)!, display: fresh(r.display)!, target: fresh(r.target) }))));
  const after = memory();
  const heapMiB = (after.heap - before.heap) / held.length / 2 ** 20;
  const buffersMiB = (after.buffers - before.buffers) / held.length / 2 ** 20;
  held.length = 0;

  const chorus = [...parseJudgments(readFileSync(join(config.sharedDataDir, 'chorus-icecat', 'judgments-dev.csv'), 'utf8')).keys()];
  const prefixes = chorus
    .flatMap((q) => [q.slice(0, 1), q.slice(0, 2), q.slice(0, 3), q.slice(0, 4), q])
    .map((q) => normalizeText(q))
    .filter(Boolean);
  const times: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (const prefix of prefixes) {
      const s = performance.now();
      dict.complete(prefix, 8);
      times.push(performance.now() - s);
    }
  }
  times.sort((a, b) => a - b);
  const us = (q: number) => (times[Math.floor(times.length * q)] * 1000).toFixed(1);
  process.stdout.write(
    [
      `tenant ${top.tenant_id}: ${products} products, ${rows.length} suggestion rows (${[...kinds].map(([k, n]) => `${k} ${n}`).join(', ')})`,
      `load ${loadMs.toFixed(0)} ms, build ${buildMs.toFixed(0)} ms, memory ${(heapMiB + buffersMiB).toFixed(1)} MiB (${heapMiB.toFixed(1)} heap + ${buffersMiB.toFixed(1)} typed arrays, ${(((heapMiB + buffersMiB) * 2 ** 20) / rows.length).toFixed(0)} B per row)`,
      `answer memo full (${distinct.length} prefixes): ${memoMiB.toFixed(1)} MiB more`,
      `complete (limit 8) over ${prefixes.length} prefixes x5: p50 ${us(0.5)} us, p99 ${us(0.99)} us, max ${us(0.99999)} us`,
    ].join('\n') + '\n',
  );
} finally {
  await deps.close();
}
