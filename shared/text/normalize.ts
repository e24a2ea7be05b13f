// Text normalization shared by indexing and querying. Both sides must call the
// exact same function, otherwise a product indexed as "شاشه" would never match
// a query typed as "شاشة".

export { tokenize, splitCompound, expandCompounds, isCodeLike } from './tokenize.js';

export interface NormalizeOptions {
  /** Fold teh marbuta (ة) to heh (ه). Default true: users type either one. */
  foldTehMarbuta?: boolean;
}

export type Script = 'arabic' | 'latin' | 'mixed' | 'none';

const SPACE = 0x20;
const TEH_MARBUTA = 0x0629;
const ARABIC_THOUSANDS = 0x066c;

// One lookup per char code instead of a chain of regex passes: this runs on
// every query and every indexed field. undefined = keep, '' = drop, ' ' = separator.
// Codes past the table are kept, except the BOM handled inline.
const TABLE_SIZE = 0x2070;
const FOLD: (string | undefined)[] = buildFoldTable();

function buildFoldTable(): (string | undefined)[] {
  const t: (string | undefined)[] = new Array(TABLE_SIZE).fill(undefined);
  const set = (from: number, to: number, value: string) => {
    for (let c = from; c <= to; c++) t[c] = value;
  };

  // Control chars (tabs, newlines, C1) are separators, never content.
  set(0x00, 0x1f, ' ');
  set(0x7f, 0x9f, ' ');
  t[SPACE] = ' ';

  // Latin diacritics: é -> e, İ -> i. Derived from NFD once here so the hot
  // loop never has to re-normalize. Also lower-cases, because NFKC+toLowerCase
  // can leave some upper-case forms in odd corners of Latin Extended.
  const latin = (from: number, to: number) => {
    for (let c = from; c <= to; c++) {
      if (c === 0xd7 || c === 0xf7) continue; // × and ÷ are symbols
      const ch = String.fromCharCode(c);
      const folded = ch
        .normalize('NFD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase();
      if (folded !== ch && folded.length > 0) t[c] = folded;
    }
  };
  latin(0xc0, 0x24f);
  latin(0x1e00, 0x1eff);
  // Case folding, not lower-casing: "Straße" is written "STRASSE" and "strasse" (ß has no one-letter upper case), and a
  // Turkish keyboard types dotless ı where the catalog has i ("ıstanbul"); İ already lower-cases to i plus a dropped dot.
  t[0xdf] = 'ss';
  t[0x131] = 'i';
  // Leftover combining marks (no precomposed form, or the i+dot from 'İ'.toLowerCase()).
  set(0x0300, 0x036f, '');
  set(0x1ab0, 0x1aff, '');
  set(0x1dc0, 0x1dff, '');

  // Invisible format chars that come along with copy-pasted Arabic (bidi marks,
  // ZWJ/ZWNJ, soft hyphen); they would silently split or poison tokens.
  t[0x00ad] = '';
  t[0x061c] = '';
  t[0x180e] = '';
  set(0x200b, 0x200f, '');
  set(0x202a, 0x202e, '');
  set(0x2060, 0x2069, '');
  set(0x2000, 0x200a, ' ');
  t[0x1680] = ' ';
  t[0x2028] = ' ';
  t[0x2029] = ' ';

  // Arabic: diacritics (tashkeel, superscript alef) and tatweel are optional
  // in writing, so they must not affect matching.
  set(0x064b, 0x065f, '');
  t[0x0670] = '';
  t[0x0640] = '';
  // Hamza/madda carriers are spelled inconsistently; fold to the bare letter.
  for (const c of [0x0622, 0x0623, 0x0625, 0x0671, 0x0672, 0x0673]) t[c] = 'ا';
  t[0x0649] = 'ي'; // alef maksura, often typed for final yeh and vice versa
  t[TEH_MARBUTA] = 'ه';
  t[0x0624] = 'و';
  t[0x0626] = 'ي';
  // Persian keyboards produce these look-alikes for Arabic yeh and kaf.
  t[0x06cc] = 'ي';
  t[0x06a9] = 'ك';

  for (let d = 0; d <= 9; d++) {
    t[0x0660 + d] = String(d); // Arabic-Indic
    t[0x06f0 + d] = String(d); // Extended (Persian/Urdu)
  }

  t[0x060c] = ' '; // Arabic comma: separator only
  t[0x061b] = ' '; // Arabic semicolon
  t[0x061f] = '?';
  t[0x066a] = '%';
  t[0x066b] = '.'; // Arabic decimal separator: "٣٫٥" must read as 3.5
  t[0x06d4] = '.'; // Arabic full stop
  return t;
}

function isDigitCode(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x0660 && c <= 0x0669) || (c >= 0x06f0 && c <= 0x06f9);
}

