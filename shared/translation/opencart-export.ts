import type { ItemRow } from './items.repo.js';

export interface OpenCartOptions {
  /**
   * OpenCart's `language_id` of the target language (Admin > System > Localisation > Languages);
   * without it the SQL looks it up in the store's own language table by `locale`.
   */
  languageId?: number;
  /** The target locale (`ar`): without languageId, the language whose code is `ar` (else the first `ar-*`). */
  locale: string;
  /** DB_PREFIX of the OpenCart install (`oc_` by default). */
  tablePrefix: string;
  /** The stored products' own texts (see productsMissingColumns), for a new row's column with no approved translation. */
  products?: Map<string, OwnTexts>;
}

/** A product's own name and description per language, as the catalog stores them. */
export interface OwnTexts {
  name?: Record<string, string>;
  description?: Record<string, string>;
}

/** Products whose export row lacks a name or a description translation: their own text fills that column of a new row. */
export function productsMissingColumns(rows: ItemRow[]): string[] {
  const fields = new Map<string, Set<string>>();
  for (const r of rows) if (r.field === 'name' || r.field === 'description') fields.set(r.product_id, (fields.get(r.product_id) ?? new Set()).add(r.field));
  return [...fields].filter(([, f]) => f.size < 2).map(([id]) => id);
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
  // Guessing a number (1 is usually the install's first language) could overwrite the wrong language's
  // text; the store's own table knows. No such language leaves @language_id NULL, and every INSERT fails.
  const lang = opts.languageId ?? '@language_id';
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
  const language = opts.languageId ?? `of code ${opts.locale} in ${opts.tablePrefix}language`;
  const out = [`-- OpenCart translations: language_id ${language}, ${products.size} products, ${categories.size} categories`, 'SET NAMES utf8mb4;'];
  if (opts.languageId === undefined) {
    const code = sqlString(opts.locale);
    out.push(
      `SET @language_id = (SELECT language_id FROM \`${opts.tablePrefix}language\` WHERE code = ${code} OR code LIKE ${sqlString(`${opts.locale}-%`)} ORDER BY code <> ${code}, language_id LIMIT 1);`,
    );
  }
  for (const id of [...new Set(skipped)]) out.push(`-- skipped ${id}: OpenCart ids are integers`);
  const pd = `\`${opts.tablePrefix}product_description\``;
  for (const [id, f] of products) {
    // A column with no approved translation takes the store's own text (in the target language if it has
    // one, else the language translated from), so a new row is never a blank-named product.
    const from = (f.name ?? f.description)!.source_locale;
    const own = (column: keyof OwnTexts) => {
      const texts = opts.products?.get(id)?.[column];
      return texts?.[opts.locale] ?? texts?.[from] ?? '';
    };
    const name = clip(f.name?.translated_text ?? f.name?.source_text ?? own('name'));
    const description = f.description?.translated_text ?? f.description?.source_text ?? own('description');
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
