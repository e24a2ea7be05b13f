import t from 'tap';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Redis } from 'ioredis';
import { setup } from '../helpers/harness.js';
import { synonymService } from '../../shared/synonyms/service.js';

const h = await setup();
const sub = new Redis(h.config.redisUrl);
const notices: string[] = [];
await sub.subscribe(`${h.config.queuePrefix}:synonyms-changed`);
sub.on('message', (_ch: string, msg: string) => notices.push(msg));
const dir = await mkdtemp(join(tmpdir(), 'synonyms-cli-'));
t.teardown(async () => {
  sub.disconnect();
  await rm(dir, { recursive: true, force: true });
  await h.close();
});
const service = synonymService(h.api.deps);
const a = await h.tenant('A');
const b = await h.tenant('B');
const call = (method: string, path: string, body?: unknown, key = a.key) => h.api.call(method, path, { key, body });
const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
  return check();
};

// Global rules are added the way the operator CLI adds them: the service with scope null.
const tv = await service.create(null, { kind: 'equivalent', terms: ['tv', 'television'] });
const phone = await service.create(null, { kind: 'one_way', input: 'phone', outputs: ['mobile'], conditions: { unless_terms: ['case'] }, locale: 'en' });
const off = await service.create(null, { kind: 'equivalent', terms: ['old', 'vintage'], enabled: false });

t.test("global rules are listed read-only and are not the tenant's own rules", async (t) => {
  const res = await call('GET', '/v1/synonyms/global');
  t.equal(res.status, 200);
  t.same(
    res.body.data.map((r: { id: string }) => r.id),
    [tv.id, phone.id, off.id],
  );
  t.match(res.body.data[1], { kind: 'one_way', input: 'phone', outputs: ['mobile'], conditions: { unless_terms: ['case'] }, source: 'manual' });
  const page = await call('GET', '/v1/synonyms/global?limit=1&q=mobile');
  t.same([page.body.data.map((r: { id: string }) => r.id), page.body.next_cursor], [[phone.id], null]);
  t.same((await call('GET', '/v1/synonyms')).body.data, [], 'not in the tenant list');
  t.equal((await call('GET', `/v1/synonyms/${tv.id}`)).status, 404);
  t.equal((await call('PUT', `/v1/synonyms/${tv.id}`, { kind: 'equivalent', terms: ['a', 'b'] })).status, 404);
  t.equal((await call('DELETE', `/v1/synonyms/${tv.id}`)).status, 404);
  t.equal((await service.create(null, { kind: 'equivalent', terms: ['Television', 'TV'] }).catch((e) => e)).code, 'synonym_duplicate');
});

t.test('a tenant copies a global rule into its own set', async (t) => {
  notices.length = 0;
  const copy = await call('POST', `/v1/synonyms/global/${phone.id}/copy`, {});
  t.equal(copy.status, 201);
  t.match(copy.body, {
    kind: 'one_way',
    input: 'phone',
    outputs: ['mobile'],
    conditions: { unless_terms: ['case'] },
    locale: 'en',
    set_key: 'default',
    enabled: true,
    source: 'global_copy',
  });
  t.not(copy.body.id, phone.id);
  t.same((await call('GET', `/v1/synonyms/${copy.body.id}`)).body, copy.body);
  const again = await call('POST', `/v1/synonyms/global/${phone.id}/copy`);
  t.same([again.status, again.body.error.code, again.body.error.details.existing_id], [409, 'synonym_duplicate', copy.body.id]);
  const sport = await call('POST', `/v1/synonyms/global/${phone.id}/copy`, { set_key: 'sport', enabled: false });
  t.match([sport.status, sport.body], [201, { set_key: 'sport', enabled: false, source: 'global_copy' }]);
  t.equal((await call('POST', '/v1/synonyms/global/syn_missing/copy')).status, 404);
  t.equal((await call('POST', `/v1/synonyms/global/${copy.body.id}/copy`)).status, 404, 'a tenant rule is not a global one');
  t.match((await call('POST', `/v1/synonyms/global/${tv.id}/copy`, { set_key: 'Bad' })).body.error.details, [{ field: 'set_key' }]);
  t.same((await call('GET', '/v1/synonyms', undefined, b.key)).body.data, [], 'only the copying tenant has it');
  t.ok(await waitFor(() => notices.length >= 2));
  t.same(notices, [a.id, a.id]);
});

const cli = promisify(execFile);
const run = (...args: string[]) =>
  cli(process.execPath, ['--import', 'tsx', 'scripts/synonyms-global.ts', ...args], {
    cwd: process.cwd(),
    env: { ...process.env, DATABASE_URL: h.config.databaseUrl, REDIS_URL: h.config.redisUrl, QUEUE_PREFIX: h.config.queuePrefix, LOG_LEVEL: 'silent' },
  });

t.test('operator CLI: add, list, import, export, remove; each write announces "*"', async (t) => {
  notices.length = 0;
  const added = JSON.parse((await run('add', '{"kind":"equivalent","terms":["sofa","couch"]}')).stdout);
  t.match(added, { id: /^syn_/, tenant_id: null, terms: ['sofa', 'couch'] });
  const listed = (await run('list', '--q', 'couch')).stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  t.same(
    listed.map((r) => r.id),
    [added.id],
  );
  const file = join(dir, 'global.txt');
  await writeFile(file, '# platform rules\nsneakers, trainers\nlaptop => notebook\nsofa, couch\nbroken =>\n');
  const imported = JSON.parse((await run('import', file)).stdout);
  t.same(imported, { created: 2, updated: 0, skipped: 1, deleted: 0, errors: ['line 5: outputs: a one_way rule needs at least one output'] });
  t.match((await run('export', '--format', 'solr')).stdout, /\nsneakers, trainers\nlaptop => notebook\n$/);
  t.same(JSON.parse((await run('remove', added.id)).stdout), { deleted: true, id: added.id });
  const failed = await run('remove', added.id).catch((e) => e);
  t.equal(failed.code, 1, 'removing twice fails');
  t.equal((await run('add', '{"kind":"equivalent","terms":["solo"]}').catch((e) => e)).code, 1, 'invalid rule');
  const ids = (await call('GET', '/v1/synonyms/global?limit=200')).body.data.map((r: { input: string | null; terms: string[] }) => r.input ?? r.terms[0]);
  t.same(ids, ['tv', 'phone', 'old', 'sneakers', 'laptop'], "the API sees the CLI's changes");
  t.ok(await waitFor(() => notices.length >= 3));
  t.same(notices, ['*', '*', '*']);
});
