import t from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupWithWorkers } from '../helpers/workers.js';
import { ensureSchedules } from '../../shared/platform/queue/schedule.js';
import { schedules, PURGE_SCHEDULER_ID } from '../../pipelines/maintenance/index.js';
import { UNCOUNTED_KEPT_DAYS, usageMonth } from '../../shared/translation/index.js';
import { runPurge } from './run-purge.js';

// Retention on a real database, through a real worker: rows an hour inside and an hour outside each
// table's retention, for two stores; exactly the expired ones go, the rows still needed stay.
// Its own EXPORT_DIR: the stage also sweeps export files, never a developer's ./var/exports.
const exportDir = mkdtempSync(join(tmpdir(), 'pss-purge-'));
t.teardown(() => rmSync(exportDir, { recursive: true, force: true }));
const { h, workers } = await setupWithWorkers({ EXPORT_DIR: exportDir });
const { db } = h.api.deps;
const TTL_H = h.config.idempotencyTtlHours;
const ago = (hours: number) => db.raw(`now() - make_interval(secs => ?)`, [hours * 3600]);
const DAY = 24;

/** Rows of one store; the names say whether each must go (`gone`) or stay (`kept`). */
async function seed(tenantId: string) {
  const id = (name: string) => `${tenantId}-${name}`;
  const sessionRow = (name: string, expiresHoursAgo: number, extra: Record<string, unknown> = {}) => ({
    id: id(name),
    tenant_id: tenantId,
    hash: id(name),
    created_by: 'cli',
    created_at: ago(expiresHoursAgo + 12),
    expires_at: ago(expiresHoursAgo),
    ...extra,
  });
  await db('idempotency_keys').insert([
    { tenant_id: tenantId, key: 'gone-done', request_hash: 'h', state: 'done', status_code: 200, created_at: ago(TTL_H + 1), expires_at: ago(1) },
    { tenant_id: tenantId, key: 'kept-done', request_hash: 'h', state: 'done', status_code: 200, created_at: ago(TTL_H - 1), expires_at: ago(-1) },
    // A lapsed claim whose answer may still wait in Redis: kept as long as an answer would be.
    { tenant_id: tenantId, key: 'kept-lapsed', request_hash: 'h', state: 'in_flight', created_at: ago(TTL_H - 1), expires_at: ago(0.1) },
    { tenant_id: tenantId, key: 'gone-lapsed', request_hash: 'h', state: 'in_flight', created_at: ago(TTL_H + 1), expires_at: ago(TTL_H) },
    // A claim still running (its lease renewed), however old the request.
    { tenant_id: tenantId, key: 'kept-live', request_hash: 'h', state: 'in_flight', created_at: ago(TTL_H + 1), expires_at: ago(-1) },
  ]);
  await db('experiments').insert({ id: id('exp'), tenant_id: tenantId, name: 'x', status: 'stopped', variants: JSON.stringify([]) });
  const search = (name: string, hoursAgo: number, experimentId: string | null = null) => ({
    id: id(name),
    tenant_id: tenantId,
    session: 's1',
    query: 'q',
    normalized: 'q',
    lang: 'en',
    total: 1,
    page: 1,
    took_ms: 1,
    zero_result: false,
    experiment_id: experimentId,
    variant: experimentId ? 'a' : null,
    created_at: ago(hoursAgo),
  });
  await db('search_log').insert([
    search('kept-search', 90 * DAY - 1),
    search('gone-search', 90 * DAY + 1),
    // The results of an experiment that still exists read all its searches.
    search('kept-exp-search', 400 * DAY, id('exp')),
    search('gone-deleted-exp-search', 400 * DAY, id('deleted-exp')),
  ]);
  const event = (name: string, hoursAgo: number, searchId: string | null = null) => ({
    id: id(name),
    tenant_id: tenantId,
    type: searchId ? 'search_click' : 'view',
    session: 's1',
    search_id: searchId,
    product_id: 'p1',
    occurred_at: ago(hoursAgo),
  });
  await db('events').insert([
    event('kept-event', 90 * DAY - 1),
    event('gone-event', 90 * DAY + 1),
    event('kept-exp-click', 400 * DAY, id('kept-exp-search')),
    event('gone-click', 400 * DAY, id('gone-search')),
  ]);
  const job = (name: string, status: string, createdHoursAgo: number, finishedHoursAgo: number | null) => ({
    id: id(name),
    tenant_id: tenantId,
    kind: 'reindex',
    status,
    created_at: ago(createdHoursAgo),
    finished_at: finishedHoursAgo === null ? null : ago(finishedHoursAgo),
  });
  await db('jobs').insert([
    job('gone-job', 'succeeded', 31 * DAY, 30 * DAY + 1),
    job('kept-job', 'failed', 40 * DAY, 30 * DAY - 1),
    job('gone-job-unfinished-time', 'canceled', 30 * DAY + 1, null),
    job('kept-running-job', 'running', 100 * DAY, null),
    job('kept-queued-job', 'queued', 100 * DAY, null),
  ]);
  await db('webhook_receivers').insert({
    id: id('rcv'),
    tenant_id: tenantId,
    url: 'https://example.com/hook',
    kinds: ['job.succeeded'],
    secret: JSON.stringify({}),
    secret_last4: 'abcd',
  });
  const delivery = (name: string, status: string, createdHoursAgo: number, finishedHoursAgo: number | null) => ({
    id: id(name),
    tenant_id: tenantId,
    receiver_id: id('rcv'),
    kind: 'job.succeeded',
    payload: JSON.stringify({}),
    status,
    created_at: ago(createdHoursAgo),
    finished_at: finishedHoursAgo === null ? null : ago(finishedHoursAgo),
  });
  await db('webhook_deliveries').insert([
    delivery('gone-delivery', 'delivered', 30 * DAY + 2, 30 * DAY + 1),
    delivery('kept-delivery', 'failed', 31 * DAY, 30 * DAY - 1),
    delivery('kept-pending-delivery', 'pending', 100 * DAY, null),
  ]);
  await db('dashboard_sessions').insert([
    sessionRow('gone-session', 7 * DAY + 1, { revoked_at: ago(8 * DAY) }),
    sessionRow('kept-session', 7 * DAY - 1),
    sessionRow('kept-live-session', -1),
    sessionRow('kept-revoked-session', -1, { revoked_at: ago(1) }),
    // A parent goes after its children (deleting it would cascade to them): both old, both go.
    sessionRow('gone-parent', 9 * DAY),
    // A parent whose child is still kept stays with it.
    sessionRow('kept-parent', 8 * DAY),
  ]);
  await db('dashboard_sessions').insert([
    sessionRow('gone-child', 8 * DAY, { parent_session_id: id('gone-parent') }),
    sessionRow('kept-child', 6 * DAY, { parent_session_id: id('kept-parent') }),
  ]);
  const answer = (name: string, hoursAgo: number, costRecorded: boolean) => ({
    tenant_id: tenantId,
    run_id: 'run1',
    chunk: 0,
    batch_key: name,
    target_locale: 'ar',
    texts: JSON.stringify({}),
    input_tokens: 1,
    output_tokens: 1,
    cost_micros: 1,
    cost_recorded: costRecorded,
    created_at: ago(hoursAgo),
  });
  await db('translation_answers').insert([
    answer('gone-answer', 7 * DAY + 1, true),
    answer('kept-answer', 7 * DAY - 1, true),
    // Its cost is not counted yet and its job may still be retried (the queue keeps a failed job 7 days): money, kept.
    answer('kept-uncounted-answer', 7 * DAY + 1, false),
    // Left uncounted by a job that failed for good: counted into usage, then deleted like the others.
    answer('gone-uncounted-answer', 30 * DAY, false),
  ]);
  // Full syncs: one idle past SYNC_IDLE_DAYS (7) loses its seen set and becomes a tombstone; a
  // tombstone goes 30 days after it expired; an open sync keeps everything.
  const sync = (name: string, lastBatchHoursAgo: number, expiredHoursAgo: number | null = null) => ({
    tenant_id: tenantId,
    sync_id: id(name),
    last_batch_at: ago(lastBatchHoursAgo),
    expired_at: expiredHoursAgo === null ? null : ago(expiredHoursAgo),
  });
  await db('product_syncs').insert([
    sync('kept-open-sync', 7 * DAY - 1),
    sync('kept-idle-sync', 7 * DAY + 1),
    sync('kept-tombstone', 40 * DAY, 30 * DAY - 1),
    sync('gone-tombstone', 40 * DAY, 30 * DAY + 1),
  ]);
  await db('product_sync_items').insert([
    { tenant_id: tenantId, sync_id: id('kept-open-sync'), product_id: id('kept-item') },
    { tenant_id: tenantId, sync_id: id('kept-idle-sync'), product_id: id('gone-item-1') },
    { tenant_id: tenantId, sync_id: id('kept-idle-sync'), product_id: id('gone-item-2') },
    { tenant_id: tenantId, sync_id: id('kept-idle-sync'), product_id: id('gone-item-3') },
  ]);
  // Financial records are never purged.
  await db('usage_daily').insert({ tenant_id: tenantId, day: '2019-01-01', metric: 'search', base: 5 });
  await db('billing_events').insert({ provider: 'mock', event_id: id('evt'), type: 't', tenant_id: tenantId, occurred_at: ago(3000 * DAY), payload: '{}' });
}

