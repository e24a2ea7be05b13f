import t from 'tap';
import { createTestDatabase } from '../helpers/db.js';
import { pgTerminator } from '../helpers/pg-terminate.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { isRead } from '../../shared/platform/db/read-retry.js';
import { isDependencyDown } from '../../shared/platform/dependency-errors.js';

// A read whose connection is terminated mid-statement runs once more on a fresh connection;
// writes and statements inside a transaction do not (they may have committed, or lost their state).
const database = await createTestDatabase();
const db = createDb(database.url, { min: 0, max: 2 });
const killer = await pgTerminator(database.url);
t.teardown(async () => {
  await db.destroy();
  await killer.close();
  await database.drop();
});

/** Runs `statement` and terminates every backend of the database once it is seen sleeping inside it. */
async function killedDuring<T>(statement: () => Promise<T>): Promise<T> {
  // A knex query runs only once something awaits it: adopt it into a promise so it starts now.
  const running = Promise.resolve(statement());
  // It may fail while the kill is still being reported: the caller sees that failure, so it is handled.
  running.catch(() => undefined);
  // Not a fixed pause: on a loaded machine the statement may not have reached the server yet.
  await killer.running('pg_sleep');
  t.ok((await killer.terminateAll()) >= 1, 'a backend was terminated mid-statement');
  return running;
}

t.test('a read broken mid-statement answers from a fresh connection', async (t) => {
  const before = (await db.raw('SELECT pg_backend_pid() AS pid')).rows[0].pid;
  const res = await killedDuring(() => db.raw('SELECT pg_sleep(2), pg_backend_pid() AS pid'));
  t.not(res.rows[0].pid, before, 'answered by another backend');
  const built = await killedDuring(() => db.select(db.raw('pg_sleep(2)'), db.raw('1 AS one')).first());
  t.equal(built.one, 1, 'query-builder reads too');
});

t.test('a write broken mid-statement is not run again: the caller sees a dependency failure', async (t) => {
  await db.raw('CREATE TABLE IF NOT EXISTS retry_probe (n int)');
  const err = await killedDuring(() => db.raw('INSERT INTO retry_probe SELECT 1 FROM pg_sleep(2)')).catch((e) => e);
  t.ok(err instanceof Error, 'the write failed');
  t.ok(isDependencyDown(err), 'as a dependency failure (answered 503)');
  t.equal(Number((await db.raw('SELECT count(*) AS n FROM retry_probe')).rows[0].n), 0, 'and did not run twice, nor once');
});

t.test('a read inside a transaction is not run again', async (t) => {
  const err = await killedDuring(() => db.transaction((trx) => trx.raw('SELECT pg_sleep(2)'))).catch((e) => e);
  t.ok(isDependencyDown(err), 'the transaction fails as a dependency failure');
});

t.test('what counts as a read', async (t) => {
  t.ok(isRead({ method: 'select' }));
  t.ok(isRead({ method: 'first' }));
  t.ok(isRead({ method: 'raw', sql: '  WITH g AS (SELECT 1) SELECT * FROM g' }));
  t.notOk(isRead({ method: 'raw', sql: 'WITH x AS (DELETE FROM t RETURNING *) SELECT * FROM x' }));
  t.notOk(isRead({ method: 'raw', sql: 'SELECT nextval(?)' }));
  t.notOk(isRead({ method: 'raw', sql: 'SELECT * INTO copy FROM t' }));
  t.notOk(isRead({ method: 'insert' }));
  t.notOk(isRead({ method: 'update' }));
});
