import t, { type Test } from 'tap';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { setup } from '../helpers/harness.js';
import { caller } from './helpers.js';

const h = await setup();
t.teardown(() => h.close());
const shop = await h.tenant();
const call = caller(h, shop.key);
const db = h.api.deps.db;

const item = (id: string, product_id: string, field: string, translated_text: string, extra: Record<string, unknown> = {}) => ({
  tenant_id: shop.id,
  id,
  product_id,
  field,
  field_key: '',
  source_locale: 'en',
  target_locale: 'ar',
  source_text: `source of ${id}`,
  source_hash: `h-${id}`,
  translated_text,
  ai_translated: true,
  status: 'approved',
  ...extra,
});
const tricky = `حامل "أصلي" O'Neil \\ مائل\nسطر ثان 😀`;
await db('translation_items').insert([
  item('tr_1', '42', 'name', tricky),
  item('tr_2', '42', 'description', '<p>وصف</p>', { status: 'human_edited', human_edited: true }),
  item('tr_3', '43', 'description', 'وصف فقط'),
  item('tr_4', '43', 'name', 'لم يعتمد', { status: 'machine' }),
  item('tr_5', '42', 'category', 'ساعات', { field_key: '20' }),
  item('tr_6', 'sku-abc', 'name', 'معرف غير رقمي'),
  item('tr_7', '44', 'name', 'ط'.repeat(300)),
  item('tr_8', '45', 'attribute_value', 'أسود', { field_key: 'Color' }),
  item('tr_9', '46', 'name', '=HYPERLINK("x")'),
]);

t.test('csv: a header, every approved row quoted, formulas defused', async (t) => {
  const res = await call('GET', '/v1/translate/export?format=csv&target_locale=ar');
  t.equal(res.status, 200);
  const lines = (res.body as string).split('\r\n');
  t.equal(lines[0], 'id,product_id,field,field_key,source_locale,target_locale,source_text,translated_text,status,source_hash,updated_at');
  t.equal(lines.length - 2, 8, 'eight approved rows (the machine one is not approved)');
  t.ok(
    (res.body as string).includes('"tr_1","42","name","","en","ar","source of tr_1","حامل ""أصلي"" O\'Neil \\ مائل\nسطر ثان 😀","approved"'),
    'quotes doubled, newline kept inside quotes',
  );
  t.ok((res.body as string).includes(`"'=HYPERLINK(""x"")"`), 'a leading = is prefixed');
});

t.test('json: TranslationWriteItem rows', async (t) => {
  const rows = JSON.parse((await call('GET', '/v1/translate/export?format=json')).body);
  t.equal(rows.length, 8);
  t.match(
    rows.find((r: { id: string }) => r.id === 'tr_5'),
    { product_id: '42', field: 'category', field_key: '20', locale: 'ar', text: 'ساعات', source_hash: 'h-tr_5', status: 'approved' },
  );
});

/** The mariadb client against the server .ci/run makes sure of (MARIADB_HOST/PORT/USER to point elsewhere). */
function maria(sql: string, database?: string): string {
  const args = [
    '-h',
    process.env.MARIADB_HOST ?? '127.0.0.1',
    '-P',
    process.env.MARIADB_PORT ?? '3306',
    '-u',
    process.env.MARIADB_USER ?? 'root',
    '--default-character-set=utf8mb4',
    '-N',
    '-B',
    '--raw',
  ];
  if (database) args.push(database);
  return execFileSync('mariadb', args, { input: sql, encoding: 'utf8' });
}

// OpenCart 3.0's own layout of the two tables (upload/install/opencart.sql), in utf8mb4 as current installs use.
const OPENCART_TABLES = `
CREATE TABLE \`oc_product_description\` (
  \`product_id\` int(11) NOT NULL,
  \`language_id\` int(11) NOT NULL,
  \`name\` varchar(255) NOT NULL,
  \`description\` text NOT NULL,
  \`tag\` text NOT NULL,
  \`meta_title\` varchar(255) NOT NULL,
  \`meta_description\` varchar(255) NOT NULL,
  \`meta_keyword\` varchar(255) NOT NULL,
  PRIMARY KEY (\`product_id\`,\`language_id\`),
  KEY \`name\` (\`name\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;
CREATE TABLE \`oc_category_description\` (
  \`category_id\` int(11) NOT NULL,
  \`language_id\` int(11) NOT NULL,
  \`name\` varchar(255) NOT NULL,
  \`description\` text NOT NULL,
  \`meta_title\` varchar(255) NOT NULL,
  \`meta_description\` varchar(255) NOT NULL,
  \`meta_keyword\` varchar(255) NOT NULL,
  PRIMARY KEY (\`category_id\`,\`language_id\`),
  KEY \`name\` (\`name\`)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_general_ci;`;

