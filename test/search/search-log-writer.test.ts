import t from 'tap';
import { deferred } from '../helpers/wait.js';
import { createTestDatabase } from '../helpers/db.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { createLogger } from '../../shared/platform/logger.js';
import { searchLogRepo, type SearchLogRow } from '../../shared/search/search-log.repo.js';
import { SearchLogWriter } from '../../shared/search/search-log.js';
import { rowsRefused } from '../../shared/platform/metrics.js';

const database = await createTestDatabase();
const db = createDb(database.url, { min: 0, max: 2 });
t.teardown(async () => {
  await db.destroy();
  await database.drop();
});
await db('tenants').insert([
  { id: 'ten_log', name: 'log', locales: ['en'], default_locale: 'en' },
  { id: 'ten_log2', name: 'log 2', locales: ['en'], default_locale: 'en' },
]);
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

t.test('a row Postgres refuses is dropped alone: every other row of the batch, of every tenant, is stored', async (t) => {
  await db('search_log').del();
  const errors: unknown[] = [];
  const logger = { ...createLogger('silent'), error: (msg: string, fields?: Record<string, unknown>) => void errors.push(fields?.id) };
  const writer = new SearchLogWriter(repo.insertMany, logger);
  const refused = async () => (await rowsRefused.get()).values.find((v) => v.labels.table === 'search_log')?.value ?? 0;
  const before = await refused();
  const good = Array.from({ length: 12 }, (_, i) => ({ ...row(`srch_ok_${String(i).padStart(2, '0')}`), tenant_id: i % 2 ? 'ten_log2' : 'ten_log' }));
  const bad = [
    { ...row('srch_bad_nul'), query: 'ket\u0000tle' }, // text Postgres cannot store: 22P05
    { ...row('srch_bad_page'), tenant_id: 'ten_log2', page: 2 ** 40 }, // out of int4: 22003
  ];
  for (const r of [...good.slice(0, 5), bad[0], ...good.slice(5), bad[1]]) writer.push(r);
  await writer.flush();
  t.same(await stored(), good.map((r) => r.id).sort(), 'the good rows are stored, the refused ones not');
  t.same(errors.sort(), ['srch_bad_nul', 'srch_bad_page'], 'one error line per refused row');
  t.equal((await refused()) - before, 2, 'each refused row counted');
});
