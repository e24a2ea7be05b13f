import t from 'tap';
import knexFactory from 'knex';
import { setup } from '../helpers/harness.js';
import { waitFor } from '../helpers/wait.js';

// An event answered 202 is one the API will store: while Postgres cannot take events (here the
// events table is locked, so each flush waits and then runs past the statement timeout) the
// unwritten ones are kept, and once the buffer (EVENTS_BUFFER_ROWS) is full the call is refused
// with 503 instead of being answered as taken and dropped.
const h = await setup({ EVENTS_BUFFER_ROWS: '100', API_STATEMENT_TIMEOUT_MS: '500' });
t.teardown(() => h.close());
const shop = await h.tenant('buffer');
const deps = h.api.deps;
const views = (from: number, n: number) =>
  Array.from({ length: n }, (_, i) => ({ type: 'view', session: 'full', product_id: `p${from + i}`, event_id: `ev-${from + i}` }));
const send = (events: unknown[]) => h.api.call('POST', '/v1/events', { key: shop.key, body: { events } });

t.test('a full buffer refuses events with 503; every event answered 202 is stored once Postgres takes them', async (t) => {
  const locker = knexFactory({ client: 'pg', connection: deps.config.databaseUrl, pool: { min: 1, max: 1 } });
  t.teardown(() => locker.destroy());
  const trx = await locker.transaction();
  await trx.raw('LOCK TABLE events IN ACCESS EXCLUSIVE MODE');
  const accepted: string[] = [];
  let refused = null as Awaited<ReturnType<typeof send>> | null;
  for (let i = 0; i < 40 && !refused; i++) {
    const batch = views(i * 20, 20);
    const res = await send(batch);
    if (res.status === 202) accepted.push(...batch.map((e) => e.event_id));
    else refused = res;
  }
  t.ok(refused, 'a call was refused before 800 events');
  t.equal(refused?.status, 503);
  t.match(refused?.body.error, { code: 'dependency_unavailable', message: /buffer of unwritten events is full/ });
  t.equal(refused?.headers.get('retry-after'), '5');
  t.ok(accepted.length >= 100, `the buffer took its 100 rows at least (${accepted.length} answered 202)`);
  // Flushes keep failing while the lock is held (statement timeout): the rows stay buffered.
  await waitFor(async () => deps.events.buffered > 0 && deps.events.buffered <= 100, 10_000, 'rows kept in the buffer');
  await trx.rollback();
  await waitFor(
    async () => Number((await deps.db('events').where({ tenant_id: shop.id }).count<{ count: string }[]>('* as count'))[0].count) === accepted.length,
    20_000,
    'every accepted event stored',
  );
  const stored = (await deps.db('events').where({ tenant_id: shop.id }).pluck('client_event_id')) as string[];
  t.same(stored.sort(), [...accepted].sort(), 'exactly the events answered 202');
  const after = await send(views(5000, 5));
  t.equal(after.status, 202, 'taken again once the buffer drained');
});
