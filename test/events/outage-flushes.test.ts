import t from 'tap';
import { createTestDatabase } from '../helpers/db.js';
import { startPgProxy } from '../helpers/pg-proxy.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { createLogger } from '../../shared/platform/logger.js';
import { EventWriter } from '../../shared/events/event-writer.js';
import { eventsRepo, type EventRow } from '../../shared/events/events.repo.js';

// While Postgres cannot take events the buffer stays past a batch (maxRows): every events call then
// queued one more flush behind the one failing, each a statement against the unreachable database
// (each waiting up to the connect timeout in a real outage), and stop() waited for all of them.
const database = await createTestDatabase();
const db = createDb(database.url, { min: 0, max: 2 });
const proxy = await startPgProxy(database.url);
const viaProxy = createDb(proxy.url, { min: 0, max: 1 });
t.teardown(async () => {
  await viaProxy.destroy();
  await proxy.close();
  await db.destroy();
  await database.drop();
});
await db('tenants').insert({ id: 'ten_outage', name: 'outage', locales: ['en'], default_locale: 'en' });

const row = (i: number): EventRow => ({
  id: `evt_outage_${String(i).padStart(4, '0')}`,
  tenant_id: 'ten_outage',
  client_event_id: null,
  type: 'view',
  session: 's-1',
  search_id: null,
  product_id: `p-${i}`,
  position: null,
  quantity: null,
  value: null,
  currency: null,
  occurred_at: new Date().toISOString(),
});

t.test('during an outage events calls do not each queue a write; all are stored once Postgres is back', async (t) => {
  const repo = eventsRepo(viaProxy);
  let attempts = 0;
  const writer = new EventWriter(
    (rows) => {
      attempts++;
      return repo.insertMany(rows);
    },
    createLogger('silent'),
    60_000,
    10,
  );
  proxy.cut();
  // 200 calls arriving while the first write (of the 10th call) is under way.
  for (let i = 0; i < 200; i++) writer.push([row(i)]);
  await writer.flush();
  t.ok(attempts <= 3, `a few statements tried for 200 calls arriving during one write (${attempts})`);
  t.equal(writer.buffered, 200, 'every event kept');
  // 50 more calls, one at a time, after the writes failed: the timer (not each call) tries again.
  const before = attempts;
  for (let i = 200; i < 250; i++) {
    writer.push([row(i)]);
    await new Promise((r) => setImmediate(r));
  }
  await writer.flush();
  t.ok(attempts - before <= 2, `a failing writer is not retried by each call (${attempts - before} statements for 50 calls)`);
  proxy.restore();
  await writer.stop();
  const stored = (await db('events').where({ tenant_id: 'ten_outage' }).orderBy('id').pluck('id')) as string[];
  t.same(
    stored,
    Array.from({ length: 250 }, (_, i) => row(i).id),
    'all 250 stored after the outage',
  );
});
