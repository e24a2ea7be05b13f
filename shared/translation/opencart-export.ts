import type { ItemRow } from './items.repo.js';

export interface OpenCartOptions {
  /** OpenCart's `language_id` of the target language (Admin > System > Localisation > Languages). */
  languageId: number;
  /** DB_PREFIX of the OpenCart install (`oc_` by default). */
  tablePrefix: string;
}

/** A MySQL/MariaDB string literal (default sql_mode: backslash escapes). */
export function sqlString(value: string): string {
  return `'${value.replace(/[\0\n\r\x1a\\'"]/g, (c) => ({ '\0': '\\0', '\n': '\\n', '\r': '\\r', '\x1a': '\\Z', '\\': '\\\\', "'": "\\'", '"': '\\"' })[c]!)}'`;
}

const isId = (v: string) => /^[1-9]\d{0,9}$/.test(v) && Number(v) <= 2_147_483_647;
/** OpenCart's name and meta_title columns are varchar(255). */
const clip = (s: string) => [...s].slice(0, 255).join('');

/**
 * INSERT ... ON DUPLICATE KEY UPDATE statements for OpenCart's `product_description` (name,
 * description) and `category_description` (name), one per product and category. A new row takes
 * the source text for a column with no approved translation; an existing row changes only in the
 * translated columns. Products and categories whose ids are not OpenCart integer ids are listed
 * in a comment and skipped.
 */
export function toOpenCartSql(rows: ItemRow[], opts: OpenCartOptions): string {
  const lang = opts.languageId;
  const products = new Map<string, { name?: ItemRow; description?: ItemRow }>();
  const categories = new Map<string, ItemRow>();
  const skipped: string[] = [];
  for (const r of rows) {
    if (r.field === 'name' || r.field === 'description') {
      if (!isId(r.product_id)) skipped.push(`product ${JSON.stringify(r.product_id)}`);
      else products.set(r.product_id, { ...products.get(r.product_id), [r.field]: r });
    } else if (r.field === 'category') {
      if (!isId(r.field_key)) skipped.push(`category ${JSON.stringify(r.field_key)}`);
      else categories.set(r.field_key, r);
    }
  }
  const out = [`-- OpenCart translations: language_id ${lang}, ${products.size} products, ${categories.size} categories`, 'SET NAMES utf8mb4;'];
  for (const id of [...new Set(skipped)]) out.push(`-- skipped ${id}: OpenCart ids are integers`);
  const pd = `\`${opts.tablePrefix}product_description\``;
  for (const [id, f] of products) {
    const name = clip(f.name?.translated_text ?? f.name?.source_text ?? '');
    const description = f.description?.translated_text ?? f.description?.source_text ?? '';
    const updates = [f.name ? 'name = VALUES(name), meta_title = VALUES(meta_title)' : '', f.description ? 'description = VALUES(description)' : '']
      .filter(Boolean)
      .join(', ');
    out.push(
      `INSERT INTO ${pd} (product_id, language_id, name, description, tag, meta_title, meta_description, meta_keyword) VALUES (${id}, ${lang}, ${sqlString(name)}, ${sqlString(description)}, '', ${sqlString(name)}, '', '') ON DUPLICATE KEY UPDATE ${updates};`,
    );
  }
  const cd = `\`${opts.tablePrefix}category_description\``;
  for (const [id, r] of categories) {
    const name = clip(r.translated_text ?? '');
    out.push(
      `INSERT INTO ${cd} (category_id, language_id, name, description, meta_title, meta_description, meta_keyword) VALUES (${id}, ${lang}, ${sqlString(name)}, '', ${sqlString(name)}, '', '') ON DUPLICATE KEY UPDATE name = VALUES(name), meta_title = VALUES(meta_title);`,
    );
  }
  return `${out.join('\n')}\n`;
}
