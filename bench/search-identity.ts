import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig } from '../shared/platform/config.js';
import { createDeps } from '../shared/deps.js';
import { readCollectionJudgments, selectCollections } from '../scripts/eval/collections.js';
import type { SearchInput } from '../shared/search/index.js';

/**
 * bench/search-identity: every judged query of the eval collections (and variants: a typo, page 2,
 * a price filter, every facet, stock filters with and without their facet; the store browsed
 * without words, by price, stock, its biggest brand and its biggest categories) through SearchService on a database `npm run eval -- --keep` kept,
 * written as one JSON line per search (ids, scores, total, facets, help, did-you-mean). Run it from
 * two checkouts on the same database and diff the files: a change of statement shape must not
 * change a single answer. IDENTITY_CACHE_TTL_MS=600000 runs with the caches on (the result cache
 * never answers: every search differs; facet counts made by earlier searches do).
 *   npx tsx bench/search-identity.ts <database url> <out file>
 */
const [url, out] = process.argv.slice(2);
if (!url || !out) throw new Error('usage: tsx bench/search-identity.ts <database url> <out file>');
const base = loadConfig();
const deps = createDeps(
  loadConfig({
    ...process.env,
    DATABASE_URL: url,
    SEARCH_CACHE_TTL_MS: process.env.IDENTITY_CACHE_TTL_MS ?? '0',
    LOG_LEVEL: 'warn',
    QUEUE_PREFIX: `pssidentity${process.pid}`,
  }),
);
const lines: string[] = [];
try {
  for (const c of selectCollections(undefined, false)) {
    const tenant = await deps
      .db('tenants')
      .where({ name: `eval-${c.name}` })
      .first();
    if (!tenant) throw new Error(`no tenant eval-${c.name} in ${url}`);
    const queries = [...(await readCollectionJudgments(resolve(base.sharedDataDir), c)).keys()];
    type Variant = { q: string; page?: number; filters?: SearchInput['filters']; facets?: string[] };
    const all = ['brand', 'category', 'category_tree', 'price', 'in_stock'];
    const variants: Variant[] = queries.flatMap((q): Variant[] => [
      { q },
      { q, page: 2 },
      { q: q.length > 5 ? q.slice(0, 2) + q[3] + q[2] + q.slice(4) : `${q}x` },
      { q, filters: { price: { lte: 100 } } },
      { q, facets: all },
      { q, filters: { price: { lte: 100 } }, facets: ['brand'] },
      { q, filters: { price: { lte: 100 } }, page: 2 },
      // A filter its own facet ignores (applied after the match), and one no facet ignores.
      { q, filters: { in_stock: true }, facets: ['in_stock', 'brand', 'category_tree'] },
      { q, filters: { in_stock: true, price: { gte: 20 } }, facets: ['price', 'category_tree'], page: 2 },
    ]);
    // Without words: the store browsed, by price, stock and its biggest brand (added once its brand counts are known).
    variants.push(
      { q: '', facets: all },
      { q: '', filters: { price: { lte: 100 } }, facets: all },
      { q: '', filters: { in_stock: true, price: { gte: 50 } }, facets: ['in_stock', 'brand', 'price'], page: 3 },
    );
    // A first search without words, then a moment: counts an engine builds for the store in the background are there for the rest.
    await deps.search.search(tenant.id, {
      q: '',
      lang: 'en',
      page: 1,
      perPage: 50,
      filters: {},
      sort: null,
      facets: all,
      session: null,
      debug: false,
      override: null,
      log: false,
      ai: 'off',
    });
    await new Promise((r) => setTimeout(r, 3000));
    for (let i = 0; i < variants.length; i++) {
      const v = variants[i];
      const { body } = await deps.search.search(tenant.id, {
        q: v.q,
        lang: 'en',
        page: v.page ?? 1,
        perPage: 50,
        filters: v.filters ?? {},
        sort: null,
        facets: v.facets ?? null,
        session: null,
        debug: false,
        override: null,
        log: false,
        ai: 'off',
      });
      const top = (name: string) => (v.q === '' && !v.filters ? (body.facets?.find((f) => f.name === name)?.buckets?.[0]?.value ?? null) : null);
      const brand = top('brand');
      if (brand)
        variants.push(
          { q: '', filters: { brand: [brand] } },
          { q: '', filters: { brand: [brand] }, facets: ['brand', 'category_tree', 'price', 'in_stock'], page: 2 },
          { q: '', filters: { brand: [brand], in_stock: true }, facets: ['brand'] },
        );
      // Category pages (the biggest level, the biggest leaf), in stock only: the store's held counts answer them.
      const level = top('category_tree');
      const leaf = v.facets ? top('category') : null;
      if (v.q === '' && !v.filters) variants.push({ q: '', filters: { in_stock: true } }, { q: '', filters: { in_stock: true }, facets: all, page: 2 });
      if (level) variants.push({ q: '', filters: { category: [level] } });
      if (leaf) variants.push({ q: '', filters: { category: [leaf] }, facets: all, page: 2 });
      lines.push(
        JSON.stringify({
          c: c.name,
          v,
          total: body.total,
          hits: body.hits.map((h) => [h.id, h.score]),
          facets: body.facets,
          help: body.zero_result_help,
          dym: body.did_you_mean,
          rewritten: body.query.rewritten,
          filters: body.query.filters,
        }),
      );
    }
  }
  writeFileSync(out, `${lines.join('\n')}\n`);
  process.stdout.write(`${lines.length} searches written to ${out}\n`);
} finally {
  await deps.close();
}
