import { loadConfig } from '../shared/platform/config.js';
import { createDb, migrateLatest } from '../shared/platform/db/knex.js';

/** Applies pending migrations to DATABASE_URL. */
const config = loadConfig();
const db = createDb(config.databaseUrl);
try {
  const ran = await migrateLatest(db);
  process.stdout.write(ran.length ? `applied: ${ran.join(', ')}\n` : 'schema is up to date\n');
} finally {
  await db.destroy();
}
