import { blankTerm, hasTerm, type GlossaryRule } from './glossary-match.js';
import type { Restored } from './protect.js';
import { normalizeSource } from './fields.js';

export type CheckResult = 'pass' | 'warn' | 'error';
export interface CheckNote {
  result: CheckResult;
  detail?: string;
}
/** quality_notes: one entry per check, by check name. */
export type QualityNotes = Record<string, CheckNote>;

export interface CheckInput {
  source: string;
  /** The translation with placeholders put back. */
  translated: string;
  targetLocale: string;
  /** Brand, model, SKU, GTIN of the product. */
  codes: ReadonlyArray<string | null | undefined>;
  /** Glossary terms for this locale pair (those found in the source are checked). */
  glossary: readonly GlossaryRule[];
  /** Placeholder report from restore(); absent for a person's edit. */
  restored?: Pick<Restored, 'missing' | 'repeated' | 'unknown'>;
}

const DIGITS: Record<string, string> = Object.fromEntries(
  [...'٠١٢٣٤٥٦٧٨٩'].map((d, i) => [d, String(i)]).concat([...'۰۱۲۳۴۵۶۷۸۹'].map((d, i) => [d, String(i)])),
);
/** Arabic-Indic and Persian digits as ASCII, the Arabic decimal separator as a dot. */
export const foldDigits = (s: string) =>
  s
    .replace(/[٠-٩۰-۹]/g, (d) => DIGITS[d])
    .replace(/٫/g, '.')
    .replace(/٬/g, ',');

/** The numbers of a text, digits only (thousands separators and decimal marks dropped: "1,299.00" and "1299.00" agree). */
function numbers(text: string): string[] {
  return (foldDigits(text).match(/\d+(?:[.,]\d+)*/g) ?? []).map((n) => n.replace(/[.,]/g, '').replace(/^0+(?=\d)/, ''));
}

