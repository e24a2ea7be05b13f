import { resolve } from 'node:path';
import { loadConfig } from '../shared/platform/config.js';
import { startAllInOne } from './all-in-one.js';
import { clearRedisPrefix, freshDatabase } from './lib/fresh-database.js';
import { selectCollections } from './eval/collections.js';
import { detailLines, formatTable, summarize, summaryLine, type Summary } from './eval/report.js';
import { runCollection } from './eval/run-collection.js';
import { misspell } from './eval/typos.js';
import { parseCli } from './lib/cli.js';

const USAGE = `usage: npm run eval [-- [--collection chorus|crowdflower] [--categories] [--show q1,q2] [--synonyms file.txt] [--typos] [--keep | --reuse <database url>]]`;

/**
 * npm run eval: loads each judged dev collection raw (Chorus/Icecat, CrowdFlower) through the
 * public batch API onto a tenant of its own in a fresh database, runs its judged queries through
 * /v1/search, and scores nDCG@10 beside peers computed in the same run on the same products: a
 * Postgres full-text baseline and the MiniSearch BM25 library (defaults, and tuned).
 *   --collection chorus|crowdflower   only one collection
 *   --categories                      also Chorus with the loader's inferred categories (second figure)
 *   --show q1,q2                      every system's top 10 for those queries
 *   --synonyms file.txt               a Solr synonym file imported on every tenant
 *   --typos                           then every query again with one typing error (scripts/eval/typos.ts), "<collection>+typos"
 *   --keep / --reuse <url>            keep the indexed database / rerun the queries on a kept one
 */
const { values } = parseCli(USAGE, {
  options: {
    collection: { type: 'string' },
    categories: { type: 'boolean' },
    show: { type: 'string' },
    synonyms: { type: 'string' },
    typos: { type: 'boolean' },
    keep: { type: 'boolean' },
    reuse: { type: 'string' },
  },
});
const collections = selectCollections(values.collection, values.categories ?? false);
const base = loadConfig();

const reusePrefix = `pssevalreuse${Date.now()}`;
const db = values.reuse
  ? { url: values.reuse, prefix: reusePrefix, drop: () => clearRedisPrefix(base.redisUrl, reusePrefix) }
  : await freshDatabase(base.databaseUrl, 'pss_eval');
const config = loadConfig({
  BILLING_DEFAULT_PLAN: 'enterprise',
  // The eval measures relevance, not latency: on a loaded machine the baseline's bulk insert and a
  // slow query must not hit the API pool's statement timeout (still settable through the environment).
  API_STATEMENT_TIMEOUT_MS: '0',
  ...process.env,
  DATABASE_URL: db.url,
  PORT: '0',
  QUEUE_PREFIX: db.prefix,
  VOCAB_DEBOUNCE_MS: '1000',
  LOG_LEVEL: 'warn',
  MIGRATE_ON_START: 'true',
});
const app = await startAllInOne(config);
const summaries: Summary[] = [];
try {
  const opts = {
    dataDir: resolve(base.sharedDataDir),
    app,
    reuse: !!values.reuse,
    synonyms: values.synonyms,
    show: values.show?.split(',') ?? [],
    k: 10,
    deep: 50,
  };
  for (const c of collections) {
    const rows = await runCollection(c, opts);
    process.stdout.write(`\n${formatTable(c.name, rows)}`);
    summaries.push(summarize(c.name, rows));
    if (!values.typos) continue;
    // The same tenant, each query asked with a typing error.
    const typed = await runCollection(c, { ...opts, reuse: true, synonyms: undefined, ask: misspell });
    process.stdout.write(`\n${formatTable(`${c.name}+typos`, typed)}`);
    summaries.push(summarize(`${c.name}+typos`, typed));
  }
  process.stdout.write(
    '\nnDCG@10 (unjudged = 0); peers: pg-fts = Postgres english FTS all-then-any terms, ms-def = MiniSearch defaults (OR), ms-tuned = MiniSearch name x2, AND then OR fill\n',
  );
  for (const s of summaries) process.stdout.write(`${summaryLine(s)}\n${detailLines(s)}\n`);
} finally {
  await app.stop();
  if (values.keep)
    process.stderr.write(
      `kept database: npm run eval -- --reuse ${db.url}${values.collection ? ` --collection ${values.collection}` : ''}${values.categories ? ' --categories' : ''}\n`,
    );
  else await db.drop();
}