const tables: Record<string, string> = {
  idempotency_keys: 'key',
  search_log: 'id',
  events: 'id',
  jobs: 'id',
  webhook_deliveries: 'id',
  dashboard_sessions: 'id',
  translation_answers: 'batch_key',
  product_sync_items: 'product_id',
  product_syncs: 'sync_id',
};

/** What is left of a store, per table, names without the store's prefix. */
async function left(tenantId: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [table, column] of Object.entries(tables)) {
    const names = (await db(table).where({ tenant_id: tenantId }).orderBy(column).pluck(column)) as string[];
    out[table] = names.map((n) => n.replace(`${tenantId}-`, ''));
  }
  return out;
}

const runStage = (run: string) => runPurge(h, run);

t.test('purge-expired deletes exactly the rows past retention, in every store, and nothing on a second run', async (t) => {
  const a = await h.tenant('Store A');
  const b = await h.tenant('Store B');
  await seed(a.id);
  await seed(b.id);
  const before = await left(a.id);
  const expected = Object.fromEntries(Object.entries(before).map(([table, names]) => [table, names.filter((n) => !n.startsWith('gone'))]));
  for (const names of Object.values(before)) t.ok(names.some((n) => n.startsWith('gone')) && names.some((n) => n.startsWith('kept')));

  const first = await runStage('first');
  t.same(await left(a.id), expected, 'store A: only the expired rows went');
  t.same(await left(b.id), expected, 'store B: only the expired rows went');
  const goneEach = Object.fromEntries(Object.entries(before).map(([table, names]) => [table, 2 * names.filter((n) => n.startsWith('gone')).length]));
  t.same(first.returnvalue.deleted, goneEach, 'deleted per table, both stores (several batches of 2)');
  t.equal(first.progress, 1, 'progress reported to the end');
  const expired = await db('product_syncs').where({ tenant_id: a.id }).whereNotNull('expired_at').orderBy('sync_id').pluck('sync_id');
  t.same(expired, [`${a.id}-kept-idle-sync`, `${a.id}-kept-tombstone`], 'the idle sync is now expired, the open one is not');
  t.equal(Number((await db('usage_daily').count({ n: '*' }))[0].n), 2, 'usage rows kept');
  t.equal(Number((await db('billing_events').count({ n: '*' }))[0].n), 2, 'billing events kept');

  const second = await runStage('second');
  t.ok(
    Object.values(second.returnvalue.deleted).every((n) => n === 0),
    'a second run deletes nothing',
  );
  t.same(await left(a.id), expected);
  t.same(await left(b.id), expected);
});

