import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS, MAPPING } from '../search/fixtures.js';
import { assignVariant } from '../../shared/experiments/index.js';
import { waitFor } from '../helpers/wait.js';

const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();
await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: MAPPING } });
await loadProducts(h, key, tenantId, PRODUCTS);
const call = (method: string, path: string, body?: unknown, k = key) => h.api.call(method, path, { key: k, body });

const ruleRes = await call('POST', '/v1/rules', {
  name: 'variant b only',
  enabled: false,
  conditions: { patterns: [{ match: 'is', text: 'laptop' }] },
  consequences: { banners: [{ html: 'B' }] },
});
const ruleId: string = ruleRes.body.id;
const twoWay = (name: string) => ({
  name,
  variants: [
    { key: 'control', traffic_percent: 50 },
    { key: 'b', traffic_percent: 50, rule_ids: [ruleId], ranking: { in_stock_first: false } },
  ],
});

t.test('create and validate: 2 to 5 variants, split of 100, unique keys, known rules', async (t) => {
  const ok = await call('POST', '/v1/experiments', twoWay('first'));
  t.equal(ok.status, 201);
  t.match(ok.body, { id: /^exp_/, status: 'draft', primary_metric: 'conversion_rate', min_sample: 1000, started_at: null });
  t.same(ok.body.variants[0], { key: 'control', traffic_percent: 50, ranking: null, rule_ids: [] });
  const bad = async (body: unknown) => (await call('POST', '/v1/experiments', body)).body.error;
  t.match(await bad({ name: 'x', variants: [{ key: 'a', traffic_percent: 100 }] }), {
    code: 'validation_failed',
    details: [{ field: 'variants', code: 'too_short' }],
  });
  t.match(await bad({ name: 'x', variants: Array.from({ length: 6 }, (_, i) => ({ key: `v${i}`, traffic_percent: 100 / 6 })) }), {
    details: [{ field: 'variants', code: 'too_long' }],
  });
  t.match(
    await bad({
      name: 'x',
      variants: [
        { key: 'a', traffic_percent: 60 },
        { key: 'b', traffic_percent: 30 },
      ],
    }),
    { details: [{ field: 'variants', code: 'invalid_split' }] },
  );
  t.match(
    await bad({
      name: 'x',
      variants: [
        { key: 'a', traffic_percent: 50 },
        { key: 'a', traffic_percent: 50 },
      ],
    }),
    { details: [{ field: 'variants.1.key', code: 'duplicate' }] },
  );
  t.match(
    await bad({
      name: 'x',
      variants: [
        { key: 'a', traffic_percent: 50 },
        { key: 'b', traffic_percent: 50, rule_ids: ['rule_nope'] },
      ],
    }),
    { details: [{ field: 'variants.1.rule_ids.0', code: 'unknown_rule' }] },
  );
  t.match(
    await bad({
      name: 'x',
      variants: [
        { key: 'a', traffic_percent: 50 },
        { key: 'b', traffic_percent: 50, ranking: { nope: true } },
      ],
    }),
    { details: [{ field: 'variants.1.ranking.nope', code: 'unknown_field' }] },
  );
  const list = await call('GET', '/v1/experiments?status=draft');
  t.same(
    list.body.data.map((e: { name: string }) => e.name),
    ['first'],
  );
});

t.test('states: one running per store, drafts only change, running ones cannot be deleted', async (t) => {
  const a = (await call('POST', '/v1/experiments', twoWay('a'))).body;
  const b = (await call('POST', '/v1/experiments', twoWay('b'))).body;
  t.equal((await call('POST', `/v1/experiments/${a.id}/stop`)).body.error.code, 'experiment_not_running');
  const started = await call('POST', `/v1/experiments/${a.id}/start`);
  t.match(started.body, { status: 'running', started_at: String });
  t.equal((await call('POST', `/v1/experiments/${a.id}/start`)).body.status, 'running', 'starting again is a no-op');
  t.match((await call('POST', `/v1/experiments/${b.id}/start`)).body.error, { code: 'experiment_already_running', details: { running_id: a.id } });
  t.equal((await call('PUT', `/v1/experiments/${a.id}`, twoWay('a2'))).body.error.code, 'experiment_not_draft');
  t.equal((await call('DELETE', `/v1/experiments/${a.id}`)).body.error.code, 'experiment_running');
  t.equal((await call('POST', `/v1/experiments/${a.id}/stop`)).body.status, 'stopped');
  t.equal((await call('PUT', `/v1/experiments/${b.id}`, twoWay('b2'))).body.name, 'b2', 'a draft changes');
  t.same((await call('DELETE', `/v1/experiments/${a.id}`)).body, { deleted: true, id: a.id });
  t.equal((await call('GET', `/v1/experiments/${a.id}`)).status, 404);
  const other = await h.tenant('Other');
  t.equal((await call('GET', `/v1/experiments/${b.id}`, undefined, other.key)).status, 404, 'another store cannot see it');
});

