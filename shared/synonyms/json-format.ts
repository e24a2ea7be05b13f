import { jsonTooDeepAt, MAX_JSON_DEPTH } from '../platform/json-text.js';
import { lineAt, stripBom, unreadable, type ExportRule, type ParsedFile } from './formats.js';

/**
 * JSON layout: an array of SynonymIn objects, written one rule per line so errors can name lines.
 * Server fields of SynonymOut (id, source, created_at, updated_at) are accepted and ignored, so a
 * page of `GET /v1/synonyms` can be imported as it is.
 */
export function formatJson(rules: ExportRule[]): string {
  return `[\n${rules.map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
}

const SERVER_FIELDS = ['id', 'source', 'created_at', 'updated_at'];

export function parseJson(raw: string): ParsedFile {
  const content = stripBom(raw);
  if (!content.trim()) return { items: [], errors: [] };
  const deepAt = jsonTooDeepAt(content);
  if (deepAt >= 0) throw unreadable(lineAt(content, deepAt), 'json_too_deep', `arrays and objects nest more than ${MAX_JSON_DEPTH} levels deep`);
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (err) {
    const message = (err as Error).message;
    const at = /position (\d+)/.exec(message);
    throw unreadable(
      at ? lineAt(content, Number(at[1])) : brokenElementLine(content),
      'invalid_json',
      message.replace(/,\s*(\.\.\.)?".*"\s+is not valid JSON$/s, ''),
    );
  }
  if (!Array.isArray(data)) throw unreadable(1, 'not_an_array', 'a json import is an array of synonym rules');
  const starts = elementStarts(content);
  const items: ParsedFile['items'] = [];
  const errors: ParsedFile['errors'] = [];
  data.forEach((value, i) => {
    const line = starts[i]?.line ?? 1;
    if (!value || typeof value !== 'object' || Array.isArray(value)) {
      errors.push({ line, message: 'each item is a synonym rule object' });
      return;
    }
    const rule = { ...(value as Record<string, unknown>) };
    for (const f of SERVER_FIELDS) delete rule[f];
    items.push({ line, value: rule });
  });
  return { items, errors };
}

/** Where an error message gives no position: the line of the first array element that does not parse alone. */
function brokenElementLine(text: string): number {
  const starts = elementStarts(text);
  for (const [k, { offset: start, line }] of starts.entries()) {
    const end = starts[k + 1]?.offset ?? text.length;
    const slice = text.slice(start, end).replace(k + 1 < starts.length ? /[\s,]*$/ : /\s*\]?\s*$/, '');
    try {
      JSON.parse(slice);
    } catch {
      return line;
    }
  }
  return 1;
}

/** Where (offset and line) the top-level array's elements start; best effort when the text is not valid JSON. */
function elementStarts(text: string): Array<{ offset: number; line: number }> {
  const starts: Array<{ offset: number; line: number }> = [];
  let depth = 0;
  let line = 1;
  let expectValue = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\n') line++;
    if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
    if (depth === 1 && expectValue && c !== ']') {
      starts.push({ offset: i, line });
      expectValue = false;
    }
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) {
        if (text[i] === '\\') i++;
        else if (text[i] === '\n') line++;
      }
    } else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectValue = true;
    } else if (c === ']' || c === '}') depth--;
    else if (c === ',' && depth === 1) expectValue = true;
  }
  return starts;
}
