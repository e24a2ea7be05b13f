import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitFor } from '../helpers/wait.js';
import { refreshVocabulary } from '../../pipelines/search/refresh-vocabulary.stage.js';
import { backlogKey } from '../../shared/platform/queue/fairness.js';

const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });

const cat = (id: string, ...levels: Array<[string, string]>) => [{ id, path: levels.map(([en, ar]) => ({ en, ar })) }];
const ELECTRONICS: [string, string] = ['Electronics', 'إلكترونيات'];
const CLOTHING: [string, string] = ['Clothing', 'ملابس'];
const p = (id: string, name: string | Record<string, string>, brand: string, categories: unknown, extra: Record<string, unknown> = {}) => ({
  id,
  name: typeof name === 'string' ? { en: name } : name,
  brand,
  categories,
  price: 100,
  currency: 'SAR',
  ...extra,
});
const PRODUCTS = [
  p('s1', 'Samsung Galaxy S21 smartphone', 'Samsung', cat('phones', ELECTRONICS, ['Phones', 'هواتف'])),
  p('s2', 'Samsung Galaxy Tab S8 tablet', 'Samsung', cat('tablets', ELECTRONICS, ['Tablets', 'أجهزة لوحية'])),
  p('s3', 'Samsung Galaxy Buds earbuds', 'Samsung', cat('audio', ELECTRONICS, ['Audio', 'صوتيات']), { in_stock: false }),
  p('a1', 'Apple iPhone 13 smartphone', 'Apple', cat('phones', ELECTRONICS, ['Phones', 'هواتف'])),
  p('a2', 'Apple iPad Air tablet', 'Apple', cat('tablets', ELECTRONICS, ['Tablets', 'أجهزة لوحية'])),
  p('d1', { en: 'Red cotton dress', ar: 'فستان قطن أحمر' }, 'Zara', cat('dresses', CLOTHING, ['Dresses', 'فساتين'])),
  p('d2', { en: 'Black evening dress', ar: 'فستان سهرة أسود' }, 'Zara', cat('dresses', CLOTHING, ['Dresses', 'فساتين'])),
  p('f1', { en: 'Running shoes', ar: 'حذاء جري' }, 'Nike', cat('shoes', CLOTHING, ['Shoes', 'أحذية'])),
  p('f2', { en: 'Leather shoes', ar: 'حذاء جلد' }, 'Nike', cat('shoes', CLOTHING, ['Shoes', 'أحذية'])),
];

const { id: tenantId, key } = await h.tenant();
await loadProducts(h, key, tenantId, PRODUCTS);
// Two successful searches make a past query; the next vocabulary rebuild takes it in.
for (let i = 0; i < 2; i++) await h.api.call('GET', '/v1/search?q=samsung+galaxy+buds', { key });
await h.api.deps.searchLog.flush();
await rebuildVocabulary(tenantId);