// OpenCart 3.0's language table, as an install with English first and Arabic added has it.
const OPENCART_LANGUAGES = `
CREATE TABLE \`oc_language\` (
  \`language_id\` int(11) NOT NULL AUTO_INCREMENT,
  \`name\` varchar(32) NOT NULL,
  \`code\` varchar(5) NOT NULL,
  \`locale\` varchar(255) NOT NULL,
  \`image\` varchar(64) NOT NULL,
  \`directory\` varchar(32) NOT NULL,
  \`sort_order\` int(3) NOT NULL DEFAULT '0',
  \`status\` tinyint(1) NOT NULL,
  PRIMARY KEY (\`language_id\`),
  KEY \`name\` (\`name\`)
) ENGINE=MyISAM DEFAULT CHARSET=utf8;
INSERT INTO \`oc_language\` VALUES (1, 'English', 'en-gb', 'en-US,en_US.UTF-8,en_US,en-gb,english', 'gb.png', 'english', 1, 1);`;

/** A fresh database with OpenCart's tables, or undefined (and a failure) when MariaDB does not answer. */
function openCartDatabase(t: Test): string | undefined {
  try {
    maria('SELECT 1');
  } catch (err) {
    t.fail(
      `MariaDB does not answer on ${process.env.MARIADB_HOST ?? '127.0.0.1'}:${process.env.MARIADB_PORT ?? '3306'} (.ci/run installs and starts it): ${(err as Error).message}`,
    );
    return undefined;
  }
  const database = `pss_oc_${randomBytes(4).toString('hex')}`;
  maria(`CREATE DATABASE ${database} CHARACTER SET utf8mb4`);
  t.teardown(() => void maria(`DROP DATABASE IF EXISTS ${database}`));
  maria(OPENCART_TABLES + OPENCART_LANGUAGES, database);
  return database;
}

t.test("sql_opencart loads into OpenCart's tables in a real MariaDB and the rows read back", async (t) => {
  const database = openCartDatabase(t);
  if (!database) return;
  // The store's existing Arabic row of product 43: its name and tags must survive a description-only update.
  maria(`INSERT INTO oc_product_description VALUES (43, 2, 'اسم قديم', 'قديم', 'وسوم', 'عنوان', 'ميتا', 'كلمات');`, database);

  const res = await call('GET', '/v1/translate/export?format=sql_opencart&target_locale=ar&language_id=2');
  t.equal(res.status, 200);
  const sql = res.body as string;
  t.match(sql, /^-- OpenCart translations: language_id 2/);
  t.match(sql, /-- skipped product "sku-abc": OpenCart ids are integers/);
  t.match(sql, /INSERT INTO `oc_product_description` .* ON DUPLICATE KEY UPDATE/);
  maria(sql, database);
  maria(sql, database); // loading it twice changes nothing (upserts)

  const rows = JSON.parse(
    maria(
      `SELECT JSON_ARRAYAGG(JSON_OBJECT('id', product_id, 'lang', language_id, 'name', name, 'description', description, 'tag', tag, 'meta_title', meta_title) ORDER BY product_id) FROM oc_product_description`,
      database,
    ),
  );
  t.same(
    rows.map((r: { id: number }) => r.id),
    [42, 43, 44, 46],
    'sku-abc skipped; 45 has only an attribute value',
  );
  const byId = Object.fromEntries(rows.map((r: { id: number }) => [r.id, r]));
  t.match(byId[42], { lang: 2, name: tricky, description: '<p>وصف</p>', tag: '', meta_title: tricky }, 'quotes, backslash, newline, Arabic and emoji survive');
  t.match(byId[43], { name: 'اسم قديم', description: 'وصف فقط', tag: 'وسوم', meta_title: 'عنوان' }, 'an existing row changes only in the translated column');
  t.equal([...byId[44].name].length, 255, 'names clipped to varchar(255)');
  t.equal(byId[46].name, '=HYPERLINK("x")');
  const cats = JSON.parse(
    maria(`SELECT JSON_ARRAYAGG(JSON_OBJECT('id', category_id, 'lang', language_id, 'name', name)) FROM oc_category_description`, database),
  );
  t.same(cats, [{ id: 20, lang: 2, name: 'ساعات' }]);

  const prefixed = (await call('GET', '/v1/translate/export?format=sql_opencart&language_id=3&table_prefix=shop_')).body as string;
  t.match(prefixed, /INSERT INTO `shop_product_description` \(product_id, language_id, [^)]*\) VALUES \(42, 3,/);
  t.match((await call('GET', '/v1/translate/export?format=sql_opencart&language_id=2&table_prefix=x;drop')).body.error, {
    details: [{ field: 'table_prefix' }],
  });
  t.match((await call('GET', '/v1/translate/export?format=sql_opencart&language_id=0')).body.error, { details: [{ field: 'language_id' }] });
});

