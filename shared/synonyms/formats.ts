import { AppError } from '../platform/errors.js';
import type { SynonymInput } from './rule.js';

/** What the import/export file formats share: parsed items carry their line for error messages. */
export const FORMATS = ['json', 'csv', 'solr'] as const;
export type Format = (typeof FORMATS)[number];

/** One rule as read from a file, not yet validated. */
export interface LineItem {
  line: number;
  value: Record<string, unknown>;
}
export interface LineError {
  line: number;
  message: string;
}
export interface ParsedFile {
  items: LineItem[];
  errors: LineError[];
}

/** The rule fields a file writes: SynonymIn with defaults left out. */
export type ExportRule = SynonymInput;

/** A file that cannot be read at all (nothing applied): 400 invalid_import_content. */
export function unreadable(line: number, code: string, message: string): AppError {
  return new AppError('invalid_import_content', 400, `content cannot be read: line ${line}: ${message}`, [
    { in: 'body', field: 'content', code, message: `line ${line}: ${message}` },
  ]);
}

export function stripBom(content: string): string {
  return content.charCodeAt(0) === 0xfeff ? content.slice(1) : content;
}

/** 1-based line of a character offset. */
export function lineAt(content: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < content.length; i++) if (content.charCodeAt(i) === 10) line++;
  return line;
}

/**
 * Splits on `sep` outside backslash escapes; pieces keep their escapes (unescape them after).
 * Empty pieces are kept: the caller decides whether they matter.
 */
export function splitEscaped(text: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  for (let i = 0; i < text.length;) {
    if (text.startsWith(sep, i)) {
      out.push(cur);
      cur = '';
      i += sep.length;
      continue;
    }
    if (text[i] === '\\' && i + 1 < text.length) {
      cur += text.slice(i, i + 2);
      i += 2;
      continue;
    }
    cur += text[i++];
  }
  out.push(cur);
  return out;
}

/** `\x` -> `x` (a trailing lone backslash stays), as Solr reads its synonym files. */
export function unescape(text: string): string {
  return text.replace(/\\(.)/gs, '$1');
}

/** A list of trimmed, unescaped, non-empty items. */
export function splitList(text: string, sep: string): string[] {
  return splitEscaped(text, sep)
    .map((x) => unescape(x).trim())
    .filter(Boolean);
}
