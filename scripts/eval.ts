import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../shared/platform/config.js';
import { startAllInOne } from './all-in-one.js';
import { createTenantWithKey } from '../shared/access/tenants.js';
import { clearRedisPrefix, freshDatabase } from './lib/fresh-database.js';
import { loadCatalog } from './lib/load-catalog.js';
import { waitSearchable } from './lib/wait-searchable.js';
import { baselineSearch, prepareBaseline } from './eval/baseline.js';
import { judgedAt, mean, ndcgAt, parseJudgments, reciprocalRank } from './eval/metrics.js';

/**
 * npm run eval: indexes the Chorus/Icecat catalog through the public API on a fresh database,
 * runs the dev judgments' queries through /v1/search, and prints nDCG@10, judged@10 and MRR
 * beside a plain Postgres full-text baseline measured in the same run.
 */
const { values } = parseArgs({ options: { data: { type: 'string' }, judgments: { type: 'string' }, show: { type: 'string' }, synonyms: { type: 'string' }, keep: { type: 'boolean' }, reuse: { type: 'string' } } });
const base = loadConfig();
const dataDir = resolve(values.data ?? join(base.sharedDataDir, 'chorus-icecat'));
const judgments = parseJudgments(await readFile(values.judgments ?? join(dataDir, 'judgments-dev.csv'), 'utf8'));
const K = 10;

