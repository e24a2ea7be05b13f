import { createHash } from 'node:crypto';
import type { ProductCard } from '../engines/lexical/port.js';
import { highlight, type SearchBody } from '../search/index.js';
import { normalizeText, tokenize } from '../text/normalize.js';
import { toAlgoliaFacets, type FacetRequest } from './facets.js';
import { toHit, highlightResult } from './hits.js';
import type { AlgoliaParams } from './params.js';

/** Completions and previews a suggestions index holds at most (suggest's own limits): its hitsPerPage is capped there too. */
export const SUGGESTIONS_CAP = { query_suggestions: 20, product_suggestions: 10 } as const;

/** Fields every Algolia search result carries; `hitsPerPage` is what was applied (at most `cap`). */
function envelope(p: AlgoliaParams, params: string, index: string, nbHits: number, hits: unknown[], tookMs: number, cap = 100) {
  const hitsPerPage = Math.min(p.hitsPerPage, cap);
  return {
    hits,
    nbHits,
    page: p.page,
    hitsPerPage,
    nbPages: hitsPerPage === 0 ? 0 : Math.min(Math.ceil(nbHits / hitsPerPage), 1000),
    exhaustiveNbHits: true,
    exhaustiveFacetsCount: true,
    exhaustive: { nbHits: true, facetsCount: true },
    processingTimeMS: Math.max(0, Math.round(tookMs)),
    query: p.query,
    params,
    index,
  };
}

/** A products search result: SearchResponse mapped to Algolia's shape, with this service's extras named in the README. */
export function productsResult(body: SearchBody, p: AlgoliaParams, params: string, index: string, facets: FacetRequest) {
  const lang = body.query.lang;
  const hits = p.hitsPerPage === 0 ? [] : body.hits.map((h) => toHit(h.product, h.highlights, lang, p.query, p));
  const f = toAlgoliaFacets(body.facets, facets.asked, p.maxValuesPerFacet, lang);
  const banners = body.banners as Array<{ id: string; html?: string | null; image_url?: string | null; link_url?: string | null; position?: string }>;
  const renderingContent: Record<string, unknown> = {};
  // InstantSearch's hits widget renders renderingContent.widgets.banners[0]; the redirect is Algolia's renderingContent.redirect.
  if (banners.length) {
    renderingContent.widgets = {
      banners: banners
        .filter((b) => b.image_url)
        .map((b) => ({ image: { urls: [{ url: b.image_url }] }, ...(b.link_url ? { link: { url: b.link_url } } : {}) })),
    };
  }
  // Typed null today: merchandising fills redirect and banners (spec Redirect and Banner shapes).
  const redirect = body.redirect as { url: string; rule_id: string } | null;
  if (redirect) renderingContent.redirect = { url: redirect.url };
  return {
    ...envelope(p, params, index, body.total, hits, body.took_ms),
    facets: f.facets,
    facets_stats: f.facets_stats,
    queryID: body.search_id,
    ...(Object.keys(renderingContent).length ? { renderingContent } : {}),
    // Extensions (not Algolia fields; the helper keeps them on its results object):
    didYouMean: body.did_you_mean,
    zeroResultHelp: body.zero_result_help,
    banners: body.banners,
    redirect: body.redirect,
    categoryLabels: f.categoryLabels,
    lang,
  };
}

export interface SuggestBody {
  query: string;
  suggestions: Array<{ text: string; highlighted: string | null; kind: 'query' | 'category' | 'brand'; target: string | null }>;
  products: ProductCard[];
  categories: Array<{ value: string; label: Record<string, string> | null; count: number }>;
  took_ms: number;
}

/** The page of a suggestions list: `page` of `hitsPerPage` (capped), past the end none. */
function pageOf<T>(all: T[], p: AlgoliaParams, cap: number): T[] {
  const size = Math.min(p.hitsPerPage, cap);
  return all.slice(p.page * size, (p.page + 1) * size);
}

/**
 * `<index>_query_suggestions`: one hit per completion, as Algolia Query Suggestions records
 * (`query`), with `kind` and `target`. The index is suggest's completions (at most 20; `body`
 * holds them all): nbHits counts them, `page` and `hitsPerPage` page them.
 */
export function querySuggestionsResult(body: SuggestBody, p: AlgoliaParams, params: string, index: string) {
  const cap = SUGGESTIONS_CAP.query_suggestions;
  const all = body.suggestions.slice(0, cap);
  const hits = pageOf(all, p, cap).map((s) => ({
    objectID: `${s.kind}:${s.target ?? s.text}`,
    query: s.text,
    kind: s.kind,
    target: s.target,
    _highlightResult: { query: highlightResult(s.text, s.highlighted, p.query, p) },
  }));
  return { ...envelope(p, params, index, all.length, hits, body.took_ms, cap), facets: {}, facets_stats: {} };
}

/** `<index>_product_suggestions`: suggest's product previews (at most 10, paged as above) as product hits, names highlighted on the typed words. */
export function productSuggestionsResult(body: SuggestBody, p: AlgoliaParams, params: string, index: string, lang: string) {
  const cap = SUGGESTIONS_CAP.product_suggestions;
  const tokens = tokenize(normalizeText(p.query));
  const last = tokens[tokens.length - 1] ?? null;
  const all = body.products.slice(0, cap);
  const hits = pageOf(all, p, cap).map((card) => {
    const name = card.name[lang] ?? Object.values(card.name)[0] ?? '';
    const html = highlight(name, tokens, last);
    return toHit(card, html ? { name: html } : {}, lang, p.query, p);
  });
  return { ...envelope(p, params, index, all.length, hits, body.took_ms, cap), facets: {}, facets_stats: {} };
}

/** searchForFacetValues: the facet's values containing the typed words, as `facetHits`. */
export function facetValuesResult(values: Record<string, number>, p: AlgoliaParams, labels: Record<string, string>, tookMs: number) {
  const typed = normalizeText(p.facetQuery);
  const facetHits = Object.entries(values)
    .map(([value, count]) => ({ value, count, label: labels[value] ?? value }))
    .filter(
      (v) =>
        !typed ||
        normalizeText(v.label)
          .split(' ')
          .some((w) => w.startsWith(typed)) ||
        normalizeText(v.label).startsWith(typed),
    )
    .slice(0, p.maxFacetHits)
    .map((v) => {
      const html = typed ? highlight(v.label, tokenize(typed), tokenize(typed).pop() ?? null) : null;
      return { value: v.value, count: v.count, highlighted: html ? highlightResult(v.label, html, p.facetQuery, p).value : v.label };
    });
  return { facetHits, exhaustiveFacetsCount: true, processingTimeMS: Math.max(0, Math.round(tookMs)) };
}

/** A search session from an Algolia userToken (up to 129 characters) within the events table's 64. */
export function sessionOf(userToken: string): string {
  return userToken.length <= 64 ? userToken : `ut_${createHash('sha256').update(userToken).digest('hex').slice(0, 61)}`;
}