/** An answer a translate-fields job kept and paid for, whose cost was never added to usage. */
const uncounted = (tenantId: string, key: string, hoursAgo: number, micros: number) => ({
  tenant_id: tenantId,
  run_id: 'run-failed',
  chunk: 3,
  batch_key: key,
  target_locale: 'ar',
  texts: JSON.stringify({ 0: 'نص' }),
  input_tokens: 10,
  output_tokens: 20,
  cost_micros: micros,
  cost_recorded: false,
  created_at: ago(hoursAgo),
});
const costs = (tenantId: string) =>
  db('translation_usage_costs').where({ tenant_id: tenantId }).orderBy('month').select('month', 'cost_micros', 'input_tokens', 'output_tokens', 'calls');

t.test("purge-expired counts, once, the cost of answers a failed job left uncounted, in the month they were paid; a retrying job's answers wait", async (t) => {
  const c = await h.tenant('Store C');
  const d = await h.tenant('Store D');
  await db('translation_answers').insert([uncounted(c.id, 'left', 40 * DAY, 1234), uncounted(c.id, 'retrying', 1, 999), uncounted(d.id, 'left', 40 * DAY, 50)]);
  // 40 days back is always another month than this one.
  const paidIn = usageMonth((await db('translation_answers').where({ tenant_id: c.id, batch_key: 'left' }).first()).created_at);
  t.not(paidIn, usageMonth());
  t.same(await costs(c.id), [], 'nothing counted before');

  const first = await runStage('costs-first');
  t.equal(first.returnvalue.costs_counted, 2, "both stores' left answers counted");
  const counted = (micros: number) => [{ month: paidIn, cost_micros: String(micros), input_tokens: '10', output_tokens: '20', calls: 1 }];
  t.same(await costs(c.id), counted(1234), 'store C: its answer, in the month it was paid, once');
  t.same(await costs(d.id), counted(50), 'store D: its own answer only');
  const answers = async (tenantId: string) =>
    db('translation_answers').where({ tenant_id: tenantId }).orderBy('batch_key').select('batch_key', 'cost_recorded');
  t.same(await answers(c.id), [{ batch_key: 'retrying', cost_recorded: false }], "the counted answer deleted; the retrying job's answer left as it was");
  t.same(await answers(d.id), []);

  const second = await runStage('costs-second');
  t.equal(second.returnvalue.costs_counted, 0, 'a second run counts nothing');
  t.same(await costs(c.id), counted(1234), 'store C: still once');
  t.same(await costs(d.id), counted(50));
});

