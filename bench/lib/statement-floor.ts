import pg from 'pg';
import { loadConfig } from '../../shared/platform/config.js';
import { createDeps } from '../../shared/deps.js';
import { queryMix, toInput } from './query-mix.js';
import type { EngineQuery } from '../../shared/engines/lexical/port.js';

type Statement = { sql: string; bindings: unknown[] };

/**
 * A client on a kept bench database (`BENCH_KEEP=1 npm run bench:search`) with the API pool's
 * work_mem, its bench store and the query mix; the caller ends the client.
 */
export async function openBenchStore(url: string): Promise<{ client: pg.Client; tenantId: string; mix: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    // The API pool's setting (shared/platform/db/knex.ts).
    await client.query(`SET work_mem = '32MB'`);
    const tenant = (await client.query(`SELECT id FROM tenants WHERE name = 'bench' ORDER BY created_at DESC LIMIT 1`)).rows[0];
    if (!tenant) throw new Error('no bench store in that database');
    return { client, tenantId: tenant.id, mix: queryMix(loadConfig().sharedDataDir).mix };
  } catch (err) {
    await client.end();
    throw err;
  }
}

/** The words the service searched for one search of the mix: its first engine query's terms (typos corrected, phrases, synonyms). */
export type SearchedWords = Pick<EngineQuery, 'tokens' | 'terms' | 'prefixLast'>;

/**
 * The statements the service itself sends for each search of the mix, cache off: recorded from a
 * SearchService in this process (after a warm-up pass, so the store's context, vocabulary and
 * dictionary are loaded and only the search's own statements remain).
 */
export async function recordSearchStatements(env: Record<string, string>, tenantId: string, mix: string[]): Promise<Statement[][]> {
  return (await recordSearches(env, tenantId, mix)).statements;
}

/** recordSearchStatements, and the words each search asked the engine for first (SearchedWords). */
export async function recordSearches(
  env: Record<string, string>,
  tenantId: string,
  mix: string[],
): Promise<{ statements: Statement[][]; words: SearchedWords[] }> {
  const deps = createDeps(loadConfig({ ...process.env, ...env, SEARCH_CACHE_TTL_MS: '0', QUEUE_PREFIX: `${env.QUEUE_PREFIX}rec` }));
  try {
    const inputs = mix.map((m) => ({ ...toInput(m), debug: false }));
    for (const input of inputs) await deps.search.search(tenantId, input);
    let current: Statement[] = [];
    deps.db.on('query', (q: Statement) => current.push({ sql: q.sql, bindings: q.bindings }));
    let first: SearchedWords | null = null;
    const search = deps.engine.search.bind(deps.engine);
    deps.engine.search = (q) => {
      first ??= { tokens: q.tokens, terms: q.terms, prefixLast: q.prefixLast };
      return search(q);
    };
    const statements: Statement[][] = [];
    const words: SearchedWords[] = [];
    for (const input of inputs) {
      current = [];
      first = null;
      await deps.search.search(tenantId, input);
      statements.push(current);
      words.push(first ?? { tokens: [], prefixLast: false });
    }
    return { statements, words };
  } finally {
    await deps.close();
  }
}

/**
 * The floor under uncached search: the service's own statements for each search (recorded above),
 * sent one after another per search as the service sends them, `concurrency` searches at a time,
 * straight to Postgres. No HTTP, no pipeline, no ranking code: what Postgres alone allows.
 */
export async function replayLoad(databaseUrl: string, searches: Statement[][], concurrency: number, durationMs: number) {
  const clients = Array.from({ length: concurrency }, () => new pg.Client({ connectionString: databaseUrl }));
  await Promise.all(clients.map((c) => c.connect()));
  const latencies: number[] = [];
  let i = 0;
  const end = Date.now() + durationMs;
  const t0 = performance.now();
  await Promise.all(
    clients.map(async (conn) => {
      while (Date.now() < end) {
        const s = performance.now();
        for (const st of searches[i++ % searches.length]) await conn.query(st.sql, st.bindings);
        latencies.push(performance.now() - s);
      }
    }),
  ).finally(() => Promise.all(clients.map((c) => c.end())));
  latencies.sort((a, b) => a - b);
  return {
    rps: latencies.length / ((performance.now() - t0) / 1000),
    p50: latencies[Math.floor(latencies.length / 2)],
    p99: latencies[Math.floor(latencies.length * 0.99)],
    statements: searches.reduce((a, s) => a + s.length, 0) / searches.length,
  };
}
