import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Knex } from 'knex';
import type { Redis } from 'ioredis';
import { eachTenantRow, tenantTables } from './tenant-tables.js';
import { writeTarGz } from './tar.js';

/** Credentials, replayable answers and other exports: never in an archive. */
const NOT_EXPORTED = new Set(['api_keys', 'dashboard_sessions', 'idempotency_keys', 'data_exports']);
/** Rebuilt from the products by the pipelines; not what the store sent. */
const DERIVED = new Set([
  'search_docs',
  'search_cards',
  'search_vocab',
  'suggest_terms',
  'search_categories',
  'category_profiles',
  'product_index_state',
  'search_generations',
  // A translation job's provider answers, kept only until its chunk is done (the translations are in translation_items).
  'translation_answers',
]);
/** Columns left out of exported rows. */
const HIDDEN_COLUMNS: Record<string, string[]> = { webhook_receivers: ['secret'] };

export const EXPORT_EXCLUDED = [...NOT_EXPORTED, ...DERIVED];

async function writeLines(out: WriteStream, rows: Record<string, unknown>[], hidden: string[] = []): Promise<void> {
  const text =
    rows
      .map((r) => {
        const copy = { ...r };
        for (const c of hidden) delete copy[c];
        return JSON.stringify(copy);
      })
      .join('\n') + '\n';
  if (!out.write(text)) await new Promise<void>((r) => out.once('drain', () => r()));
}

async function closeStream(out: WriteStream): Promise<void> {
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
}

export interface ArchiveResult {
  file: string;
  bytes: number;
  /** Rows (lines) per archive entry. */
  files: Record<string, number>;
}

/**
 * The store's data as `<dir>/<tenant>/<name>.tar.gz`: one JSON-lines file per table with a
 * tenant column (catalog, synonyms, translations, rules, experiments, events, search log,
 * usage costs, jobs, receivers without secrets …; credentials and derived index tables left out),
 * `tenants.jsonl` (the store's own row) plus `usage.json` (the search counters kept in Redis) and `manifest.json`.
 */
export async function writeDataArchive(deps: { db: Knex; redis: Redis; prefix: string }, dir: string, tenantId: string, name: string): Promise<ArchiveResult> {
  const work = resolve(dir, tenantId, `${name}.parts`);
  await mkdir(work, { recursive: true });
  try {
    const files: Record<string, number> = {};
    const entries: Array<{ name: string; path: string }> = [];
    for (const table of await tenantTables(deps.db)) {
      if (NOT_EXPORTED.has(table) || DERIVED.has(table)) continue;
      const path = join(work, `${table}.jsonl`);
      const out = createWriteStream(path);
      files[`${table}.jsonl`] = await eachTenantRow(deps.db, table, tenantId, (rows) => writeLines(out, rows, HIDDEN_COLUMNS[table]));
      await closeStream(out);
      entries.push({ name: `${table}.jsonl`, path });
    }
    // The store's own row (name, locales, settings such as its ranking): keyed by `id`, so the walk above never reads it.
    const store = await deps.db('tenants').where({ id: tenantId });
    await writeFile(join(work, 'tenants.jsonl'), store.map((r) => JSON.stringify(r) + '\n').join(''));
    entries.push({ name: 'tenants.jsonl', path: join(work, 'tenants.jsonl') });
    files['tenants.jsonl'] = store.length;
    const usage = await usageCounters(deps.redis, deps.prefix, tenantId);
    await writeFile(join(work, 'usage.json'), JSON.stringify(usage, null, 2));
    entries.push({ name: 'usage.json', path: join(work, 'usage.json') });
    files['usage.json'] = Object.keys(usage).length;
    await writeFile(
      join(work, 'manifest.json'),
      JSON.stringify({ tenant_id: tenantId, created_at: new Date().toISOString(), files, excluded: EXPORT_EXCLUDED }, null, 2),
    );
    entries.unshift({ name: 'manifest.json', path: join(work, 'manifest.json') });
    const file = resolve(dir, tenantId, `${name}.tar.gz`);
    const bytes = await writeTarGz(file, entries);
    return { file, bytes, files };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The catalog as JSON lines (one stored product per line), gzipped: the `export` job. */
export async function writeCatalogExport(db: Knex, dir: string, tenantId: string, name: string): Promise<ArchiveResult> {
  await mkdir(resolve(dir, tenantId), { recursive: true });
  const plain = resolve(dir, tenantId, `${name}.jsonl`);
  const out = createWriteStream(plain);
  const n = await eachTenantRow(db, 'products', tenantId, (rows) => writeLines(out, rows));
  await closeStream(out);
  const file = resolve(dir, tenantId, `${name}.tar.gz`);
  try {
    const bytes = await writeTarGz(file, [{ name: 'products.jsonl', path: plain }]);
    return { file, bytes, files: { 'products.jsonl': n } };
  } finally {
    await rm(plain, { force: true });
  }
}

/** `usage:search:<tenant>:<day or month>` counters -> { "search:<period>": n }. */
async function usageCounters(redis: Redis, prefix: string, tenantId: string): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  const match = `${prefix}:usage:*${tenantId}*`;
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', match, 'COUNT', 1000);
    cursor = next;
    if (keys.length) {
      const values = await redis.mget(...keys);
      keys.forEach((k, i) => (out[k.slice(prefix.length + ':usage:'.length).replace(`${tenantId}:`, '')] = Number(values[i] ?? 0)));
    }
  } while (cursor !== '0');
  return out;
}
