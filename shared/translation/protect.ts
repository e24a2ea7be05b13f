import { PLACEHOLDER, placeholder } from '../engines/translator/index.js';
import { findTerms, occurrences, type GlossaryRule } from './glossary-match.js';

/** Why a span was masked. */
export type ProtectKind = 'html' | 'url' | 'glossary' | 'code' | 'number';

/** One masked span: placeholder number, the source text, and what goes back in its place. */
export interface ProtectedToken {
  n: number;
  kind: ProtectKind;
  original: string;
  /** The source text verbatim, or a glossary term's forced target. */
  restore: string;
}

export interface Protected {
  masked: string;
  tokens: ProtectedToken[];
}

/** What protection knows about the product a text belongs to. */
export interface ProtectContext {
  glossary: readonly GlossaryRule[];
  /** Brand, model, SKU and GTIN of the product: kept verbatim. */
  codes: ReadonlyArray<string | null | undefined>;
}

const HTML = /<\/?[A-Za-z][^<>]*>|<!--[\s\S]*?-->/g;
const URL = /\b(?:https?:\/\/|www\.)[^\s<>"']+[^\s<>"'.,;:!?)]/giu;
const UNITS = 'mm|cm|km|m|inch(?:es)?|"|ft|mg|kg|g|lbs?|oz|ml|cl|ltr|l|kw|w|mah|ah|kv|v|khz|mhz|ghz|hz|tb|gb|mb|kb|mp|px|°c|°f|%|pcs|pc|cc|rpm|mbps|gbps|fps';
const NUMBER = /[0-9٠-٩۰-۹]+(?:[.,][0-9٠-٩۰-۹]+)*/.source;
const NUMBER_UNIT = new RegExp(`(?<![\\p{L}\\p{N}])${NUMBER}(?:\\s?[x×]\\s?${NUMBER})*\\s?(?:${UNITS})(?![\\p{L}\\p{N}])`, 'giu');

interface Span {
  start: number;
  end: number;
  kind: ProtectKind;
  restore: string;
}

function spans(re: RegExp, text: string, kind: ProtectKind): Span[] {
  re.lastIndex = 0;
  return [...text.matchAll(re)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, kind, restore: m[0] }));
}

/**
 * Masks what the provider must not translate with `{{Pn}}` placeholders: HTML tags, URLs,
 * glossary terms (do-not-translate kept, others forced to their target), the product's brand,
 * model, SKU and GTIN, and numbers with units. Earlier kinds win where spans overlap.
 */
export function protect(text: string, ctx: ProtectContext): Protected {
  const codes = [...new Set(ctx.codes.filter((c): c is string => !!c && c.trim().length > 0).map((c) => c.trim()))].sort((a, b) => b.length - a.length);
  const candidates: Span[][] = [
    text.includes('<') ? spans(HTML, text, 'html') : [],
    /https?:|www\./i.test(text) ? spans(URL, text, 'url') : [],
    findTerms(text, ctx.glossary).map((t) => ({
      start: t.start,
      end: t.end,
      kind: 'glossary' as const,
      restore: t.rule.do_not_translate || !t.rule.target_term ? text.slice(t.start, t.end) : t.rule.target_term,
    })),
    codes.flatMap((c) => occurrences(text, c, false).map(([start, end]) => ({ start, end, kind: 'code' as const, restore: text.slice(start, end) }))),
    /[0-9٠-٩۰-۹]/.test(text) ? spans(NUMBER_UNIT, text, 'number') : [],
  ];
  const taken: Span[] = [];
  for (const group of candidates) {
    for (const s of group) if (!taken.some((t) => t.start < s.end && s.start < t.end)) taken.push(s);
  }
  taken.sort((a, b) => a.start - b.start);
  let masked = '';
  let at = 0;
  const tokens = taken.map((s, n) => {
    masked += text.slice(at, s.start) + placeholder(n);
    at = s.end;
    return { n, kind: s.kind, original: text.slice(s.start, s.end), restore: s.restore };
  });
  return { masked: masked + text.slice(at), tokens };
}

export interface Restored {
  text: string;
  /** Placeholders the translation lost. */
  missing: number[];
  /** Placeholders it repeated (each extra copy is restored too). */
  repeated: number[];
  /** Placeholders it invented (left in the text as they are). */
  unknown: number[];
}

/** Puts each placeholder's text back and reports the placeholders lost, repeated or invented. */
export function restore(translated: string, tokens: readonly ProtectedToken[]): Restored {
  const byN = new Map(tokens.map((t) => [t.n, t]));
  const seen = new Map<number, number>();
  const unknown: number[] = [];
  const text = translated.replace(PLACEHOLDER, (whole, digits: string) => {
    const n = Number(digits);
    const token = byN.get(n);
    if (!token) {
      unknown.push(n);
      return whole;
    }
    seen.set(n, (seen.get(n) ?? 0) + 1);
    return token.restore;
  });
  return {
    text,
    missing: tokens.filter((t) => !seen.has(t.n)).map((t) => t.n),
    repeated: [...seen].filter(([, count]) => count > 1).map(([n]) => n),
    unknown,
  };
}
