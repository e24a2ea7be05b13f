// Light (affix-stripping) stemmers for normalized tokens. "Light" on purpose:
// Arabic root extraction conflates too many unrelated products, while
// stripping articles, clitics and plural/feminine endings already makes
// "الشاشات" and "شاشة" meet. Indexing and querying must use the same functions.

import { scriptOf } from './normalize.js';
import { isCodeLike } from './tokenize.js';

// Below this an Arabic stem is mostly ambiguous noise, so stripping stops.
const MIN_ARABIC_STEM = 3;

// Article combinations, longest first so "وال" wins over "ال" and "و".
const ARABIC_ARTICLES = ['وبال', 'وكال', 'فبال', 'وال', 'بال', 'كال', 'فال', 'ولل', 'لل', 'ال'];

// "و" (and) attaches to almost any word. The other one-letter clitics are also
// common word-initial letters (كابل, فلتر, كريم), and stripping them on short
// words creates collisions like كابل -> ابل ("Apple") or فلتر -> لتر ("liter"),
// so they need a longer remainder.
const CONJUNCTION_WAW = 'و';
const OTHER_CLITICS = ['ف', 'ب', 'ل', 'ك'];
const MIN_STEM_AFTER_OTHER_CLITIC = 4;

// One pass, outermost (pronoun) endings first, then plural/dual, then
// feminine/nisba, so "سياراتهم" -> "سيارات" -> "سيار". ة is listed for text
// normalized with foldTehMarbuta=false.
const ARABIC_SUFFIXES = ['ها', 'هم', 'كم', 'نا', 'ان', 'ات', 'ون', 'ين', 'يه', 'ية', 'ه', 'ة', 'ي'];

/** Light Arabic stemmer for a normalized token: strips an article, then plural/feminine/pronoun suffixes, then a one-letter clitic. */
export function stemArabic(token: string): string {
  if (token.length <= MIN_ARABIC_STEM) return token;
  let word = token;
  let hadArticle = false;
  for (const prefix of ARABIC_ARTICLES) {
    if (word.length - prefix.length >= MIN_ARABIC_STEM && word.startsWith(prefix)) {
      word = word.slice(prefix.length);
      hadArticle = true;
      break;
    }
  }
  for (const suffix of ARABIC_SUFFIXES) {
    if (word.length - suffix.length >= MIN_ARABIC_STEM && word.endsWith(suffix)) {
      word = word.slice(0, -suffix.length);
    }
  }
  // One-letter clitics go last, judged on the suffix-free stem: that way the
  // singular and plural of a word make the same decision (لمبه and لمبات both
  // -> لمب), and a و that belongs to the root survives (وقته -> وقت).
  return hadArticle ? word : stripClitic(word);
}

/**
 * The token without the Arabic article it opens with (ال, or ال after و ب ك ف, or لل), when at
 * least `min` letters remain; null without one. "القمي" typed for "القميص" is "قمي": the article is
 * written onto the word, so a prefix or a synonym of the bare word must also be one of it.
 */
export function withoutArticle(token: string, min = MIN_ARABIC_STEM): string | null {
  for (const prefix of ARABIC_ARTICLES) {
    if (token.length - prefix.length >= min && token.startsWith(prefix)) return token.slice(prefix.length);
  }
  return null;
}

function stripClitic(word: string): string {
  if (word.length - 1 >= MIN_ARABIC_STEM && word.startsWith(CONJUNCTION_WAW)) return word.slice(1);
  for (const clitic of OTHER_CLITICS) {
    if (word.length - 1 >= MIN_STEM_AFTER_OTHER_CLITIC && word.startsWith(clitic)) return word.slice(1);
  }
  return word;
}

// Plural-looking words that are singular (or where the cut would change meaning).
const ENGLISH_INVARIANT = new Set(['series', 'species', 'news', 'lens']);
// Plurals no suffix rule reaches: "gaming mouse" names the category "Mice".
const ENGLISH_IRREGULAR = new Map([
  ['mice', 'mouse'],
  ['knives', 'knife'],
  ['shelves', 'shelf'],
  ['leaves', 'leaf'],
  ['halves', 'half'],
  ['scarves', 'scarf'],
  ['wolves', 'wolf'],
  ['teeth', 'tooth'],
  ['feet', 'foot'],
  ['geese', 'goose'],
  ['children', 'child'],
  ['women', 'woman'],
  ['people', 'person'],
  ['dice', 'die'],
  ['wives', 'wife'],
]);
const PLAIN_LATIN_RE = /^[a-z]+$/;
const ES_AFTER_RE = /(?:ss|sh|ch|x|zz)es$/;

/** Light English plural stemmer: laptops -> laptop, batteries -> battery, boxes -> box; leaves codes, -ss words and short words alone. */
export function stemEnglish(token: string): string {
  // Only plain lower-case words: anything with digits or joiners is a code.
  if (token.length < 4 || !PLAIN_LATIN_RE.test(token) || ENGLISH_INVARIANT.has(token)) return token;
  const irregular = ENGLISH_IRREGULAR.get(token);
  if (irregular) return irregular;
  if (token.endsWith('ss')) return token;
  if (token.endsWith('ies')) {
    // "ties" is tie+s, "batteries" is battery+ies.
    return token.length >= 5 ? token.slice(0, -3) + 'y' : token.slice(0, -1);
  }
  // Singular "-ie" folds to "-y" too, so "hoodie" meets "hoodies" (-> "hoody").
  if (token.endsWith('ie') && token.length >= 5) return token.slice(0, -2) + 'y';
  if (ES_AFTER_RE.test(token) && token.length - 2 >= 3) return token.slice(0, -2);
  // "-us"/"-is" are almost always singular (bus, status, chassis).
  if (token.endsWith('s') && !token.endsWith('us') && !token.endsWith('is')) return token.slice(0, -1);
  return token;
}

/** Stem one normalized token with the stemmer for its script; code-like tokens are returned unchanged. */
export function stem(token: string): string {
  // Indexing stems every word of every name: a word's stem is found once (bounded; pure, never stale).
  let stemmed = STEMS.get(token);
  if (stemmed === undefined) {
    if (STEMS.size >= MAX_STEMS) STEMS.clear();
    stemmed = stemOnce(token);
    STEMS.set(token, stemmed);
  }
  return stemmed;
}

const STEMS = new Map<string, string>();
const MAX_STEMS = 50_000;

function stemOnce(token: string): string {
  if (isCodeLike(token)) return token;
  const script = scriptOf(token);
  if (script === 'arabic') return stemArabic(token);
  if (script === 'latin') return stemEnglish(token);
  return token;
}

/** Stem every token (same order and length as the input). */
export function stemTokens(tokens: string[]): string[] {
  return tokens.map(stem);
}
