import { splitList, stripBom, unreadable, type ExportRule, type LineItem, type ParsedFile } from './formats.js';

/**
 * CSV layout (RFC 4180 quoting): a header row naming the columns, in any order, then one rule per
 * row. `kind` is required; the others may be left out or empty (empty = default). List cells
 * (terms, outputs, unless_terms, require_terms) separate items with `|`; a literal `|` or `\`
 * inside an item is written `\|` or `\\`. `enabled` is `true` or `false`.
 */
export const CSV_COLUMNS = ['kind', 'set_key', 'terms', 'input', 'outputs', 'unless_terms', 'require_terms', 'locale', 'enabled'] as const;
type Column = (typeof CSV_COLUMNS)[number];

export function formatCsv(rules: ExportRule[]): string {
  const list = (xs: string[] | undefined) => (xs ?? []).map((x) => x.replace(/[\\|]/g, (c) => `\\${c}`)).join('|');
  const rows = rules.map((r) => [
    r.kind,
    r.set_key ?? '',
    list(r.terms),
    r.input ?? '',
    list(r.outputs),
    list(r.conditions?.unless_terms),
    list(r.conditions?.require_terms),
    r.locale ?? '',
    r.enabled === false ? 'false' : 'true',
  ]);
  return [[...CSV_COLUMNS], ...rows].map((cells) => cells.map(quote).join(',')).join('\n') + '\n';
}

function quote(cell: string): string {
  return /[",\r\n]|^\s|\s$/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

export function parseCsv(raw: string): ParsedFile {
  const records = readRecords(stripBom(raw)).filter((r) => r.cells.some((c) => c.trim() !== ''));
  if (!records.length) return { items: [], errors: [] };
  const [header, ...rows] = records;
  const columns = header.cells.map((c) => c.trim().toLowerCase());
  for (const name of columns) {
    if (!(CSV_COLUMNS as readonly string[]).includes(name))
      throw unreadable(header.line, 'unknown_column', `unknown column "${name}" (columns: ${CSV_COLUMNS.join(', ')})`);
    if (columns.indexOf(name) !== columns.lastIndexOf(name)) throw unreadable(header.line, 'duplicate_column', `column "${name}" appears twice`);
  }
  if (!columns.includes('kind')) throw unreadable(header.line, 'missing_column', 'the header row needs a "kind" column');
  const items: LineItem[] = [];
  const errors: ParsedFile['errors'] = [];
  for (const { line, cells } of rows) {
    if (cells.length > columns.length) {
      errors.push({ line, message: `${cells.length} cells but the header has ${columns.length} columns` });
      continue;
    }
    const cell = new Map<Column, string>(columns.map((name, i) => [name as Column, (cells[i] ?? '').trim()]));
    items.push({ line, value: toRule(cell) });
  }
  return { items, errors };
}

function toRule(cell: Map<Column, string>): Record<string, unknown> {
  const value: Record<string, unknown> = { kind: cell.get('kind') };
  const set = (key: string, v: unknown) => (v === '' || v === undefined ? undefined : (value[key] = v));
  set('set_key', cell.get('set_key'));
  const lists = (name: Column) => (cell.get(name) ? splitList(cell.get(name)!, '|') : undefined);
  set('terms', lists('terms'));
  set('input', cell.get('input'));
  set('outputs', lists('outputs'));
  const unless = lists('unless_terms');
  const require = lists('require_terms');
  if (unless || require) value.conditions = { ...(unless ? { unless_terms: unless } : {}), ...(require ? { require_terms: require } : {}) };
  set('locale', cell.get('locale'));
  const enabled = cell.get('enabled')?.toLowerCase();
  set('enabled', enabled === 'true' ? true : enabled === 'false' ? false : cell.get('enabled'));
  return value;
}

/** RFC 4180 records with the line each starts on; quoted cells may span lines. */
function readRecords(text: string): Array<{ line: number; cells: string[] }> {
  const out: Array<{ line: number; cells: string[] }> = [];
  let cells: string[] = [];
  let cell = '';
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"' && cell.trim() === '') {
      const open = line;
      cell = '';
      for (i++; ; i++) {
        if (i >= text.length) throw unreadable(open, 'unterminated_quote', 'a quoted cell is never closed');
        if (text[i] === '"') {
          if (text[i + 1] !== '"') break;
          i++;
        } else if (text[i] === '\n') line++;
        cell += text[i];
      }
    } else if (c === ',') {
      cells.push(cell);
      cell = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      cells.push(cell);
      out.push({ line: start, cells });
      cells = [];
      cell = '';
      start = ++line;
    } else cell += c;
  }
  if (cell !== '' || cells.length) {
    cells.push(cell);
    out.push({ line: start, cells });
  }
  return out;
}
