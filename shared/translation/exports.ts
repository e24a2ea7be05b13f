import type { ItemRow } from './items.repo.js';

export const EXPORT_FORMATS = ['csv', 'sql_opencart', 'json'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

/** The feed's and the json export's row shape (spec 2.4 TranslationWriteItem, with every field kind). */
export function toWriteItem(r: ItemRow) {
  return {
    id: r.id,
    product_id: r.product_id,
    field: r.field,
    // Spec 2.4: optional, never null; the table stores '' for a field without a key.
    ...(r.field_key ? { field_key: r.field_key } : {}),
    locale: r.target_locale,
    text: r.translated_text ?? '',
    source_hash: r.source_hash,
    status: r.status,
    updated_at: r.updated_at.toISOString(),
  };
}

const CSV_COLUMNS = [
  'id',
  'product_id',
  'field',
  'field_key',
  'source_locale',
  'target_locale',
  'source_text',
  'translated_text',
  'status',
  'source_hash',
  'updated_at',
] as const;

/** RFC 4180: every value quoted, quotes doubled; a value starting with = + - @ gets a leading apostrophe so spreadsheets do not run it. */
function csvValue(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** csv: a header line, then one line per approved translation (README "Translation exports"). */
export function toCsv(rows: ItemRow[]): string {
  const lines = [CSV_COLUMNS.join(',')];
  for (const r of rows) {
    const values: Record<(typeof CSV_COLUMNS)[number], string> = {
      id: r.id,
      product_id: r.product_id,
      field: r.field,
      field_key: r.field_key,
      source_locale: r.source_locale,
      target_locale: r.target_locale,
      source_text: r.source_text,
      translated_text: r.translated_text ?? '',
      status: r.status,
      source_hash: r.source_hash,
      updated_at: r.updated_at.toISOString(),
    };
    lines.push(CSV_COLUMNS.map((c) => csvValue(values[c])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}

export const toJson = (rows: ItemRow[]) => JSON.stringify(rows.map(toWriteItem), null, 2);
