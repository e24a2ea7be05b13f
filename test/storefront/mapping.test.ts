import t from 'tap';
import { parseParams } from '../../shared/storefront/params.js';
import { toFilters } from '../../shared/storefront/filters.js';
import { productsResult } from '../../shared/storefront/response.js';
import { highlightValue } from '../../shared/storefront/hits.js';
import { parseIndexName } from '../../shared/storefront/protocol.js';
import { isBilledQuery } from '../../shared/storefront/billing.js';
import type { SearchBody } from '../../shared/search/index.js';

// The protocol mapping as pure functions: what the official clients send, what they read back.
const params = (r: Record<string, unknown>) => parseParams(r, 'requests.0').params;
const filters = (r: Record<string, unknown>) => toFilters(params(r));

t.test('params: the v4 params string and v5 fields merge, strings coerced', async (t) => {
  const p = params({
    params: 'query=red&page=2&hitsPerPage=5&facets=%5B%22brand%22%5D&analytics=false&facetFilters=%5B%5B%22brand%3AA%22%5D%5D',
    hitsPerPage: 7,
  });
  t.same([p.query, p.page, p.hitsPerPage, p.facets, p.analytics, p.facetFilters], ['red', 2, 7, ['brand'], false, [['brand:A']]], 'fields win over the string');
  t.same(params({ facets: 'brand,color' }).facets, ['brand', 'color'], 'a comma list');
  t.throws(() => params({ page: -1 }), { code: 'validation_failed' });
  t.same(params({ aroundLatLng: '1,2', tagFilters: ['x'] }).query, '', 'unknown parameters are ignored');
});

t.test('filters: groups, intersections, ranges, the filters string', async (t) => {
  t.same(filters({ facetFilters: [['brand:A', 'brand:B'], 'color:Red'] }), { brand: ['A', 'B'], color: ['Red'] });
  t.same(
    filters({
      facetFilters: [
        ['brand:A', 'brand:B'],
        ['brand:B', 'brand:C'],
      ],
    }),
    { brand: ['B'] },
    'AND on one attribute keeps the shared values',
  );
  t.same(filters({ facetFilters: ['categories.lvl1:Home > Kitchen'] }), { category: ['lvl:home>kitchen'] });
  t.same(filters({ facetFilters: [['in_stock:true', 'in_stock:false']] }), {}, 'true OR false filters nothing');
  t.same(filters({ facetFilters: ['brand:\\-Minus'] }), { brand: ['-Minus'] }, 'an escaped minus');
  t.same(filters({ numericFilters: ['price>=10', 'price<=20', 'price>=15'] }), { price: { gte: 15, lte: 20 } });
  t.same(filters({ filters: '(brand:"Levi\'s" OR brand:Lee) AND price:10 TO 50 AND rating >= 4' }), {
    brand: ["Levi's", 'Lee'],
    price: { gte: 10, lte: 50 },
    rating: { gte: 4 },
  });
  for (const bad of ['NOT brand:A', 'brand:A OR brand:B', 'price != 3', '(brand:A OR color:B)', 'brand:', '(brand:A']) {
    t.throws(() => filters({ filters: bad }), { code: 'unsupported_filter' }, bad);
  }
  t.throws(() => filters({ numericFilters: [['price<1', 'price>9']] }), { code: 'unsupported_filter' });
  t.throws(
    () => filters({ facetFilters: ['price:1', 'price>=3'].slice(0, 1), numericFilters: ['price>=3'] }),
    { code: 'unsupported_filter' },
    'values and a range on one attribute',
  );
});

t.test('index names and the billing rule', async (t) => {
  t.same(parseIndexName('shop_price_desc'), { kind: 'products', base: 'shop', sort: 'price_desc' });
  t.same(parseIndexName('shop_query_suggestions'), { kind: 'query_suggestions', base: 'shop' });
  t.equal(parseIndexName('a b'), null);
  const products = parseIndexName('products')!;
  t.ok(isBilledQuery(products, { page: 0, hitsPerPage: 20, analytics: true }, 'default'));
  t.notOk(isBilledQuery(products, { page: 0, hitsPerPage: 0, analytics: false }, 'default'), "the helper's facet query");
  t.notOk(isBilledQuery(products, { page: 0, hitsPerPage: 20, analytics: false }, 'default'), 'analytics off');
  t.notOk(isBilledQuery(products, { page: 1, hitsPerPage: 20, analytics: true }, 'default'), 'page 2');
  t.notOk(isBilledQuery(products, { page: 0, hitsPerPage: 20, analytics: true }, 'facet'), 'facet values');
  t.notOk(isBilledQuery(parseIndexName('products_query_suggestions')!, { page: 0, hitsPerPage: 5, analytics: true }, 'default'), 'suggestions');
});

t.test('results: highlights as raw text with the tags asked; banners and redirects as InstantSearch reads them', async (t) => {
  t.same(highlightValue('Tom &amp; <em>Jerry</em> &lt;3', '[', ']'), { value: 'Tom & [Jerry] <3', matched: ['Jerry'], full: false });
  const body = {
    search_id: 'srch_1',
    query: { text: 'x', normalized: 'x', rewritten: null, lang: 'en', filters: {}, sort: null, ai_used: false, ai_cached: false },
    ids: [],
    hits: [],
    total: 41,
    page: 1,
    per_page: 20,
    facets: [{ name: 'price', type: 'range', min: 5, max: 9 }],
    did_you_mean: null,
    zero_result_help: null,
    experiment: null,
    took_ms: 3.4,
    debug: null,
    redirect: { url: 'https://shop.example/sale', rule_id: 'r1' },
    banners: [
      { id: 'b1', html: null, image_url: 'https://cdn.example/b.png', link_url: 'https://shop.example/b', position: 'top' },
      { id: 'b2', html: '<b>Sale</b>', image_url: null, link_url: null, position: 'top' },
    ],
  } as unknown as SearchBody;
  const r = productsResult(body, params({ query: 'x' }), 'query=x', 'products', { names: ['price'], asked: new Set(['price']) });
  t.same(r.renderingContent, {
    widgets: { banners: [{ image: { urls: [{ url: 'https://cdn.example/b.png' }] }, link: { url: 'https://shop.example/b' } }] },
    redirect: { url: 'https://shop.example/sale' },
  });
  t.equal(r.banners.length, 2, 'every banner, html ones too, in the spec shape for the widget');
  t.same([r.nbHits, r.nbPages, r.processingTimeMS, r.queryID], [41, 3, 3, 'srch_1']);
  t.same([r.facets, r.facets_stats], [{ price: {} }, { price: { min: 5, max: 9 } }]);
});