const SCRIPTS: Array<[RegExp, string[]]> = [
  [/\p{Script=Arabic}/u, ['ar', 'fa', 'ur', 'ps', 'ku', 'sd', 'ug']],
  [/\p{Script=Hebrew}/u, ['he', 'yi']],
  [/\p{Script=Cyrillic}/u, ['ru', 'uk', 'bg', 'sr', 'mk', 'be', 'kk', 'ky', 'mn', 'tg']],
  [/\p{Script=Greek}/u, ['el']],
  [/\p{Script=Devanagari}/u, ['hi', 'mr', 'ne']],
  [/[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u, ['zh', 'ja']],
  [/\p{Script=Hangul}/u, ['ko']],
  [/\p{Script=Thai}/u, ['th']],
];
/** A letter of the target locale's script (Latin for locales not listed). */
export function scriptOf(locale: string): RegExp {
  return SCRIPTS.find(([, locales]) => locales.includes(locale))?.[0] ?? /\p{Script=Latin}/u;
}

const VOID = new Set(['br', 'img', 'hr', 'input', 'meta', 'link', 'source', 'wbr', 'area', 'col', 'embed', 'param', 'track', 'base']);
/** Unclosed or stray tags of a text's HTML (empty when balanced). */
function htmlProblems(text: string): string[] {
  const stack: string[] = [];
  const problems: string[] = [];
  for (const m of text.matchAll(/<(\/?)([A-Za-z][A-Za-z0-9]*)\b[^<>]*?(\/?)>/g)) {
    const [, closing, rawName, selfClosing] = m;
    const name = rawName.toLowerCase();
    if (VOID.has(name) || selfClosing) continue;
    if (!closing) stack.push(name);
    else if (stack[stack.length - 1] === name) stack.pop();
    else problems.push(`stray </${name}>`);
  }
  return [...problems, ...stack.map((n) => `unclosed <${n}>`)];
}

/** Text without tags, links and codes: what is left to translate. */
function translatable(text: string, codes: string[]): string {
  let out = text.replace(/<[^<>]*>/g, ' ').replace(/\b(?:https?:\/\/|www\.)\S+/gi, ' ');
  for (const c of codes) out = blankTerm(out, c);
  return out;
}

const note = (result: CheckResult, detail?: string): CheckNote => (detail ? { result, detail } : { result });

/**
 * Quality checks of one machine (or human) translation: numbers kept, brand/model/SKU kept,
 * glossary obeyed, placeholders restored, target script present, length ratio, not identical to
 * the source, HTML balanced. Each is pass, warn or error.
 */
export function checkTranslation(input: CheckInput): QualityNotes {
  const { source, translated } = input;
  const codes = [...new Set(input.codes.filter((c): c is string => !!c && !!c.trim()).map((c) => c.trim()))];
  const notes: QualityNotes = {};

  const want = numbers(source);
  const have = numbers(translated);
  const left = [...have];
  const lost = want.filter((n) => {
    const i = left.indexOf(n);
    if (i < 0) return true;
    left.splice(i, 1);
    return false;
  });
  notes.numbers_kept = lost.length ? note('error', `missing: ${lost.join(', ')}`) : left.length ? note('warn', `added: ${left.join(', ')}`) : note('pass');

  const lostCodes = codes.filter((c) => hasTerm(source, c, false) && !hasTerm(translated, c, false));
  notes.brand_kept = lostCodes.length ? note('error', `missing: ${lostCodes.join(', ')}`) : note('pass');

  const broken = input.glossary
    .filter((g) => hasTerm(source, g.source_term, g.case_sensitive))
    .flatMap((g) => {
      const expected = g.do_not_translate || !g.target_term ? g.source_term : g.target_term;
      return hasTerm(translated, expected, g.case_sensitive) ? [] : [`"${g.source_term}" should read "${expected}"`];
    });
  notes.glossary_obeyed = broken.length ? note('error', broken.join('; ')) : note('pass');

  const r = input.restored;
  const leftover = (translated.match(/\{\{\s*P\d+\s*\}\}/g) ?? []).length;
  if (r && (r.missing.length || r.unknown.length))
    notes.placeholders_restored = note(
      'error',
      [
        r.missing.length ? `lost ${r.missing.map((n) => `P${n}`).join(', ')}` : '',
        r.unknown.length ? `invented ${r.unknown.map((n) => `P${n}`).join(', ')}` : '',
      ]
        .filter(Boolean)
        .join('; '),
    );
  else if (leftover) notes.placeholders_restored = note('error', `${leftover} placeholder(s) left in the text`);
  else if (r?.repeated.length) notes.placeholders_restored = note('warn', `repeated ${r.repeated.map((n) => `P${n}`).join(', ')}`);
  else notes.placeholders_restored = note('pass');

  // Nothing to translate (a name that is all brand and model): script and identity checks do not apply.
  const rest = translatable(source, codes);
  const hasWords = /\p{L}{2,}/u.test(rest);
  const letters = [...translatable(translated, codes).matchAll(/\p{L}/gu)].map((m) => m[0]);
  const script = scriptOf(input.targetLocale);
  const inScript = letters.filter((l) => script.test(l)).length;
  if (!hasWords) notes.target_script = note('pass', 'nothing to translate');
  else if (!inScript) notes.target_script = note('error', `no ${input.targetLocale} script letters`);
  else if (inScript < letters.length / 2) notes.target_script = note('warn', 'mostly another script');
  else notes.target_script = note('pass');

  const ratio = translated.length / Math.max(1, source.length);
  if (source.length < 16) notes.length_ratio = note('pass');
  else if (ratio < 0.25 || ratio > 4) notes.length_ratio = note('error', `length ${ratio.toFixed(2)} x the source`);
  else if (ratio < 0.5 || ratio > 2.5) notes.length_ratio = note('warn', `length ${ratio.toFixed(2)} x the source`);
  else notes.length_ratio = note('pass');

  const same = normalizeSource(translated).toLowerCase() === normalizeSource(source).toLowerCase();
  notes.not_identical = same && hasWords ? note('error', 'the translation is the source text') : note('pass');

  const srcHtml = htmlProblems(source);
  const dstHtml = htmlProblems(translated);
  notes.html_balanced = dstHtml.length > srcHtml.length ? note('error', dstHtml.join(', ')) : note('pass');
  return notes;
}

/** quality_score: 1 less 0.3 per error and 0.1 per warning, within 0..1. */
export function qualityScore(notes: QualityNotes): number {
  let score = 1;
  for (const n of Object.values(notes)) score -= n.result === 'error' ? 0.3 : n.result === 'warn' ? 0.1 : 0;
  return Math.round(Math.max(0, Math.min(1, score)) * 100) / 100;
}

export const hasError = (notes: QualityNotes) => Object.values(notes).some((n) => n.result === 'error');