t.test('runs racing each other count a left answer once', async (t) => {
  const e = await h.tenant('Store E');
  await db('translation_answers').insert(Array.from({ length: 30 }, (_, i) => uncounted(e.id, `left-${String(i).padStart(2, '0')}`, 10 * DAY, 100)));
  const repos = [h.api.deps.repos.translationAnswers, workers.deps.repos.translationAnswers];
  const counts = await Promise.all([0, 1, 2, 3].map((i) => repos[i % 2].recordLeftCosts(UNCOUNTED_KEPT_DAYS, 7)));
  t.equal(
    counts.reduce((a, b) => a + b, 0),
    30,
    'each answer counted by exactly one run',
  );
  const [row] = await costs(e.id);
  t.equal(Number(row.cost_micros), 3000);
  t.equal(row.calls, 30);
});

t.test('purge-expired has its own schedule, every PURGE_EVERY_MS', async (t) => {
  await ensureSchedules(h.api.deps.queues, schedules(h.config));
  const queue = h.api.deps.queues.get('maintenance');
  const scheduler = (await queue.getJobSchedulers()).find((s) => s.key === PURGE_SCHEDULER_ID);
  t.equal(scheduler?.name, 'purge-expired');
  t.equal(Number(scheduler?.every), h.config.retention.everyMs);
  for (const s of await queue.getJobSchedulers()) await queue.removeJobScheduler(s.key);
});
