import { readFile } from 'node:fs/promises';
import type { Deps } from '../../shared/deps.js';
import { createTenantWithKey } from '../../shared/access/tenants.js';
import { waitSearchable } from '../lib/wait-searchable.js';
import { baselineSearch, prepareBaseline } from './baseline.js';
import { readCollectionJudgments, readProducts, sendProducts, type Collection } from './collections.js';
import { miniSearchDefault, miniSearchTuned, peerDoc } from './peers.js';
import { scoreQuery, type QueryScores } from './report.js';
import { formatShow } from './show.js';
import { apiClient, must } from '../client/client.js';

export interface RunOptions {
  dataDir: string;
  app: { apiDeps: Deps; url: string };
  /** Run the queries on tenants a kept database already holds (no loading). */
  reuse: boolean;
  synonyms?: string;
  show: string[];
  k: number;
  /** How deep each list is read: the condensed metric looks past k. */
  deep: number;
  /** What is asked for each judged query (its misspelling: --typos); the query as judged when absent. */
  ask?: (query: string) => string;
}

const log = (line: string) => process.stderr.write(`${line}\n`);

/** The tenant of a collection: a new one with its catalog sent through the batch API, or the one a kept database holds. */
async function tenantFor(c: Collection, opts: RunOptions): Promise<{ tenantId: string; key: string }> {
  const deps = opts.app.apiDeps;
  if (opts.reuse) {
    const tenant = await deps
      .db('tenants')
      .where({ name: `eval-${c.name}` })
      .first();
    if (!tenant) throw new Error(`the reused database has no tenant eval-${c.name}`);
    const { key } = await deps.repos.keys.create(tenant.id, {
      name: 'eval rerun',
      kind: 'secret',
      scopes: ['search', 'synonyms:write'],
      allowedOrigins: [],
      expiresAt: null,
    });
    return { tenantId: tenant.id, key };
  }
  const { tenant, key } = await createTenantWithKey(deps, { name: `eval-${c.name}`, locales: ['en'], defaultLocale: 'en' });
  return { tenantId: tenant.id, key };
}

/** Loads one collection on its own tenant (unless reused), runs its judged queries on our search and every peer, and scores them. */
export async function runCollection(c: Collection, opts: RunOptions): Promise<QueryScores[]> {
  const { app, k, deep } = opts;
  const [products, judgments] = await Promise.all([readProducts(opts.dataDir, c), readCollectionJudgments(opts.dataDir, c)]);
  const { tenantId, key } = await tenantFor(c, opts);
  if (opts.synonyms) {
    // Through the public import API, as a store would send its synonym file.
    const content = await readFile(opts.synonyms, 'utf8');
    const res = await apiClient(app.url, key).POST('/v1/synonyms/import', { body: { format: 'solr', content, mode: 'replace' } });
    log(`[${c.name}] synonyms ${opts.synonyms}: ${res.response.status} ${JSON.stringify(res.data ?? res.error)}`);
  }
  if (!opts.reuse) {
    const started = Date.now();
    const errors = await sendProducts(app.url, key, products, `${c.name.replace(/[^A-Za-z0-9]/g, '-')}-${started}`);
    await waitSearchable(app.apiDeps, tenantId);
    await prepareBaseline(app.apiDeps.db, tenantId);
    log(
      `[${c.name}] sent ${products.length} products (${errors.length} rejected${errors[0] ? `, first: ${errors[0].code} ${errors[0].message}` : ''}), searchable in ${Math.round((Date.now() - started) / 1000)} s`,
    );
  }
  const docs = products.map(peerDoc);
  const peers = { minisearch: miniSearchDefault(docs), 'minisearch-tuned': miniSearchTuned(docs) };
  const byId = new Map(products.map((p) => [p.id, p]));
  const rows: QueryScores[] = [];
  const api = apiClient(app.url, key);
  for (const [query, judged] of judgments) {
    // A query none of whose judged products is relevant has no ideal ranking to measure against.
    if (![...judged.values()].some((g) => g > 0)) continue;
    const asked = opts.ask?.(query) ?? query;
    const found = must(`[${c.name}] search "${asked}"`, await api.GET('/v1/search', { params: { query: { q: asked, per_page: deep, lang: 'en' } } }));
    const lists = {
      ours: found.ids,
      pg: await baselineSearch(app.apiDeps.db, tenantId, asked, deep),
      minisearch: peers.minisearch(asked, deep),
      'minisearch-tuned': peers['minisearch-tuned'](asked, deep),
    };
    if (opts.show.includes(query) || opts.show.includes(asked)) process.stdout.write(formatShow(c.name, { query: asked, judged, lists }, byId, k));
    rows.push(scoreQuery({ query: asked, judged, lists }, k));
  }
  log(`[${c.name}] ran ${rows.length} judged queries (${judgments.size - rows.length} without a relevant judgment skipped)`);
  return rows;
}