/** Normalize Arabic/English text for search: NFKC, lower-case, fold letter variants, digits, punctuation and whitespace. */
export function normalizeText(input: string, opts?: NormalizeOptions): string {
  const foldTeh = opts?.foldTehMarbuta !== false;
  // toLowerCase on the whole string is a single native call and also covers
  // Greek/Cyrillic; Arabic has no case so it is untouched.
  const s = input.normalize('NFKC').toLowerCase();
  const n = s.length;
  let out = '';
  let runStart = 0; // unchanged chars are copied as slices, not one by one
  let last = SPACE; // pretending we just emitted a space drops leading whitespace

  for (let i = 0; i < n; i++) {
    const c = s.charCodeAt(i);
    if (c === SPACE && last !== SPACE) {
      last = SPACE;
      continue;
    }
    let r = c < TABLE_SIZE ? FOLD[c] : c === 0xfeff ? '' : undefined;
    if (c === TEH_MARBUTA && !foldTeh) r = undefined;
    if (c === ARABIC_THOUSANDS) {
      // Only a thousands separator between digits ("١٬٠٠٠" -> 1000); anywhere else it separates words.
      r = isDigitCode(last) && isDigitCode(s.charCodeAt(i + 1)) ? '' : ' ';
    }
    if (r === undefined) {
      last = c;
      continue;
    }
    out += s.slice(runStart, i);
    runStart = i + 1;
    if (r === ' ') {
      if (last !== SPACE) out += ' ';
      last = SPACE;
    } else if (r !== '') {
      out += r;
      last = r.charCodeAt(r.length - 1);
    }
  }
  out += s.slice(runStart);
  return last === SPACE && out.length > 0 ? out.slice(0, -1) : out;
}

const NON_ASCII_DIGIT = /[\u0660-\u0669\u06f0-\u06f9\u066b]/g;

/** Arabic-Indic and Persian digits and the Arabic decimal separator as ASCII ("٥٢" -> "52", "٣٫٥" -> "3.5"); the rest unchanged. */
export function asciiDigits(s: string): string {
  return s.replace(NON_ASCII_DIGIT, (d) => {
    const c = d.charCodeAt(0);
    return c === 0x066b ? '.' : String(c >= 0x06f0 ? c - 0x06f0 : c - 0x0660);
  });
}

function isArabicLetterCode(c: number): boolean {
  return (
    (c >= 0x0621 && c <= 0x063f) ||
    (c >= 0x0641 && c <= 0x064a) ||
    (c >= 0x066e && c <= 0x066f) ||
    (c >= 0x0671 && c <= 0x06d3) ||
    c === 0x06d5 ||
    (c >= 0x06ee && c <= 0x06ef) ||
    (c >= 0x06fa && c <= 0x06fc) ||
    c === 0x06ff ||
    (c >= 0x0750 && c <= 0x077f) ||
    (c >= 0x08a0 && c <= 0x08c9) ||
    (c >= 0xfb50 && c <= 0xfdfb) ||
    (c >= 0xfe70 && c <= 0xfefc)
  );
}

function isLatinLetterCode(c: number): boolean {
  return (
    (c >= 0x61 && c <= 0x7a) ||
    (c >= 0x41 && c <= 0x5a) ||
    (c >= 0xc0 && c <= 0x24f && c !== 0xd7 && c !== 0xf7) ||
    (c >= 0x1e00 && c <= 0x1eff) ||
    (c >= 0xff21 && c <= 0xff3a) ||
    (c >= 0xff41 && c <= 0xff5a)
  );
}

/** Classify text by which letters it contains; digits and punctuation are ignored. */
export function scriptOf(s: string): Script {
  let arabic = false;
  let latin = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!arabic && isArabicLetterCode(c)) arabic = true;
    else if (!latin && isLatinLetterCode(c)) latin = true;
    if (arabic && latin) return 'mixed';
  }
  return arabic ? 'arabic' : latin ? 'latin' : 'none';
}

/** The locale to label a dictionary text with: `ar` when it has an Arabic letter, else `en`. */
export function labelLang(s: string): 'ar' | 'en' {
  return isArabic(s) ? 'ar' : 'en';
}

/** True when the text contains at least one Arabic letter (so mixed queries count as Arabic). */
export function isArabic(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (isArabicLetterCode(s.charCodeAt(i))) return true;
  }
  return false;
}