// --keep leaves the indexed database behind; --reuse <url> runs the queries again on it (ranking work without re-indexing).
const reusePrefix = `pssevalreuse${Date.now()}`;
const db = values.reuse ? { url: values.reuse, prefix: reusePrefix, drop: () => clearRedisPrefix(base.redisUrl, reusePrefix) } : await freshDatabase(base.databaseUrl, 'pss_eval');
const config = loadConfig({ ...process.env, DATABASE_URL: db.url, PORT: '0', QUEUE_PREFIX: db.prefix, VOCAB_DEBOUNCE_MS: '1000', LOG_LEVEL: 'warn', MIGRATE_ON_START: 'true' });
const app = await startAllInOne(config);
try {
  const reused = values.reuse ? await app.apiDeps.db('tenants').where({ name: 'eval' }).first() : null;
  const { tenant, key } = reused
    ? { tenant: reused, key: (await app.apiDeps.repos.keys.create(reused.id, { name: 'eval rerun', kind: 'secret', scopes: ['search', 'synonyms:write'], allowedOrigins: [], expiresAt: null })).key }
    : await createTenantWithKey(app.apiDeps, { name: 'eval', locales: ['en'], defaultLocale: 'en' });
  if (values.synonyms) {
    // Through the public import API, as a store would send its synonym file.
    const content = await readFile(values.synonyms, 'utf8');
    const res = await fetch(`${app.url}/v1/synonyms/import`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ format: 'solr', content, mode: 'replace' }) });
    process.stderr.write(`synonyms ${values.synonyms}: ${res.status} ${await res.text()}\n`);
  }
  if (!reused) {
    const loaded = await loadCatalog({ url: app.url, key, file: join(dataDir, 'products.jsonl.gz'), kind: 'chorus', inFlight: 2 });
    await waitSearchable(app.apiDeps, tenant.id);
    await prepareBaseline(app.apiDeps.db, tenant.id);
    process.stderr.write(`indexed ${loaded.sent} products; running ${judgments.size} queries\n`);
  }

  // Deeper lists for the condensed metric (judged results only); the main metric reads the top K.
  const DEEP = 50;
  const rows: Array<{ query: string; ours: number; base: number; judged: number; baseJudged: number; rr: number; oursCondensed: number; baseCondensed: number }> = [];
  for (const [query, judged] of judgments) {
    if (![...judged.values()].some((g) => g > 0)) continue;
    const res = await fetch(`${app.url}/v1/search?${new URLSearchParams({ q: query, per_page: String(DEEP), lang: 'en' })}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { ids: string[] };
    const oursDeep = body.ids ?? [];
    const theirsDeep = await baselineSearch(app.apiDeps.db, query, DEEP);
    const ours = oursDeep.slice(0, K);
    const theirs = theirsDeep.slice(0, K);
    const condensed = (list: string[]) => ndcgAt(K, list.filter((id) => judged.has(id)), judged);
    if (values.show?.split(',').includes(query)) await show(app.apiDeps.db, query, ours, judged, theirs);
    rows.push({
      query, ours: ndcgAt(K, ours, judged), base: ndcgAt(K, theirs, judged), judged: judgedAt(K, ours, judged), baseJudged: judgedAt(K, theirs, judged),
      rr: reciprocalRank(ours, judged), oursCondensed: condensed(oursDeep), baseCondensed: condensed(theirsDeep),
    });
  }
  rows.sort((a, b) => a.ours - b.ours);
  process.stdout.write(`${'query'.padEnd(28)} ${'ndcg@10'.padStart(8)} ${'baseline'.padStart(8)} ${'judged'.padStart(7)} ${'rr'.padStart(5)}\n`);
  for (const r of rows) {
    process.stdout.write(`${r.query.slice(0, 28).padEnd(28)} ${r.ours.toFixed(3).padStart(8)} ${r.base.toFixed(3).padStart(8)} ${r.judged.toFixed(2).padStart(7)} ${r.rr.toFixed(2).padStart(5)}\n`);
  }
  const ours = mean(rows.map((r) => r.ours));
  const baseline = mean(rows.map((r) => r.base));
  process.stdout.write(`\nqueries: ${rows.length}\nnDCG@10: ${ours.toFixed(4)}   baseline (postgres english FTS, all then any terms): ${baseline.toFixed(4)}   ratio: ${(ours / baseline).toFixed(3)}\n`);
  process.stdout.write(`judged@10: ${mean(rows.map((r) => r.judged)).toFixed(4)} (baseline ${mean(rows.map((r) => r.baseJudged)).toFixed(4)})   MRR (first grade>=2): ${mean(rows.map((r) => r.rr)).toFixed(4)}\n`);
  // Unjudged results count as 0 above; the judgments were pooled from other systems' results. The
  // condensed form (unjudged results left out of each list before cutting at 10) shows the ranking
  // of what was judged, without that pool's bias.
  process.stdout.write(`condensed nDCG@10 (judged results only): ${mean(rows.map((r) => r.oursCondensed)).toFixed(4)}   baseline: ${mean(rows.map((r) => r.baseCondensed)).toFixed(4)}\n`);
} finally {
  await app.stop();
  if (values.keep) process.stderr.write(`kept database: npm run eval -- --reuse ${db.url}\n`);
  else await db.drop();
}

/** --show q1,q2: the top results of those queries with their grades, and the best-graded products we missed. */
async function show(db: import('knex').Knex, query: string, ours: string[], judged: Map<string, number>, baseline: string[]) {
  const names = async (ids: string[]) => new Map((await db('products').select('id', db.raw(`data->'name'->>'en' AS name`), db.raw(`data->'categories'->0->'path'->1->>'en' AS cat`)).whereIn('id', ids)).map((r: { id: string; name: string; cat: string }) => [r.id, `${r.name.slice(0, 90)} [${r.cat ?? '-'}]`]));
  const n = await names(ours);
  process.stdout.write(`\n== ${query}\n`);
  ours.forEach((id, i) => process.stdout.write(`  ${i + 1}. (${judged.get(id) ?? '?'}) ${n.get(id)}\n`));
  const missed = [...judged].filter(([id, g]) => g >= 2 && !ours.includes(id)).slice(0, 5).map(([id]) => id);
  const m = await names(missed);
  for (const id of missed) process.stdout.write(`  missed (${judged.get(id)}) ${m.get(id)}\n`);
  const b = await names(baseline);
  baseline.forEach((id, i) => process.stdout.write(`  baseline ${i + 1}. (${judged.get(id) ?? '?'}) ${b.get(id)}\n`));
}
