import t from 'tap';
import { createTestDatabase } from '../helpers/db.js';
import { startPgProxy } from '../helpers/pg-proxy.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { createLogger, type Logger } from '../../shared/platform/logger.js';
import { rowsRefused } from '../../shared/platform/metrics.js';
import { EventWriter } from '../../shared/events/event-writer.js';
import { eventsRepo, type EventRow } from '../../shared/events/events.repo.js';

// The writer's batches hold several tenants' events: one row Postgres refuses must not take the others with it.
const database = await createTestDatabase();
const db = createDb(database.url, { min: 0, max: 2 });
t.teardown(async () => {
  await db.destroy();
  await database.drop();
});
const TENANTS = ['ten_ev_a', 'ten_ev_b', 'ten_ev_c'];
await db('tenants').insert(TENANTS.map((id) => ({ id, name: id, locales: ['en'], default_locale: 'en' })));

const row = (id: string, tenant: string, over: Partial<EventRow> = {}): EventRow => ({
  id,
  tenant_id: tenant,
  client_event_id: `c-${id}`,
  type: 'view',
  session: 's-1',
  search_id: null,
  product_id: 'p-1',
  position: null,
  quantity: null,
  value: null,
  currency: null,
  occurred_at: new Date().toISOString(),
  ...over,
});
const storedIds = async () => (await db('events').orderBy('id').pluck('id')) as string[];
const refusedCount = async () => (await rowsRefused.get()).values.find((v) => v.labels.table === 'events')?.value ?? 0;
function recordingLogger() {
  const errors: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
  const logger: Logger = { ...createLogger('silent'), error: (msg, fields) => void errors.push({ msg, fields }) };
  return { logger, errors };
}

t.test('rows Postgres refuses are dropped one by one; every good row of every tenant is stored', async (t) => {
  const repo = eventsRepo(db);
  const { logger, errors } = recordingLogger();
  const writer = new EventWriter((rows) => repo.insertMany(rows), logger, 60_000, 500);
  const good = Array.from({ length: 30 }, (_, i) => row(`evt_good_${String(i).padStart(2, '0')}`, TENANTS[i % 3]));
  const bad = [
    row('evt_bad_range', 'ten_ev_b', { type: 'search_click', search_id: 'srch_1', position: 3_000_000_000 }), // out of int4: 22003
    row('evt_bad_nul', 'ten_ev_a', { session: 's\u0000x' }), // text Postgres cannot store: 22P05
    row('evt_bad_surrogate', 'ten_ev_c', { product_id: 'p\ud800' }), // lone surrogate in the JSON: 22P02
  ];
  const before = await refusedCount();
  const all = [...good.slice(0, 7), bad[0], ...good.slice(7, 19), bad[1], ...good.slice(19), bad[2]];
  t.equal(writer.push(all), all.length);
  await writer.flush();

  t.same(await storedIds(), good.map((r) => r.id).sort(), 'every good row stored, no bad one');
  for (const tenant of TENANTS)
    t.equal(
      await db('events')
        .where({ tenant_id: tenant })
        .count<{ count: string }[]>()
        .first()
        .then((r) => Number(r?.count)),
      10,
      tenant,
    );
  t.equal(writer.buffered, 0, 'nothing left to retry');
  t.equal((await refusedCount()) - before, 3, 'each refused row counted');
  t.same(errors.map((e) => e.fields?.id).sort(), bad.map((r) => r.id).sort(), 'one error line per refused row');

  // A later flush goes on as usual, and the refused rows do not come back.
  writer.push([row('evt_later', 'ten_ev_a')]);
  await writer.stop();
  t.ok((await storedIds()).includes('evt_later'));
  t.notOk((await storedIds()).some((id) => id.startsWith('evt_bad')));
});

t.test('events buffered while Postgres is unreachable are all written once it is back', async (t) => {
  await db('events').del();
  const proxy = await startPgProxy(database.url);
  const viaProxy = createDb(proxy.url, { min: 0, max: 1 });
  t.teardown(async () => {
    await viaProxy.destroy();
    await proxy.close();
  });
  const repo = eventsRepo(viaProxy);
  const writer = new EventWriter((rows) => repo.insertMany(rows), createLogger('silent'), 60_000, 500);
  proxy.cut();
  const rows = TENANTS.flatMap((tenant, i) => [row(`evt_out_${i}a`, tenant), row(`evt_out_${i}b`, tenant)]);
  writer.push(rows);
  // Several flushes fail during the outage (the old writer dropped a batch after its second).
  for (let i = 0; i < 4; i++) await writer.flush();
  t.equal(writer.buffered, rows.length, 'every event still buffered');
  proxy.restore();
  await writer.stop();
  t.same(await storedIds(), rows.map((r) => r.id).sort(), 'all stored after the outage');
});