t.test("sql_opencart with only the spec's parameters takes the language_id of the target locale from the store's oc_language", async (t) => {
  const database = openCartDatabase(t);
  if (!database) return;
  const res = await call('GET', '/v1/translate/export?format=sql_opencart');
  t.equal(res.status, 200, 'no language_id needed (spec 4.3: format and target_locale only)');
  const sql = res.body as string;
  const names = () =>
    JSON.parse(
      maria(
        `SELECT COALESCE(JSON_ARRAYAGG(JSON_OBJECT('id', product_id, 'lang', language_id, 'name', name) ORDER BY product_id, language_id), '[]') FROM oc_product_description`,
        database,
      ),
    ) as Array<{ id: number; lang: number; name: string }>;

  // A store without Arabic: no row gets a language, so nothing is written (rather than the English rows overwritten).
  t.throws(() => maria(sql, database), /language_id' cannot be null/);
  t.same(names(), [], 'nothing written');

  maria(`INSERT INTO oc_language VALUES (2, 'Deutsch', 'de-de', '', '', 'german', 2, 1), (3, 'العربية', 'ar', '', '', 'arabic', 3, 1);`, database);
  maria(`INSERT INTO oc_product_description VALUES (42, 1, 'English name', 'English text', '', 'English name', '', '');`, database);
  maria(sql, database);
  const rows = names();
  t.same([...new Set(rows.filter((r) => r.lang !== 1).map((r) => r.lang))], [3], "every translation written under Arabic's language_id 3");
  t.same(
    rows.filter((r) => r.id === 42),
    [
      { id: 42, lang: 1, name: 'English name' },
      { id: 42, lang: 3, name: tricky },
    ],
    'the English row is untouched',
  );

  // An explicit language_id still wins (an install whose Arabic language has another code).
  t.match((await call('GET', '/v1/translate/export?format=sql_opencart&language_id=7')).body, /VALUES \(42, 7,/);
});

t.test('sql_opencart: a new row takes the source text of a field with no approved translation', async (t) => {
  const database = openCartDatabase(t);
  if (!database) return;
  const stored = await call('POST', '/v1/products/batch', {
    upsert: [{ id: '47', name: { en: 'Desk lamp' }, description: { en: 'A lamp for the desk' }, price: 1, currency: 'USD' }],
  });
  t.equal(stored.status, 200);
  // Only the description is approved; the name is still waiting for review.
  await db('translation_items').insert([
    item('tr_10', '47', 'description', 'مصباح للمكتب', { source_text: 'A lamp for the desk' }),
    item('tr_11', '47', 'name', 'مصباح مكتب', { status: 'review', source_text: 'Desk lamp' }),
  ]);
  t.teardown(() => db('translation_items').where({ tenant_id: shop.id }).whereIn('id', ['tr_10', 'tr_11']).delete());
  maria((await call('GET', '/v1/translate/export?format=sql_opencart&language_id=2')).body as string, database);
  const [row] = JSON.parse(
    maria(
      `SELECT JSON_ARRAYAGG(JSON_OBJECT('name', name, 'description', description, 'meta_title', meta_title)) FROM oc_product_description WHERE product_id = 47`,
      database,
    ),
  );
  t.same(row, { name: 'Desk lamp', description: 'مصباح للمكتب', meta_title: 'Desk lamp' }, 'the new row is named, not blank');
});
