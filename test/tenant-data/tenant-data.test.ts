import t from 'tap';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupWithWorkers, eventually } from '../helpers/workers.js';
import { catalogExportJob } from '../../shared/tenant-data/index.js';

const exportDir = mkdtempSync(join(tmpdir(), 'pss-exports-'));
t.teardown(() => rmSync(exportDir, { recursive: true, force: true }));
const { h } = await setupWithWorkers({ EXPORT_DIR: exportDir, WEBHOOK_ALLOW_PRIVATE: 'true' });
const db = h.api.deps.db;
const redis = h.api.deps.redis;
const prefix = h.config.queuePrefix;

/** Sends a store the things a store sends: products, synonyms, a rule, glossary, events, searches, a receiver; and a queued job. */
async function seed(name: string, n: number) {
  const s = await h.tenant(name);
  const call = async (method: string, path: string, body: unknown, ok = [200, 201, 202]) => {
    const res = await h.api.call(method, path, { key: s.key, body });
    if (!ok.includes(res.status)) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const ids = Array.from({ length: n }, (_, i) => `${name}-p${i}`);
  await call('POST', '/v1/products/batch', { upsert: ids.map((id, i) => ({ id, name: { en: `${name} lamp ${i}` }, price: 5 + i, currency: 'USD' })) });
  await call('POST', '/v1/synonyms', { kind: 'equivalent', terms: [`${name}tv`, 'television'] });
  await call('POST', '/v1/synonyms', { kind: 'one_way', input: `${name}phone`, outputs: ['mobile'] });
  await call('POST', '/v1/rules', {
    name: `${name} rule`,
    conditions: { patterns: [{ match: 'is', text: 'lamp' }] },
    consequences: { banners: [{ html: name }] },
  });
  await call('POST', '/v1/translate/glossary', { source_locale: 'en', target_locale: 'ar', source_term: `${name} resistant`, target_term: 'مقاوم' });
  await call('POST', '/v1/events', { events: [{ type: 'search_click', session: `${name}-s`, search_id: 'srch_abc', product_id: ids[0], position: 1 }] });
  await call('POST', '/v1/webhooks', { url: 'http://127.0.0.1:9/x', kinds: ['job.failed'] });
  await eventually(async () => (await h.api.deps.repos.products.countUnindexed(s.id)) === 0, 20_000);
  for (let i = 0; i < 3; i++) await call('GET', `/v1/search?q=lamp&page=${i + 1}`, undefined);
  await h.api.deps.events.flush();
  await h.api.deps.searchLog.flush();
  await h.api.deps.usage.flush();
  // Work queued for later, carrying the store's id.
  await h.api.deps.queues.enqueue(catalogExportJob, { tenantId: s.id, jobRowId: `job_later_${name}` }, { delayMs: 3_600_000 });
  return { ...s, ids };
}
const a = await seed('alpha', 40);
const b = await seed('beta', 25);

const waitJob = (key: string, id: string) =>
  eventually(async () => {
    const job = (await h.api.call('GET', `/v1/jobs/${id}`, { key })).body;
    return ['succeeded', 'failed', 'canceled'].includes(job.status) ? job : null;
  }, 30_000);
const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
async function download(url: string): Promise<string> {
  const res = await fetch(`${h.api.url}${url}`);
  if (res.status !== 200) throw new Error(`download: ${res.status}`);
  const dir = mkdtempSync(join(exportDir, 'x-'));
  writeFileSync(join(dir, 'a.tar.gz'), Buffer.from(await res.arrayBuffer()));
  execFileSync('tar', ['-xzf', 'a.tar.gz'], { cwd: dir });
  return dir;
}
/** Every table with a tenant column, from information_schema, and the store's rows in each. */
async function rowsPerTable(tenantId: string): Promise<Record<string, number>> {
  const { rows } = await db.raw(`SELECT table_name FROM information_schema.columns WHERE column_name = 'tenant_id' AND table_schema = current_schema()
    AND table_name IN (SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE')`);
  const out: Record<string, number> = {};
  for (const { table_name: table } of rows) out[table] = Number((await db(table).where({ tenant_id: tenantId }).count({ n: '*' }))[0].n);
  out.tenants = Number((await db('tenants').where({ id: tenantId }).count({ n: '*' }))[0].n);
  return out;
}

t.test('data_export: admin only, confirmed; the archive holds everything the store sent', async (t) => {
  t.equal((await h.api.call('POST', '/v1/data/export', { key: a.key, body: {} })).status, 400, 'needs confirm: true');
  const reader = await h.api.call('POST', '/v1/keys', { key: a.key, body: { name: 'r', kind: 'secret', scopes: ['catalog:read', 'jobs'] } });
  t.equal((await h.api.call('POST', '/v1/data/export', { key: reader.body.key, body: { confirm: true } })).status, 403);
  const started = await h.api.call('POST', '/v1/data/export', { key: a.key, body: { confirm: true } });
  t.equal(started.status, 202);
  t.equal(started.body.job.kind, 'data_export');
  const job = await waitJob(a.key, started.body.job.id);
  t.equal(job.status, 'succeeded', job.error ?? '');
  t.match(job.result.download_url, /^\/v1\/data\/exports\/exp_\S+\/download\?token=/);
  // The token is never stored readable: the jobs row (and the queue's copy) holds the link sealed; GET /v1/jobs opens it.
  const stored = await db('jobs').where({ id: started.body.job.id }).first();
  t.notMatch(JSON.stringify(stored.result), /token=/, 'no readable token in the jobs table');
  t.type(stored.result.download_url.sealed, 'string', 'the link is sealed at rest');
  t.ok(new Date(job.result.expires_at).getTime() > Date.now() + 23 * 3600_000, 'the link lives EXPORT_LINK_TTL_HOURS');

  const dir = await download(job.result.download_url);
  const files = readdirSync(dir);
  for (const f of [
    'manifest.json',
    'products.jsonl',
    'synonyms.jsonl',
    'merch_rules.jsonl',
    'translation_glossary.jsonl',
    'events.jsonl',
    'search_log.jsonl',
    'usage.json',
    'webhook_receivers.jsonl',
    'tenants.jsonl',
  ]) {
    t.ok(files.includes(f), `${f} in the archive`);
  }
  t.notOk(files.includes('api_keys.jsonl'), 'no credentials');
  const store = await db('tenants').where({ id: a.id }).first();
  t.same(
    lines(join(dir, 'tenants.jsonl')).map((r) => [r.id, r.name, r.locales, r.default_locale, r.settings]),
    [[a.id, store.name, store.locales, store.default_locale, store.settings]],
    "the store's own record (name, locales, settings), and no other store's",
  );
  const products = lines(join(dir, 'products.jsonl'));
  t.same(products.map((p) => p.id).sort(), [...a.ids].sort(), 'every product, none of another store');
  t.ok(products.every((p) => p.tenant_id === a.id));
  t.same(
    lines(join(dir, 'synonyms.jsonl'))
      .map((s) => s.input ?? s.terms?.[0])
      .filter(Boolean).length,
    2,
  );
  t.equal(lines(join(dir, 'merch_rules.jsonl'))[0].name, 'alpha rule');
  t.equal(lines(join(dir, 'translation_glossary.jsonl'))[0].source_term, 'alpha resistant');
  t.equal(lines(join(dir, 'events.jsonl'))[0].product_id, 'alpha-p0');
  t.equal(lines(join(dir, 'search_log.jsonl')).length, 3);
  const receivers = lines(join(dir, 'webhook_receivers.jsonl'));
  t.equal(receivers.length, 1);
  t.notOk('secret' in receivers[0], 'receiver secrets stay out');
  const usage = JSON.parse(readFileSync(join(dir, 'usage.json'), 'utf8'));
  const month = new Date().toISOString().slice(0, 7);
  const counted = Number(await redis.get(`${prefix}:usage:search:${a.id}:${month}`));
  t.ok(counted > 0);
  t.equal(usage[`search:${month}`], counted, "the month's search counter, as Redis holds it");
  const manifest = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8'));
  t.equal(manifest.files['products.jsonl'], 40);
  t.ok(manifest.excluded.includes('translation_answers'), "a translation job's transient provider answers are not the store's data");

  const bad = job.result.download_url.replace(/token=.*/, 'token=wrongwrongwrongwrong');
  t.equal((await fetch(`${h.api.url}${bad}`)).status, 404);
  await db('data_exports')
    .where({ id: job.result.export_id })
    .update({ expires_at: db.raw(`now() - interval '1 second'`) });
  const expired = await fetch(`${h.api.url}${job.result.download_url}`);
  t.equal(expired.status, 410);
  t.equal((await expired.json()).error.code, 'link_expired');
});

t.test('export: the catalog as JSON lines', async (t) => {
  const started = await h.api.call('POST', '/v1/products/export', { key: b.key, body: {} });
  t.equal(started.status, 202);
  t.equal(started.body.job.kind, 'export');
  const job = await waitJob(b.key, started.body.job.id);
  t.equal(job.status, 'succeeded', job.error ?? '');
  const dir = await download(job.result.download_url);
  t.same(
    readdirSync(dir).filter((f) => f !== 'a.tar.gz'),
    ['products.jsonl'],
  );
  t.same(
    lines(join(dir, 'products.jsonl'))
      .map((p) => p.id)
      .sort(),
    [...b.ids].sort(),
  );
});

t.test('data_delete: no row of the store left in any table, other stores intact', async (t) => {
  t.equal((await h.api.call('POST', '/v1/data/delete', { key: a.key, body: { confirm: b.id } })).status, 400, "confirmation must be the store's own id");
  t.equal((await h.api.call('POST', '/v1/data/delete', { key: a.key, body: {} })).status, 400);
  const beforeA = await rowsPerTable(a.id);
  const beforeB = await rowsPerTable(b.id);
  t.ok(beforeA.products === 40 && beforeA.search_docs > 0 && beforeA.jobs > 0 && beforeA.api_keys > 0, 'the store had rows to delete');
  const redisBefore = await redis.keys(`${prefix}:*${a.id}*`);
  t.ok(
    redisBefore.some((k) => k.includes(':usage:')),
    'and Redis keys',
  );

  const started = await h.api.call('POST', '/v1/data/delete', { key: a.key, body: { confirm: a.id } });
  t.equal(started.status, 202);
  t.equal(started.body.job.kind, 'data_delete');
  // The store's key, used all through the deletion: once refused, never accepted again (a request in
  // the window reloaded the still-live key and cached it for AUTH_CACHE_TTL_MS, past the deletion).
  const statuses: number[] = [];
  const audit = await eventually(async () => {
    statuses.push((await h.api.call('GET', '/v1/keys', { key: a.key })).status);
    return db('tenant_deletions').where({ deleted_tenant: a.id }).first();
  }, 30_000);
  const refused = statuses.indexOf(401);
  t.ok(refused >= 0, `refused before the deletion ended (${statuses.join(' ')})`);
  t.same(
    statuses.slice(refused).filter((s) => s !== 401),
    [],
    'and never accepted after',
  );
  t.equal((await h.api.call('GET', '/v1/keys', { key: a.key })).status, 401, 'refused once the store is gone');
  t.equal(audit.job_id, started.body.job.id);
  t.match(audit.requested_by, /^secret:key_/);
  t.equal(audit.rows_deleted.products, 40);
  t.ok(audit.other_deleted.queued_jobs >= 1, 'queued jobs removed');

  const afterA = await rowsPerTable(a.id);
  t.same(
    Object.entries(afterA).filter(([, n]) => n > 0),
    [],
    'no row of the store in any table with a tenant column',
  );
  // The other store's vocabulary (search_vocab, suggest_terms, category_profiles) is rebuilt by a
  // debounced worker job that may land during the test: those tables may only have gained rows.
  const afterB = await rowsPerTable(b.id);
  const rebuilt = ['search_vocab', 'suggest_terms', 'category_profiles'];
  const without = (rows: Record<string, number>) => Object.fromEntries(Object.entries(rows).filter(([table]) => !rebuilt.includes(table)));
  t.same(without(afterB), without(beforeB), 'the other store is intact, table by table');
  t.ok(
    rebuilt.every((table) => (afterB[table] ?? 0) >= (beforeB[table] ?? 0)),
    `and its vocabulary kept or rebuilt: ${JSON.stringify([beforeB, afterB].map((r) => rebuilt.map((x) => r[x] ?? 0)))}`,
  );
  // What remains of it in Redis is the deleting job's own queue entry (gone with its retention).
  const left = (await redis.keys(`${prefix}:*${a.id}*`)).filter((k) => !k.includes(`delete-data-${a.id}-`));
  t.same(left, [], 'no Redis key of the store');
  const queued = await h.api.deps.queues.get('tenant-data').getJobs(['delayed']);
  t.same(
    queued.map((j) => j.data.input.tenantId),
    [b.id],
    "its queued jobs are gone, the other store's stay",
  );
  t.equal((await h.api.deps.engine.search({ tenantId: a.id, tokens: ['lamp'], offset: 0, limit: 5 })).total, 0, 'nothing in the engine');
  t.equal((await h.api.deps.engine.search({ tenantId: b.id, tokens: ['lamp'], offset: 0, limit: 5 })).total, 25);
  await eventually(async () => (await h.api.call('GET', '/v1/keys', { key: a.key })).status === 401, 10_000);
  t.pass('its keys no longer authenticate');
  t.equal((await h.api.call('GET', '/v1/search?q=lamp', { key: b.key })).body.total, 25);
  t.same(
    readdirSync(exportDir).filter((d) => d === a.id),
    [],
    'its export files are gone',
  );
});
