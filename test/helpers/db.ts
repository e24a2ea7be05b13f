import knexFactory from 'knex';
import { randomBytes } from 'node:crypto';
import { createDb, migrateLatest } from '../../shared/platform/db/knex.js';
import { migrationSource } from '../../shared/platform/db/migrations/index.js';
import { sha256 } from '../../shared/platform/ids.js';

const ADMIN_URL = process.env.TEST_ADMIN_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

function urlFor(database: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${database}`;
  return u.toString();
}

/** A template database migrated once per migration set; test databases are cheap copies of it. */
async function ensureTemplate(admin: ReturnType<typeof knexFactory>): Promise<string> {
  // The template's name changes whenever any migration's code does, so edits are picked up.
  const migrations = await migrationSource.getMigrations([]);
  const fingerprint = migrations.map(([name, m]) => `${name}:${m.up.toString()}`).join('\n');
  const name = `pss_tpl_${sha256(fingerprint).slice(0, 10)}`;
  await admin.raw('select pg_advisory_lock(724311)');
  try {
    const exists = await admin.raw('select 1 from pg_database where datname = ?', [name]);
    if (exists.rows.length === 0) {
      await admin.raw(`CREATE DATABASE ${name}`);
      const db = createDb(urlFor(name), { min: 0, max: 1 });
      try {
        await migrateLatest(db);
      } catch (err) {
        await db.destroy();
        await admin.raw(`DROP DATABASE IF EXISTS ${name}`);
        throw err;
      }
      await db.destroy();
    }
  } finally {
    await admin.raw('select pg_advisory_unlock(724311)');
  }
  return name;
}

/** Creates a fresh migrated database for one test file; `drop()` removes it. */
export async function createTestDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = knexFactory({ client: 'pg', connection: ADMIN_URL, pool: { min: 0, max: 1 } });
  const template = await ensureTemplate(admin);
  const name = `pss_test_${randomBytes(5).toString('hex')}`;
  await admin.raw(`CREATE DATABASE ${name} TEMPLATE ${template}`);
  return {
    url: urlFor(name),
    async drop() {
      await admin.raw(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.destroy();
    },
  };
}
