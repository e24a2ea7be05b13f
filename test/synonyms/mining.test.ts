import t from 'tap';
import { Redis } from 'ioredis';
import { setup } from '../helpers/harness.js';
import { startTestWorkers, eventually } from '../helpers/workers.js';
import { newId } from '../../shared/platform/ids.js';
import type { EventRow } from '../../shared/events/events.repo.js';
import type { SearchLogRow } from '../../shared/search/search-log.repo.js';

// Stages wait 300 ms before running, so a test can see the job row running and join it.
const h = await setup({ FAULT_STAGE_DELAY_MS: '300' });
const workers = await startTestWorkers(h.config);
const sub = new Redis(h.config.redisUrl);
const notices: string[] = [];
await sub.subscribe(`${h.config.queuePrefix}:synonyms-changed`);
sub.on('message', (_channel, message) => notices.push(message));
t.teardown(async () => {
  sub.disconnect();
  await workers.close();
  await h.close();
});
const deps = h.api.deps;
const a = await h.tenant('mining store');
const b = await h.tenant('quiet store');

let clock = Date.now() - 3 * 3600_000;
/** Writes one session: each step [query, total, clicked products], 30 s apart. */
async function session(tenantId: string, name: string, steps: Array<[string, number, string[]]>) {
  const searches: SearchLogRow[] = [];
  const events: EventRow[] = [];
  clock += 60_000;
  steps.forEach(([query, total, clicks], i) => {
    const at = new Date(clock + i * 30_000);
    const id = newId('srch');
    searches.push({
      id,
      tenant_id: tenantId,
      session: name,
      query,
      normalized: query,
      lang: 'en',
      filters: {},
      sort: 'relevance',
      total,
      page: 1,
      took_ms: 3,
      zero_result: total === 0,
      created_at: at,
    });
    clicks.forEach((product, position) =>
      events.push({
        id: newId('evt'),
        tenant_id: tenantId,
        client_event_id: null,
        type: 'search_click',
        session: name,
        search_id: id,
        product_id: product,
        position: position + 1,
        quantity: null,
        value: null,
        currency: null,
        occurred_at: new Date(at.getTime() + 5000).toISOString(),
      }),
    );
  });
  await deps.repos.searchLog.insertMany(searches);
  await deps.repos.events.insertMany(events);
  return searches.map((s) => s.id);
}

for (let i = 1; i <= 4; i++)
  await session(a.id, `labtop-${i}`, [
    ['labtop', 0, []],
    ['laptop', 12, [i % 2 ? 'lap-1' : 'lap-2']],
  ]);
for (let i = 1; i <= 2; i++)
  await session(a.id, `nootbook-${i}`, [
    ['nootbook', 0, []],
    ['notebook', 8, ['nb-1']],
  ]);
for (let i = 1; i <= 3; i++) {
  await session(a.id, `mobile-${i}`, [['mobile', 20, ['ph-1', 'ph-2']]]);
  await session(a.id, `smartphone-${i}`, [['smartphone', 20, [i === 2 ? 'ph-2' : 'ph-1']]]);
}
// Tenant b's clicks point at tenant a's searches: never attributed across tenants.
const foreign = await session(a.id, 'foreign', [['tablet', 3, []]]);
for (let i = 1; i <= 3; i++) {
  await deps.repos.events.insertMany([
    {
      id: newId('evt'),
      tenant_id: b.id,
      client_event_id: null,
      type: 'search_click',
      session: `b-${i}`,
      search_id: foreign[0],
      product_id: 'ph-1',
      position: 1,
      quantity: null,
      value: null,
      currency: null,
      occurred_at: new Date().toISOString(),
    },
  ]);
}
await session(b.id, 'b-search', [['mobile', 4, []]]);

const get = (path: string, key = a.key) => h.api.call('GET', path, { key });
const post = (path: string, body?: unknown, key = a.key) => h.api.call('POST', path, { key, body });
const suggestions = async (status = 'pending', key = a.key) => (await get(`/v1/synonyms/suggestions?status=${status}`, key)).body;

/** Starts a run through the API and waits for its job row to succeed; returns the statuses seen while polling. */
async function mine(key = a.key) {
  const res = await post('/v1/synonyms/suggestions/mine', {}, key);
  if (res.status !== 202) throw new Error(`mine: ${res.status} ${JSON.stringify(res.body)}`);
  const seen = [res.body.job.status];
  const job = await eventually(async () => {
    const row = (await get(`/v1/jobs/${res.body.job.id}`, key)).body;
    if (seen[seen.length - 1] !== row.status) seen.push(row.status);
    return ['succeeded', 'failed', 'canceled'].includes(row.status) && row;
  });
  return { first: res.body, job, seen };
}

