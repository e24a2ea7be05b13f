import t from 'tap';
import { EventWriter } from '../../shared/events/event-writer.js';
import { createLogger } from '../../shared/platform/logger.js';
import type { EventRow } from '../../shared/events/events.repo.js';

const row = (id: string, client: string | null = null, tenant = 't1'): EventRow => ({
  id,
  tenant_id: tenant,
  client_event_id: client,
  type: 'view',
  session: 's',
  search_id: null,
  product_id: 'p',
  position: null,
  quantity: null,
  value: null,
  currency: null,
  occurred_at: new Date().toISOString(),
});

t.test('dedupes client ids in the buffer per tenant, writes in batches of maxRows', async (t) => {
  const batches: string[][] = [];
  const w = new EventWriter(async (rows) => (batches.push(rows.map((r) => r.id)), rows.length), createLogger('silent'), 1000, 2);
  w.push([row('a', 'x'), row('b', 'x'), row('c', 'x', 't2')]);
  w.push([row('d'), row('e')]);
  await w.flush();
  t.same(batches.flat().sort(), ['a', 'c', 'd', 'e']);
  t.ok(batches.every((b) => b.length <= 2));
  w.push([row('f', 'x')]);
  await w.flush();
  t.same(batches.flat().includes('f'), true, 'after a flush the id is left to the database to dedupe');
});

t.test('a failed batch is tried once more, then dropped', async (t) => {
  let calls = 0;
  const written: string[] = [];
  const w = new EventWriter(async (rows) => {
    calls++;
    if (calls <= 3) throw new Error('database down');
    written.push(...rows.map((r) => r.id));
    return rows.length;
  }, createLogger('silent'));
  w.push([row('a')]);
  await w.flush(); // fails, kept
  t.equal(w.buffered, 1);
  await w.flush(); // fails again, dropped
  t.equal(w.buffered, 0);
  w.push([row('b')]);
  await w.flush(); // fails, kept
  await w.stop(); // written
  t.same(written, ['b']);
});

t.test('past maxBuffered new events are dropped', async (t) => {
  const w = new EventWriter(async (rows) => rows.length, createLogger('silent'), 1000, 500, 3);
  t.equal(w.push([row('a'), row('b'), row('c'), row('d')]), 3);
  t.equal(w.buffered, 3);
});
