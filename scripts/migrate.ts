import { loadConfig } from '../shared/platform/config.js';
import { createDb, migrateLatest } from '../shared/platform/db/knex.js';
import { parseCli, reportFailure } from './lib/cli.js';

/** Applies pending migrations to DATABASE_URL. */
parseCli('usage: npm run migrate   (applies pending migrations to DATABASE_URL)', { options: {} });
let db: ReturnType<typeof createDb> | undefined;
try {
  db = createDb(loadConfig().databaseUrl);
  const ran = await migrateLatest(db);
  process.stdout.write(ran.length ? `applied: ${ran.join(', ')}\n` : 'schema is up to date\n');
} catch (err) {
  reportFailure(err);
} finally {
  await db?.destroy();
}