t.test('a run proposes labtop => laptop and mobile = smartphone with evidence; thin pairs are ignored', async (t) => {
  const res = await post('/v1/synonyms/suggestions/mine');
  t.equal(res.status, 202);
  t.match(res.body, { accepted: true, job: { kind: 'synonym_mining', status: 'queued', progress: 0 } });
  const again = await post('/v1/synonyms/suggestions/mine');
  t.equal(again.body.job.id, res.body.job.id, 'a second request joins the live run');
  const seen: string[] = ['queued'];
  const job = await eventually(async () => {
    const row = (await get(`/v1/jobs/${res.body.job.id}`)).body;
    if (seen[seen.length - 1] !== row.status) seen.push(row.status);
    return row.status === 'succeeded' && row;
  });
  t.same(seen, ['queued', 'running', 'succeeded']);
  t.equal(job.progress, 1);
  t.match(job.result, { candidates: 2, created: 2, refreshed: 0, covered: 0 });

  const page = await suggestions();
  t.equal(page.total, 2);
  const ow = page.data.find((s: any) => s.kind === 'one_way');
  const eq = page.data.find((s: any) => s.kind === 'equivalent');
  t.match(ow, { input: 'labtop', outputs: ['laptop'], status: 'pending', decided_at: null, synonym_id: null });
  t.match(ow.evidence, { queries: ['labtop', 'laptop'], sessions: 4, searches: 8, clicks: 4, zero_result_sessions: 4 });
  t.same(ow.evidence.example_products.sort(), ['lap-1', 'lap-2']);
  t.ok(ow.score > 0 && ow.score <= 1);
  t.match(eq, { terms: ['mobile', 'smartphone'], status: 'pending' });
  t.match(eq.evidence, { sessions: 6, sessions_by_query: { mobile: 3, smartphone: 3 }, shared_products: 2 });
  t.notOk(
    page.data.some((s: any) => JSON.stringify(s).includes('nootbook')),
    'two sessions are too thin',
  );
  t.same((await suggestions('pending', b.key)).data, [], 'the other tenant sees none');
});

t.test('pages are newest first with a cursor; bad input is refused', async (t) => {
  const first = (await get('/v1/synonyms/suggestions?limit=1')).body;
  t.equal(first.data.length, 1);
  t.type(first.next_cursor, 'string');
  const second = (await get(`/v1/synonyms/suggestions?limit=1&cursor=${first.next_cursor}`)).body;
  t.equal(second.data.length, 1);
  t.not(second.data[0].id, first.data[0].id);
  t.equal(second.next_cursor, null);
  t.equal((await get('/v1/synonyms/suggestions?status=maybe')).status, 400);
  t.equal((await get('/v1/synonyms/suggestions?cursor=nope')).body.error.code, 'invalid_cursor');
});

t.test('a re-run refreshes pending suggestions in place', async (t) => {
  await session(a.id, 'labtop-5', [
    ['labtop', 0, []],
    ['laptop', 12, ['lap-1']],
  ]);
  const before = (await suggestions()).data.find((s: any) => s.kind === 'one_way');
  const { job } = await mine();
  t.match(job.result, { created: 0, refreshed: 2 });
  const after = (await suggestions()).data.find((s: any) => s.kind === 'one_way');
  t.equal(after.id, before.id);
  t.equal(after.evidence.sessions, 5);
  t.equal(after.created_at, before.created_at);
});

t.test('approve creates a suggested rule and announces it; reject sticks; deciding twice is 409', async (t) => {
  const { data } = await suggestions();
  const ow = data.find((s: any) => s.kind === 'one_way');
  const eq = data.find((s: any) => s.kind === 'equivalent');
  const readOnly = (await post('/v1/keys', { name: 'reader', kind: 'secret', scopes: ['synonyms:read'] })).body.key;
  t.equal((await post(`/v1/synonyms/suggestions/${ow.id}/decision`, { decision: 'approve' }, readOnly)).body.error.code, 'scope_missing');
  t.equal((await post(`/v1/synonyms/suggestions/${ow.id}/decision`, { decision: 'approve' }, b.key)).status, 404, 'another tenant cannot decide it');
  t.equal((await post(`/v1/synonyms/suggestions/${ow.id}/decision`, { decision: 'maybe' })).status, 400);

  notices.length = 0;
  const approved = await post(`/v1/synonyms/suggestions/${ow.id}/decision`, { decision: 'approve' });
  t.equal(approved.status, 200);
  t.match(approved.body, { id: ow.id, status: 'approved', synonym_id: /^syn_/ });
  t.type(approved.body.decided_at, 'string');
  const rule = await deps.db('synonyms').where({ id: approved.body.synonym_id }).first();
  t.match(rule, { tenant_id: a.id, kind: 'one_way', input: 'labtop', outputs: ['laptop'], set_key: 'default', source: 'suggested', enabled: true });
  await eventually(async () => notices.includes(a.id), 10_000);
  t.ok(notices.includes(a.id), 'synonyms-changed carries the tenant id');

  const rejected = await post(`/v1/synonyms/suggestions/${eq.id}/decision`, { decision: 'reject' });
  t.match(rejected.body, { status: 'rejected', synonym_id: null });
  const twice = await post(`/v1/synonyms/suggestions/${eq.id}/decision`, { decision: 'approve' });
  t.equal(twice.status, 409);
  t.equal(twice.body.error.code, 'suggestion_decided');
  t.equal((await post(`/v1/synonyms/suggestions/${ow.id}/decision`, { decision: 'reject' })).body.error.code, 'suggestion_decided');
  t.equal((await post('/v1/synonyms/suggestions/sug_nothing/decision', { decision: 'reject' })).status, 404);
  t.equal((await deps.db('synonyms').where({ tenant_id: a.id })).length, 1, 'reject adds no rule');
});

t.test('the next run proposes neither the approved nor the rejected pair again', async (t) => {
  const { job, seen } = await mine();
  t.same(seen, ['queued', 'running', 'succeeded']);
  t.match(job.result, { candidates: 2, covered: 1, created: 0, refreshed: 0, already_decided: 1 });
  t.same((await suggestions()).data, []);
  const rejected = (await suggestions('rejected')).data;
  t.equal(rejected.length, 1);
  t.same(rejected[0].terms, ['mobile', 'smartphone']);
  t.equal((await suggestions('approved')).data.length, 1);
});

t.test('the other tenant mines nothing from clicks on foreign searches', async (t) => {
  const { job } = await mine(b.key);
  t.match(job.result, { clicks: 0, candidates: 0 });
});