type Suggestion = { text: string; highlighted: string | null; kind: string; target: string | null };
const suggest = async (q: string, k = key, extra = '') => {
  const res = await h.api.call('GET', `/v1/suggest?q=${encodeURIComponent(q)}${extra}`, { key: k });
  if (res.status !== 200) throw new Error(`suggest ${q}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body as { query: string; suggestions: Suggestion[]; products: Array<{ id: string }>; categories: unknown[]; took_ms: number };
};
const texts = (body: { suggestions: Suggestion[] }) => body.suggestions.map((s) => `${s.kind}:${s.text}`);

/** Runs refresh-vocabulary now (the real worker) and waits until it is done. */
async function rebuildVocabulary(tenant: string) {
  const dictionaries = h.api.deps.contexts.dictionaries;
  const held = dictionaries.peek(tenant);
  const jobId = await h.api.deps.queues.enqueue(refreshVocabulary, { tenantId: tenant, bucket: Date.now() });
  const queue = h.api.deps.queues.get('vocabulary');
  await waitFor(async () => (await queue.getJob(jobId))?.finishedOn, 20_000, 'vocabulary rebuild');
  // The rebuild's notice reloads this process's dictionary in the background: wait for the new one.
  if (held) await waitFor(() => dictionaries.peek(tenant) !== held, 20_000, "the API's dictionary reload");
}

t.test('completions of every kind: past queries, name openings, brands, categories', async (t) => {
  const sam = await suggest('sam');
  t.same(
    texts(sam),
    ['query:samsung galaxy buds', 'brand:Samsung', 'query:Samsung Galaxy'],
    'the past query (weight 20) first, then weight 3 in text order; the name opening "Samsung" is the brand, shown once',
  );
  t.same(sam.suggestions[0], { text: 'samsung galaxy buds', highlighted: '<em>sam</em>sung galaxy buds', kind: 'query', target: null });
  t.same(sam.suggestions[1], { text: 'Samsung', highlighted: '<em>Sam</em>sung', kind: 'brand', target: 'Samsung' });
  const pho = await suggest('pho');
  t.same(pho.suggestions, [{ text: 'Phones', highlighted: '<em>Pho</em>nes', kind: 'category', target: 'phones' }]);
  t.same(pho.categories, [{ value: 'phones', label: { en: 'Phones', ar: 'هواتف' }, count: 2 }]);
  const el = await suggest('el');
  t.same(el.suggestions, [{ text: 'Electronics', highlighted: '<em>El</em>ectronics', kind: 'category', target: 'lvl:electronics' }], 'a category level');
  t.same(el.categories, [{ value: 'lvl:electronics', label: { en: 'Electronics', ar: 'إلكترونيات' }, count: 5 }]);
});

t.test("nothing starts with what was typed: its last word's closest spelling is completed", async (t) => {
  const typo = await suggest('samsnu');
  t.ok(texts(typo).includes('brand:Samsung'), `samsnu completes as samsung: ${texts(typo)}`);
  t.ok(typo.products.length > 0 && typo.products.every((p) => p.id.startsWith('s')), 'previews of the Samsung products');
  t.same(
    (await suggest('red cottn')).products.map((p) => p.id),
    ['d1'],
    'the earlier words kept, the last corrected: the red cotton dress in the previews',
  );
  t.same((await suggest('zzzzzz')).suggestions, [], 'nothing close: nothing');
  t.same(
    texts(await suggest('sams')),
    texts(await suggest('sam')).filter((x) => x.toLowerCase().includes('sams')),
    'a prefix that completes is never corrected',
  );
});

t.test('later words match from 3 characters, after the starts', async (t) => {
  const gal = await suggest('gal');
  t.same(texts(gal), ['query:samsung galaxy buds', 'query:Samsung Galaxy']);
  t.equal(gal.suggestions[1].highlighted, 'Samsung <em>Gal</em>axy');
  t.same((await suggest('ga')).suggestions, [], 'two characters match starts only');
  t.same(texts(await suggest('samsung g')), ['query:samsung galaxy buds', 'query:Samsung Galaxy'], 'a prefix may span words');
  t.same(texts(await suggest('s', key, '&limit=2')), ['query:samsung galaxy buds', 'brand:Samsung'], 'limit, by weight');
});

t.test('Arabic: every normalization variant completes the same way', async (t) => {
  for (const q of ['احذ', 'أحذ', 'إحذ', 'آحذ', 'أَحْذ', 'أحذية', 'احذيه']) {
    const res = await suggest(q);
    t.same(
      res.suggestions.map((s) => [s.kind, s.text, s.target]),
      [['category', 'أحذية', 'shoes']],
      q,
    );
    t.same(res.categories, [{ value: 'shoes', label: { en: 'Shoes', ar: 'أحذية' }, count: 2 }], q);
  }
  t.equal((await suggest('احذ')).suggestions[0].highlighted, '<em>أحذ</em>ية');
  for (const q of ['فست', 'فُسْت', 'فستان']) t.same(texts(await suggest(q)), ['query:فستان'], `${q}: a name opening`);
  t.same(texts(await suggest('حذا')), ['query:حذاء']);
  t.same(texts(await suggest('لوح')).includes('category:أجهزة لوحية'), true, 'a later Arabic word');
});

t.test('same rows as the former SQL for every prefix of every entry', async (t) => {
  const db = h.api.deps.db;
  const entries: Array<{ norm: string }> = await db('suggest_terms').select('norm').where({ tenant_id: tenantId });
  const dict = await h.api.deps.contexts.dictionaries.get(tenantId);
  let compared = 0;
  for (const { norm } of entries) {
    for (let n = 1; n <= norm.length; n++) {
      const prefix = norm.slice(0, n);
      if (prefix.endsWith(' ')) continue;
      for (const limit of [1, 20]) {
        const sql = await formerSql(tenantId, prefix, limit);
        const mem = dict.complete(prefix, limit);
        const label = `${prefix} limit ${limit}`;
        if (JSON.stringify(mem.map((r) => r.weight)) !== JSON.stringify(sql.map((r) => r.weight))) t.fail(`weights: ${label}`, { mem, sql });
        // Equal weights may come in any order from SQL: compare the sets when nothing was cut off.
        const key = (rows: typeof mem) => rows.map((r) => `${r.kind}:${r.norm}:${r.display}:${r.target}`).sort();
        if (limit === 20 && JSON.stringify(key(mem)) !== JSON.stringify(key(sql))) t.fail(`rows: ${label}`, { mem, sql });
        compared++;
      }
    }
  }
  t.ok(compared > 250, `${compared} prefixes compared`);
});

t.test('previews: engine results for 3+ characters, cached, none for 2', async (t) => {
  const res = await suggest('samsung');
  t.same(res.products.map((x) => x.id).sort(), ['s1', 's2', 's3']);
  t.equal(res.products[2].id, 's3', 'in stock first');
  t.same((await suggest('samsung')).products, res.products, 'the same from the cache');
  t.same((await suggest('sa')).products, []);
  t.same((await suggest('samsung', key, '&products=0')).products, []);
  t.same((await suggest('samsung', key, '&products=1')).products.map((x) => x.id).length, 1);
  t.same((await suggest('فستا')).products.map((x) => x.id).sort(), ['d1', 'd2'], 'Arabic previews');
});

t.test('a catalog change shows up after the vocabulary refresh, in every API process', async (t) => {
  const second = await h.startApi();
  const onSecond = async (q: string) => (await second.call('GET', `/v1/suggest?q=${q}`, { key })).body;
  t.same((await suggest('quo')).suggestions, [], 'nothing yet (and both dictionaries are loaded)');
  t.same((await onSecond('quo')).suggestions, []);
  t.same((await suggest('quokka')).products, [], 'no preview yet (now cached)');
  const added = [
    p('q1', 'Quokka blender pro', 'Quokkaware', cat('kitchen', ['Home', 'منزل'])),
    p('q2', 'Quokka kettle', 'Quokkaware', cat('kitchen', ['Home', 'منزل'])),
  ];
  const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: added } });
  t.equal(res.status, 200);
  await waitFor(async () => (await suggest('quokka')).products.length === 2, 20_000, 'previews after the index change');
  await waitFor(async () => texts(await suggest('quo')).includes('brand:Quokkaware'), 20_000, 'the new brand in suggestions');
  t.same(texts(await suggest('quo')), ['query:Quokka', 'brand:Quokkaware']);
  await waitFor(async () => (await onSecond('quo')).suggestions.length === 2, 20_000, 'the second process reloads too');
  await h.api.call('DELETE', '/v1/products/q1', { key });
  await h.api.call('DELETE', '/v1/products/q2', { key });
  t.same((await suggest('quokka')).products, [], 'a delete drops cached previews at once');
  await rebuildVocabulary(tenantId);
  await waitFor(async () => (await suggest('quo')).suggestions.length === 0, 20_000, 'gone after the next rebuild');
});

t.test('tenant isolation', async (t) => {
  const other = await h.tenant('other');
  await loadProducts(h, other.key, other.id, [
    p('o1', 'Samovar classic', 'Samovaria', cat('tea', ['Tea', 'شاي'])),
    p('o2', 'Samovar mini', 'Samovaria', cat('tea', ['Tea', 'شاي'])),
  ]);
  const theirs = await suggest('sam', other.key);
  t.same(texts(theirs), ['query:Samovar', 'brand:Samovaria']);
  t.same(theirs.products.map((x) => x.id).sort(), ['o1', 'o2']);
  const ours = await suggest('sam');
  t.notOk(
    texts(ours).some((s) => s.includes('Samovar')),
    'no other tenant completions',
  );
  t.notOk(
    ours.products.some((x) => x.id.startsWith('o')),
    'no other tenant previews',
  );
});

t.test('category buckets: one per category, labelled in every language of the store', async (t) => {
  const en = await suggest('dres');
  t.same(en.categories, [{ value: 'dresses', label: { en: 'Dresses', ar: 'فساتين' }, count: 2 }]);
  const ar = await suggest('فسا');
  t.same(ar.categories, en.categories, 'typed in Arabic: the same bucket');
  const help = (await h.api.call('GET', '/v1/search?q=zzqqxx', { key })).body.zero_result_help.popular_categories as Array<{
    value: string;
    label: Record<string, string>;
  }>;
  t.equal(new Set(help.map((c) => c.value)).size, help.length, 'popular categories: each value once');
  t.same(
    help.find((c) => c.value === 'dresses'),
    { value: 'dresses', label: { en: 'Dresses', ar: 'فساتين' }, count: 2 },
  );
});

t.test('lang is auto or one of the store locales, as for search', async (t) => {
  const fr = await h.api.call('GET', '/v1/suggest?q=sam&lang=fr', { key });
  t.equal(fr.status, 400);
  t.same(
    fr.body.error.details.map((d: { field: string; code: string }) => [d.field, d.code]),
    [['lang', 'invalid_value']],
  );
  t.same(texts(await suggest('sam', key, '&lang=ar')), texts(await suggest('sam')), 'a store locale: the same completions');
});

t.test("the store's own text is escaped in highlighted: only the marks are markup", async (t) => {
  const store = await h.tenant('markup store');
  await loadProducts(h, store.key, store.id, [
    p('m1', 'Bolt driver', 'Bolt & <b>Co</b>', cat('tools', ['<u>Tools</u>', 'عدد'])),
    p('m2', 'Bolt cutter', 'Bolt & <b>Co</b>', cat('tools', ['<u>Tools</u>', 'عدد'])),
  ]);
  const marked = await suggest('<u', store.key);
  const category = marked.suggestions.find((s) => s.kind === 'category');
  t.equal(category?.text, '<u>Tools</u>', 'the text is as the store sent it');
  t.equal(category?.highlighted, '<em>&lt;u</em>&gt;Tools&lt;/u&gt;');
  const brand = (await suggest('bolt', store.key)).suggestions.find((s) => s.kind === 'brand');
  t.equal(brand?.highlighted, '<em>Bolt</em> &amp; &lt;b&gt;Co&lt;/b&gt;');
});

t.test('previews never show a product that a catalog-wide merchandising rule hides', async (t) => {
  const previews = async (q: string, extra = '') => (await suggest(q, key, extra)).products.map((x) => x.id).sort();
  const searched = async (q: string) => ((await h.api.call('GET', `/v1/search?q=${q}`, { key })).body.ids as string[]).sort();
  t.same(await previews('samsung'), ['s1', 's2', 's3'], 'cached before any rule');
  const rule = async (body: Record<string, unknown>) => {
    const res = await h.api.call('POST', '/v1/rules', { key, body });
    if (res.status !== 201) throw new Error(JSON.stringify(res.body));
    return res.body.id as string;
  };
  const everywhere = await rule({ name: 'hide s2 everywhere', consequences: { hides: ['s2'] } });
  // These hide products only from the searches they match (a filter context, a query), or not at all (disabled).
  const others = [
    await rule({ name: 'phones page', conditions: { filters: { category: ['phones'] } }, consequences: { hides: ['s1'] } }),
    await rule({ name: 'tablet query', conditions: { patterns: [{ match: 'is', text: 'tablet' }] }, consequences: { hides: ['s1'] } }),
    await rule({ name: 'off', enabled: false, consequences: { hides: ['s3'] } }),
  ];
  await waitFor(async () => !(await searched('samsung')).includes('s2'), 10_000, 'the rules reach search');
  t.same(await searched('samsung'), ['s1', 's3'], 'search hides s2');
  t.same(await previews('samsung'), ['s1', 's3'], 'so do the previews, cached before the rule or not');
  t.same(await previews('sams'), ['s1', 's3'], 'for every prefix');
  t.same(await previews('samsung', '&products=2'), ['s1', 's3'], 'the list still fills without it');
  t.equal((await h.api.call('DELETE', `/v1/rules/${everywhere}`, { key })).status, 200);
  await waitFor(async () => (await searched('samsung')).includes('s2'), 10_000, 'the deletion reaches search');
  t.same(await previews('samsung'), ['s1', 's2', 's3'], 'shown again once the rule is gone');
  for (const id of others) await h.api.call('DELETE', `/v1/rules/${id}`, { key });
});

t.test('previews of a typed text hide what a rule matching that text hides from its search', async (t) => {
  const previews = async (q: string) => (await suggest(q, key)).products.map((x) => x.id).sort();
  const searched = async (q: string) => ((await h.api.call('GET', `/v1/search?q=${q}`, { key })).body.ids as string[]).sort();
  t.same(await previews('samsung'), ['s1', 's2', 's3'], 'cached before the rule');
  const res = await h.api.call('POST', '/v1/rules', {
    key,
    body: { name: 'samsung query', conditions: { patterns: [{ match: 'is', text: 'samsung' }] }, consequences: { hides: ['s3'] } },
  });
  t.equal(res.status, 201);
  t.teardown(() => h.api.call('DELETE', `/v1/rules/${res.body.id}`, { key }));
  await waitFor(async () => !(await searched('samsung')).includes('s3'), 10_000, 'the rule reaches search');
  t.same(await previews('samsung'), ['s1', 's2'], 'the text the rule matches: its search hides s3, so do its previews');
  t.same(await previews('Samsung'), ['s1', 's2'], 'however it is typed');
  t.same(await previews('sams'), ['s1', 's2', 's3'], 'a prefix the rule does not match shows it, as its search does');
  t.same(await searched('sams'), await previews('sams'));
});

t.test('a rebuild waits while the tenant still has catalog batches to index, then runs', async (t) => {
  const backlog = backlogKey(h.config.queuePrefix, 'catalog', tenantId);
  const queue = h.api.deps.queues.get('vocabulary');
  const rebuild = async () => {
    const jobId = await h.api.deps.queues.enqueue(refreshVocabulary, { tenantId, bucket: Date.now() });
    return waitFor(
      async () => {
        const j = await queue.getJob(jobId);
        return j?.finishedOn ? j.returnvalue : null;
      },
      20_000,
      'vocabulary rebuild',
    );
  };
  await h.api.deps.redis.set(backlog, 3);
  t.same(await rebuild(), { deferred: true, pending_batches: 3 }, 'a bulk sync is still being indexed: nothing read');
  await h.api.deps.redis.del(backlog);
  t.match(await rebuild(), { terms: Number, suggestions: Number }, 'none left: it rebuilds');
});

/** The suggestion query this service ran before the in-memory dictionary, kept here as the reference. */
async function formerSql(tenant: string, prefix: string, limit: number) {
  const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const { rows } = await h.api.deps.db.raw(
    `SELECT kind, norm, display, target, weight FROM (
        (SELECT kind, norm, display, target, weight, 0 AS rank FROM suggest_terms
          WHERE tenant_id = ? AND norm LIKE ? ORDER BY weight DESC LIMIT ?)
        UNION ALL
        (SELECT kind, norm, display, target, weight, 1 AS rank FROM suggest_terms
          WHERE ? AND tenant_id = ? AND norm LIKE ? AND norm NOT LIKE ? ORDER BY weight DESC LIMIT ?)
      ) s ORDER BY rank, weight DESC LIMIT ?`,
    [tenant, like, limit * 2, prefix.length >= 3, tenant, `% ${like}`, like, limit, limit * 2],
  );
  return rows as Array<{ kind: 'query' | 'brand' | 'category'; norm: string; display: string; target: string | null; weight: number }>;
}
