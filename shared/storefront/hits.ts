import type { ProductCard } from '../engines/lexical/port.js';
import { normalizeText, tokenize } from '../text/normalize.js';
import type { AlgoliaParams } from './params.js';

export interface HighlightResult {
  value: string;
  matchLevel: 'none' | 'partial' | 'full';
  matchedWords: string[];
  fullyHighlighted?: boolean;
}

/** A product as an Algolia record: flat display fields in the response language, the full card under `product`. */
export interface AlgoliaHit {
  objectID: string;
  [field: string]: unknown;
}

const UNESCAPE: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"' };

/**
 * The service's highlight (HTML-escaped text with <em> marks) as Algolia's: raw text with the
 * request's pre/post tags. InstantSearch escapes hit values itself, so escaped text would show
 * `&amp;` to shoppers.
 */
export function highlightValue(html: string, pre: string, post: string): { value: string; matched: string[]; full: boolean } {
  const parts = html.split(/(<\/?em>)/);
  let value = '';
  let open = false;
  const matched: string[] = [];
  let plain = '';
  for (const part of parts) {
    if (part === '<em>') {
      open = true;
      value += pre;
    } else if (part === '</em>') {
      open = false;
      value += post;
    } else {
      const text = part.replace(/&(amp|lt|gt|quot);/g, (m) => UNESCAPE[m]);
      value += text;
      if (open) matched.push(text);
      else plain += text;
    }
  }
  return { value, matched, full: matched.length > 0 && plain.trim() === '' };
}

/** `_highlightResult` of one attribute: matchLevel full when every query word was marked. */
export function highlightResult(raw: string, html: string | null | undefined, query: string, p: AlgoliaParams): HighlightResult {
  if (!html) return { value: raw, matchLevel: 'none', matchedWords: [] };
  const { value, matched, full } = highlightValue(html, p.highlightPreTag, p.highlightPostTag);
  const words = tokenize(normalizeText(query));
  const marked = new Set(matched.map((m) => normalizeText(m)));
  const matchedWords = words.filter((w) => [...marked].some((m) => m === w || m.startsWith(w) || w.startsWith(m)));
  const level = matchedWords.length === 0 ? 'partial' : matchedWords.length >= words.length ? 'full' : 'partial';
  return { value, matchLevel: level, matchedWords, fullyHighlighted: full };
}

const pick = (texts: Record<string, string> | null | undefined, lang: string) => (texts ? (texts[lang] ?? texts.en ?? Object.values(texts)[0] ?? null) : null);

/**
 * One product hit. `price` and `sale_price` are numbers (Algolia records hold numbers); the exact
 * decimal strings and every language stay in `product`. `attributesToRetrieve` keeps only the
 * listed fields (objectID always), `attributesToHighlight: []` drops `_highlightResult`.
 */
export function toHit(card: ProductCard, highlights: Record<string, string>, lang: string, query: string, p: AlgoliaParams): AlgoliaHit {
  const name = pick(card.name, lang) ?? '';
  const fields: Record<string, unknown> = {
    name,
    brand: card.brand,
    price: Number(card.price),
    sale_price: card.sale_price === null ? null : Number(card.sale_price),
    currency: card.currency,
    in_stock: card.in_stock,
    url: card.url,
    image_url: card.image_url,
    category: pick(card.category, lang),
    product: card,
  };
  const hit: AlgoliaHit = { objectID: card.id };
  const keep = p.attributesToRetrieve && !p.attributesToRetrieve.includes('*') ? new Set(p.attributesToRetrieve) : null;
  for (const [k, v] of Object.entries(fields)) if (!keep || keep.has(k)) hit[k] = v;
  const wanted = p.attributesToHighlight && !p.attributesToHighlight.includes('*') ? new Set(p.attributesToHighlight) : null;
  const hl: Record<string, HighlightResult> = {};
  if (!wanted || wanted.has('name')) hl.name = highlightResult(name, highlights.name, query, p);
  if ((!wanted || wanted.has('description')) && highlights.description) hl.description = highlightResult('', highlights.description, query, p);
  if (!wanted || wanted.size > 0) hit._highlightResult = hl;
  return hit;
}