t.test('start and stop sent several times at once: each answers 200 with the experiment (again is a no-op)', async (t) => {
  const exp = (await call('POST', '/v1/experiments', twoWay('parallel'))).body;
  for (const [verb, status] of [
    ['start', 'running'],
    ['stop', 'stopped'],
    ['start', 'running'],
    ['stop', 'stopped'],
  ] as const) {
    const replies = await Promise.all(Array.from({ length: 6 }, () => call('POST', `/v1/experiments/${exp.id}/${verb}`)));
    t.same(
      replies.map((r) => [r.status, r.body.status ?? r.body.error?.code]),
      Array.from({ length: 6 }, () => [200, status]),
      `6 parallel ${verb}: every one 200 ${status}`,
    );
    t.equal(new Set(replies.map((r) => r.body.updated_at)).size, 1, `${verb}: one transition, the others read it back`);
  }
  t.equal((await call('GET', `/v1/experiments/${exp.id}`)).body.status, 'stopped');
});

t.test('DELETE sent several times at once (a retry beside the first): one deletes, the others answer 404, none claims it runs', async (t) => {
  for (const stopped of [false, true]) {
    const exp = (await call('POST', '/v1/experiments', twoWay(stopped ? 'parallel delete, stopped' : 'parallel delete'))).body;
    if (stopped) {
      await call('POST', `/v1/experiments/${exp.id}/start`);
      await call('POST', `/v1/experiments/${exp.id}/stop`);
    }
    const replies = await Promise.all(Array.from({ length: 8 }, () => call('DELETE', `/v1/experiments/${exp.id}`)));
    const codes = replies.map((r) => (r.status === 200 ? 'deleted' : `${r.status} ${r.body.error?.code}`)).sort();
    t.same(
      codes,
      ['404 not_found', '404 not_found', '404 not_found', '404 not_found', '404 not_found', '404 not_found', '404 not_found', 'deleted'],
      `${stopped ? 'stopped' : 'draft'}: ${codes.join(', ')}`,
    );
  }
});

t.test('PUT of a draft sent beside its DELETE: each PUT answers 200 (before) or 404 (after), none says it is no longer a draft', async (t) => {
  const answers = new Map<string, number>();
  for (let round = 0; round < 10; round++) {
    const exp = (await call('POST', '/v1/experiments', twoWay('put beside delete'))).body;
    const [deleted, ...puts] = await Promise.all([
      call('DELETE', `/v1/experiments/${exp.id}`),
      ...Array.from({ length: 4 }, () => call('PUT', `/v1/experiments/${exp.id}`, twoWay('renamed'))),
    ]);
    t.equal(deleted.status, 200);
    for (const r of puts) {
      const answer = r.status === 200 ? '200' : `${r.status} ${r.body.error?.code}`;
      answers.set(answer, (answers.get(answer) ?? 0) + 1);
    }
  }
  t.same(
    [...answers.keys()].filter((a) => a !== '200' && a !== '404 not_found'),
    [],
    `PUT answers: ${JSON.stringify(Object.fromEntries(answers))}`,
  );
});

t.test("searches: sticky variant per session in the response and the log; the variant's rules and ranking; no session, no experiment", async (t) => {
  const exp = (await call('POST', '/v1/experiments', twoWay('live'))).body;
  await call('POST', `/v1/experiments/${exp.id}/start`);
  const sessions = Array.from({ length: 40 }, (_, i) => `shopper-${i}`);
  const inB = sessions.filter((s) => assignVariant(exp.id, s, exp.variants as Array<{ key: string; traffic_percent: number }>).key === 'b');
  const inA = sessions.filter((s) => assignVariant(exp.id, s, exp.variants as Array<{ key: string; traffic_percent: number }>).key === 'control');
  t.ok(inA.length && inB.length);
  const api2 = await h.startApi();
  t.teardown(() => api2.close());
  for (const [session, want] of [
    [inA[0], 'control'],
    [inB[0], 'b'],
  ] as const) {
    for (const api of [h.api, api2, h.api]) {
      const res = await api.call('GET', `/v1/search?q=laptop&session=${session}`, { key });
      t.same(res.body.experiment, { experiment_id: exp.id, variant: want }, `${session} in ${want}`);
      t.same(
        res.body.banners.map((b: { html: string }) => b.html),
        want === 'b' ? ['B'] : [],
        "the variant's rule set (its cached answer is its own)",
      );
    }
  }
  const laptopsA = (await call('GET', `/v1/search?filter[category]=laptops&sort=price_desc&session=${inA[0]}`)).body.ids;
  const laptopsB = (await call('GET', `/v1/search?filter[category]=laptops&sort=price_desc&session=${inB[0]}`)).body.ids;
  t.same(laptopsA, ['lap1', 'lap2', 'lap3'], 'control: in-stock first');
  t.same(laptopsB, ['lap1', 'lap3', 'lap2'], 'b: its ranking override (in_stock_first false)');
  const anon = await call('GET', '/v1/search?q=laptop');
  t.equal(anon.body.experiment, null);
  t.same(anon.body.banners, []);
  await h.api.deps.searchLog.flush();
  await api2.deps.searchLog.flush();
  const rows = await h.api.deps.db('search_log').where({ tenant_id: tenantId, session: inB[0] }).select('experiment_id', 'variant');
  t.ok(rows.length >= 3);
  t.ok(
    rows.every((r) => r.experiment_id === exp.id && r.variant === 'b'),
    'logged with the experiment and variant',
  );
  await call('POST', `/v1/experiments/${exp.id}/stop`);
  const out = await waitFor(async () => (await api2.call('GET', `/v1/search?q=laptop&session=${inB[0]}`, { key })).body.experiment === null);
  t.ok(out, 'stopped: out of the experiment on every process (notice)');
});
