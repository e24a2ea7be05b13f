import t from 'tap';
import { deferred } from '../helpers/wait.js';
import { createTestDatabase } from '../helpers/db.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { createLogger } from '../../shared/platform/logger.js';
import { searchLogRepo, type SearchLogRow } from '../../shared/search/search-log.repo.js';
import { SearchLogWriter } from '../../shared/search/search-log.js';

const database = await createTestDatabase();
const db = createDb(database.url, { min: 0, max: 2 });
t.teardown(async () => {
  await db.destroy();
  await database.drop();
});
await db('tenants').insert({ id: 'ten_log', name: 'log', locales: ['en'], default_locale: 'en' });
const repo = searchLogRepo(db);

const row = (id: string): SearchLogRow => ({
  id,
  tenant_id: 'ten_log',
  session: null,
  query: id,
  normalized: id,
  lang: 'en',
  filters: {},
  sort: 'relevance',
  total: 1,
  page: 1,
  took_ms: 1,
  zero_result: false,
  shown: ['p1'],
});
const stored = async () => (await db('search_log').orderBy('id').pluck('id')) as string[];

t.test('a flush called while an earlier one is writing resolves after that write is stored', async (t) => {
  // The first write waits on a gate, as the timer's flush would while Postgres is busy.
  const gate = deferred();
  let calls = 0;
  const writer = new SearchLogWriter(async (rows) => {
    if (calls++ === 0) await gate.promise;
    await repo.insertMany(rows);
  }, createLogger('silent'));
  writer.push(row('srch_1'));
  const first = writer.flush();
  // Nothing buffered now: before, this returned at once while srch_1 was not yet stored.
  let done = false;
  const second = writer.flush().then(() => (done = true));
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(done, false, 'still waiting for the earlier write');
  gate.resolve();
  await second;
  t.same(await stored(), ['srch_1'], 'the earlier flush stored its row before the later one resolved');
  await first;
  writer.push(row('srch_2'));
  writer.push(row('srch_3'));
  await writer.stop();
  t.same(await stored(), ['srch_1', 'srch_2', 'srch_3'], 'stop writes what is buffered');
  t.equal(calls, 2, 'one statement per flush with rows');
});

t.test('a failed write is logged and dropped; the next flush goes on', async (t) => {
  await db('search_log').del();
  const warnings: unknown[] = [];
  const logger = { ...createLogger('silent'), warn: (msg: string, fields?: Record<string, unknown>) => void warnings.push([msg, fields]) };
  let fail = true;
  const writer = new SearchLogWriter(async (rows) => {
    if (fail) throw new Error('database down');
    await repo.insertMany(rows);
  }, logger);
  writer.push(row('srch_4'));
  await writer.flush();
  t.equal(warnings.length, 1, 'logged');
  fail = false;
  writer.push(row('srch_5'));
  await writer.flush();
  t.same(await stored(), ['srch_5']);
});
