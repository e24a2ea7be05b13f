import t from 'tap';
import { parseParams } from '../../shared/storefront/params.js';
import { toFilters } from '../../shared/storefront/filters.js';
import { levelKeyOf } from '../../shared/storefront/category-levels.js';
import { normalizeText } from '../../shared/text/normalize.js';
import { productsResult } from '../../shared/storefront/response.js';
import { highlightValue } from '../../shared/storefront/hits.js';
import { parseIndexName } from '../../shared/storefront/protocol.js';
import { isBilledQuery } from '../../shared/storefront/billing.js';
import type { SearchBody } from '../../shared/search/index.js';

// The protocol mapping as pure functions: what the official clients send, what they read back.
const params = (r: Record<string, unknown>) => parseParams(r, 'requests.0').params;
const filters = (r: Record<string, unknown>) => toFilters(params(r)).filters;

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
  t.throws(() => filters({ facetFilters: ['color:1'], numericFilters: ['color>=3'] }), { code: 'unsupported_filter' }, 'values and a range on one attribute');
});

t.test('filters: category levels ANDed keep the deeper of related levels', async (t) => {
  const both = { category: ['lvl:fashion>women'] };
  t.same(filters({ facetFilters: ['categories.lvl0:fashion', 'categories.lvl1:fashion>women'] }), both);
  t.same(filters({ facetFilters: ['categories.lvl1:fashion>women', 'categories.lvl0:fashion'] }), both, 'in either order');
  t.same(filters({ filters: 'categories.lvl0:fashion AND categories.lvl1:"fashion>women"' }), both, 'the filters string');
  t.same(filters({ facetFilters: ['categories.lvl0:Fashion', 'categories.lvl1:Fashion > Women'] }), both, 'label paths');
  t.same(
    filters({ facetFilters: [['categories.lvl1:fashion>women', 'categories.lvl1:home>kitchen'], 'categories.lvl0:fashion'] }),
    both,
    'of an OR group, the values inside the other group',
  );
  t.same(filters({ facetFilters: ['categories.lvl0:home', 'categories.lvl1:fashion>women'] }), { category: [] }, 'unrelated levels: nothing');
});

t.test('filters: a leaf category ANDed with a level stays when all its products are in the level', async (t) => {
  const abayas = new Map([['abayas', new Set(['lvl:fashion', 'lvl:fashion>women', 'lvl:fashion>women>abayas'])]]);
  const withLeaves = (r: Record<string, unknown>) => toFilters(params(r), { field: 'requests.0', leafLevels: abayas });
  t.same(
    toFilters(params({ facetFilters: ['category:abayas', 'categories.lvl0:fashion'] })),
    { filters: { category: [] }, from: { category: 'facetFilters' }, leaves: ['abayas'] },
    'without its levels: the leaf to look up',
  );
  t.same(withLeaves({ facetFilters: ['category:abayas', 'categories.lvl0:fashion'] }).filters, { category: ['abayas'] });
  t.same(withLeaves({ facetFilters: ['categories.lvl2:fashion>women>abayas', 'category:abayas'] }).filters, { category: ['abayas'] }, 'its own path');
  t.same(withLeaves({ facetFilters: ['category:abayas', 'categories.lvl1:fashion>men'] }).filters, { category: [] }, 'another level: nothing');
  t.same(withLeaves({ facetFilters: ['category:abayas', 'category:shirts'] }).filters, { category: [] }, 'two leaves: nothing, no lookup');
  t.same(toFilters(params({ facetFilters: ['category:abayas', 'category:shirts'] })).leaves, [], 'leaves ANDed with leaves need no lookup');
  t.same(withLeaves({ facetFilters: [['category:abayas', 'category:shirts'], 'categories.lvl0:fashion'] }).leaves, ['shirts'], 'a leaf the map lacks');
});

t.test('filters: in_stock takes true and false; another value, or true AND false, matches nothing', async (t) => {
  t.same(filters({ facetFilters: ['in_stock:true'] }), { in_stock: true });
  t.same(filters({ filters: 'in_stock:false' }), { in_stock: false });
  for (const r of [
    { filters: 'in_stock:1' },
    { facetFilters: ['in_stock:yes'] },
    { filters: 'in_stock:true AND in_stock:false' },
    { facetFilters: ['in_stock:true', 'in_stock:false'] },
  ]) {
    t.same(filters(r), { category: [] }, `${JSON.stringify(r)}: an empty list, which matches nothing`);
  }
  t.same(filters({ facetFilters: [['in_stock:true', 'in_stock:yes']] }), { in_stock: true }, 'an unknown value in an OR group adds nothing');
  t.same(filters({ numericFilters: ['in_stock=1'] }), { in_stock: true }, 'numeric: 1 is true (Algolia booleans)');
  t.same(filters({ filters: 'in_stock < 1' }), { in_stock: false });
  t.same(filters({ numericFilters: ['in_stock>=0'] }), {}, 'both');
});

t.test('filters: errors name the request parameter', async (t) => {
  const at = (r: Record<string, unknown>) => {
    try {
      toFilters(params(r), { field: 'requests.2' });
    } catch (e) {
      return (e as { code: string; details: Array<{ field: string }> }).code + ' ' + (e as { details: Array<{ field: string }> }).details[0].field;
    }
    return null;
  };
  t.equal(at({ facetFilters: ['brand:-Apple'] }), 'unsupported_filter requests.2.facetFilters');
  t.equal(at({ numericFilters: [['price<1', 'price>9']] }), 'unsupported_filter requests.2.numericFilters');
  t.equal(at({ filters: 'NOT brand:A' }), 'unsupported_filter requests.2.filters');
  t.equal(at({ facetFilters: ['price:10'] }), 'validation_failed requests.2.facetFilters', 'price is numeric');
  t.equal(at({ filters: 'brand > 3' }), 'validation_failed requests.2.filters', 'brand is not');
});

t.test('category label paths in any language of the store (its dictionary entries)', async (t) => {
  const rows = [
    ['Fashion', 'lvl:fashion'],
    ['أزياء', 'lvl:fashion'],
    ['Women', 'lvl:fashion>women'],
    ['نسائي', 'lvl:fashion>women'],
    ['Abayas', 'fashion/women/abayas'],
    ['عبايات', 'fashion/women/abayas'],
  ].map(([display, target]) => ({ norm: normalizeText(display), display, target }));
  const dictionary = {
    entriesOf: () => rows,
    categoryLabel: (target: string) =>
      Object.fromEntries(rows.filter((r) => r.target === target).map((r) => [/[\u0600-\u06FF]/.test(r.display) ? 'ar' : 'en', r.display])),
  };
  const levelKey = levelKeyOf(dictionary);
  const key = (f: string) => toFilters(params({ facetFilters: [f] }), { field: 'requests.0', levelKey }).filters;
  t.same(key('categories.lvl1:أزياء > نسائي'), { category: ['lvl:fashion>women'] });
  t.same(key('categories.lvl2:أزياء > نسائي > عبايات'), { category: ['lvl:fashion>women>abayas'] }, 'a leaf by its category id');
  t.same(key('categories.lvl1:Fashion > Women'), { category: ['lvl:fashion>women'] });
  t.same(key('categories.lvl1:fashion>women'), { category: ['lvl:fashion>women'] }, 'keys as they are');
  t.same(key('categories.lvl0:Unknown'), { category: ['lvl:unknown'] }, 'a label no entry has: as typed');
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
