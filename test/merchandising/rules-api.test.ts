import t from 'tap';
import { setup } from '../helpers/harness.js';

const h = await setup();
t.teardown(() => h.close());
const { key } = await h.tenant();
const call = (method: string, path: string, body?: unknown, k = key, headers: Record<string, string> = {}) =>
  h.api.call(method, path, { key: k, body, headers });
const base = { name: 'Laptops banner', conditions: { patterns: [{ match: 'is', text: 'laptop' }] }, consequences: { banners: [{ html: '<b>hi</b>' }] } };

t.test('create, read, list with cursor and total, replace, delete', async (t) => {
  const made = await call('POST', '/v1/rules', base);
  t.equal(made.status, 201);
  t.match(made.body, { id: /^rule_/, name: 'Laptops banner', enabled: true, priority: 0, created_at: String, updated_at: String });
  t.same(made.body.consequences, { banners: [{ html: '<b>hi</b>', position: 'top' }], pins: [], hides: [], boosts: [], buries: [] }, 'defaults filled in');
  t.same((await call('GET', `/v1/rules/${made.body.id}`)).body, made.body);
  for (let i = 0; i < 4; i++) await call('POST', '/v1/rules', { ...base, name: `r${i}` });
  const p1 = await call('GET', '/v1/rules?limit=3');
  t.equal(p1.body.data.length, 3);
  t.equal(p1.body.total, 5);
  const p2 = await call('GET', `/v1/rules?limit=3&cursor=${p1.body.next_cursor}`);
  t.same(
    [...p1.body.data, ...p2.body.data].map((r: { name: string }) => r.name),
    ['Laptops banner', 'r0', 'r1', 'r2', 'r3'],
    'oldest first, each once',
  );
  t.equal(p2.body.next_cursor, null);
  t.same(
    (await call('GET', '/v1/rules?q=R2')).body.data.map((r: { name: string }) => r.name),
    ['r2'],
  );
  t.equal((await call('GET', '/v1/rules?q=LAPTOP')).body.data.length, 5, 'q also searches patterns');
  t.equal((await call('GET', '/v1/rules?cursor=nope')).body.error.code, 'invalid_cursor');
  const put = await call('PUT', `/v1/rules/${made.body.id}`, { ...base, priority: 7, enabled: false });
  t.match(put.body, { id: made.body.id, priority: 7, enabled: false });
  t.same(
    (await call('GET', '/v1/rules?enabled=false')).body.data.map((r: { id: string }) => r.id),
    [made.body.id],
  );
  t.same((await call('DELETE', `/v1/rules/${made.body.id}`)).body, { deleted: true, id: made.body.id });
  t.equal((await call('DELETE', `/v1/rules/${made.body.id}`)).status, 404);
  t.equal((await call('PUT', `/v1/rules/${made.body.id}`, base)).status, 404);
});

t.test('bad rules are 400 with field details', async (t) => {
  const bad = async (body: unknown) => (await call('POST', '/v1/rules', body)).body.error;
  t.match(await bad({ ...base, consequences: {} }), { code: 'validation_failed', details: [{ field: 'consequences', code: 'empty' }] });
  t.match(await bad({ ...base, conditions: { active_from: '2024-02-01T00:00:00Z', active_until: '2024-01-01T00:00:00Z' } }), {
    details: [{ field: 'conditions.active_until', code: 'invalid_window' }],
  });
  t.match(
    await bad({
      ...base,
      consequences: {
        pins: [
          { product_id: 'a', position: 1 },
          { product_id: 'b', position: 1 },
        ],
      },
    }),
    { details: [{ field: 'consequences.pins.1.position', code: 'duplicate' }] },
  );
  t.match(await bad({ ...base, conditions: { patterns: [{ match: 'is', text: '!!!' }] } }), {
    details: [{ field: 'conditions.patterns.0.text', code: 'no_words' }],
  });
  t.match(await bad({ ...base, conditions: { patterns: [{ match: 'like', text: 'x' }] } }), {
    code: 'validation_failed',
    details: [{ field: 'conditions.patterns.0.match' }],
  });
  t.match(await bad({ ...base, consequences: { boosts: [{ filters: { nope: ['x'] } }] } }), {
    code: 'unknown_filter',
    details: [{ field: 'consequences.boosts.0.filters.nope', code: 'unknown_filter' }],
  });
  t.match(await bad({ ...base, consequences: { redirect: { url: 'not a url' } } }), {
    code: 'validation_failed',
    details: [{ field: 'consequences.redirect.url' }],
  });
  t.match(await bad({ ...base, extra: 1 }), { details: [{ field: 'extra', code: 'unknown_field' }] });
  t.match(await bad({ ...base, consequences: { banners: [{ position: 'top' }] } }), { details: [{ field: 'consequences.banners.0', code: 'empty' }] });
});

t.test('Idempotency-Key replays a create; scopes guard reads and writes', async (t) => {
  const headers = { 'Idempotency-Key': 'rule-create-0001' };
  const first = await call('POST', '/v1/rules', base, key, headers);
  const again = await call('POST', '/v1/rules', base, key, headers);
  t.equal(again.body.id, first.body.id);
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  const reader = await call('POST', '/v1/keys', { name: 'reader', kind: 'secret', scopes: ['rules:read'] });
  t.equal((await call('GET', '/v1/rules', undefined, reader.body.key)).status, 200);
  t.equal((await call('POST', '/v1/rules', base, reader.body.key)).body.error.code, 'scope_missing');
  const pub = await call('POST', '/v1/keys', { name: 'pub', kind: 'public', allowed_origins: ['https://shop.example'] });
  t.equal((await call('GET', '/v1/rules', undefined, pub.body.key, { origin: 'https://shop.example' })).status, 403);
});

t.test('export, import into another store, import again (no change), replace, all or nothing', async (t) => {
  const exported = await call('GET', '/v1/rules/export');
  t.ok(exported.body.rules.length >= 1);
  const other = await h.tenant('Other');
  const imp = await call('POST', '/v1/rules/import', { rules: exported.body.rules }, other.key);
  t.same(imp.body, { created: exported.body.rules.length, updated: 0, unchanged: 0, deleted: 0 });
  const theirs = await call('GET', '/v1/rules/export', undefined, other.key);
  t.same(
    theirs.body.rules.map((r: { id: string; consequences: unknown }) => [r.id, r.consequences]),
    exported.body.rules.map((r: { id: string; consequences: unknown }) => [r.id, r.consequences]),
    'same ids and content',
  );
  t.same(
    (await call('POST', '/v1/rules/import', theirs.body, other.key)).body,
    { created: 0, updated: 0, unchanged: exported.body.rules.length, deleted: 0 },
    'an export imported again changes nothing',
  );
  const [keep, ...rest] = theirs.body.rules;
  const replaced = await call(
    'POST',
    '/v1/rules/import',
    {
      mode: 'replace',
      rules: [
        { ...keep, priority: 3 },
        { name: 'new', conditions: { patterns: [{ match: 'contains', text: 'tv' }] }, consequences: { hides: ['x'] } },
      ],
    },
    other.key,
  );
  t.same(replaced.body, { created: 1, updated: 1, unchanged: 0, deleted: rest.length });
  t.equal((await call('GET', '/v1/rules', undefined, other.key)).body.total, 2);
  const broken = await call('POST', '/v1/rules/import', { rules: [base, { ...base, consequences: {} }] }, other.key);
  t.match(broken.body.error, { code: 'validation_failed', details: [{ field: 'rules.1.consequences', code: 'empty' }] });
  const dup = await call(
    'POST',
    '/v1/rules/import',
    {
      rules: [
        { ...base, id: 'same' },
        { ...base, id: 'same' },
      ],
    },
    other.key,
  );
  t.match(dup.body.error, { details: [{ field: 'rules.1.id', code: 'duplicate' }] });
  t.equal((await call('GET', '/v1/rules', undefined, other.key)).body.total, 2, 'nothing applied');
  t.equal((await call('GET', `/v1/rules/${keep.id}`)).status, 200, 'the first store keeps its own rule of that id');
});

t.test('import: a created_at Postgres cannot store is a 400 naming it; one in range is kept', async (t) => {
  const store = await h.tenant('Dates');
  const imp = (created_at: string) => call('POST', '/v1/rules/import', { rules: [base, { ...base, name: 'dated', created_at }] }, store.key);
  for (const [created_at, code] of [
    ['+275760-09-13T00:00:00.000Z', 'invalid_format'],
    ['-000001-01-01T00:00:00Z', 'invalid_format'],
    ['yesterday', 'invalid_format'],
    ['0000-01-01T00:00:00Z', 'out_of_range'],
    ['0001-01-01T00:00:00+01:00', 'out_of_range'],
    ['9999-12-31T23:59:59-23:59', 'out_of_range'],
  ]) {
    const res = await imp(created_at);
    t.equal(res.status, 400, `${created_at}: 400`);
    t.match(res.body.error, { code: 'validation_failed', details: [{ field: 'rules.1.created_at', code }] }, `${created_at}: names the field`);
  }
  t.equal((await call('GET', '/v1/rules', undefined, store.key)).body.total, 0, 'nothing applied');
  t.same((await imp('2001-02-03T04:05:06+01:00')).body, { created: 2, updated: 0, unchanged: 0, deleted: 0 });
  t.same((await imp('0001-01-01T00:00:00Z')).body, { created: 2, updated: 0, unchanged: 0, deleted: 0 }, 'the first instant of year 1 is stored');
  const dated = (await call('GET', '/v1/rules/export', undefined, store.key)).body.rules.filter((r: { name: string }) => r.name === 'dated');
  t.same(
    dated.map((r: { created_at: string }) => r.created_at),
    ['0001-01-01T00:00:00.000Z', '2001-02-03T03:05:06.000Z'],
    'kept (oldest first)',
  );
});

t.test('a rule filter of the wrong shape is refused as the search refuses it (400 invalid_filter)', async (t) => {
  const bad = async (consequences: unknown, conditions: unknown = base.conditions) =>
    (await call('POST', '/v1/rules', { ...base, conditions, consequences })).body.error;
  t.match(await bad({ add_filters: { in_stock: 'maybe' } }), {
    code: 'validation_failed',
    details: [{ field: 'consequences.add_filters.in_stock', code: 'invalid_filter', message: 'in_stock is true or false' }],
  });
  t.match(await bad({ boosts: [{ filters: { price: ['10'] } }] }), {
    code: 'validation_failed',
    details: [{ field: 'consequences.boosts.0.filters.price', code: 'invalid_filter' }],
  });
  t.match(await bad({ buries: [{ filters: { brand: { gte: 1 } } }] }), {
    details: [{ field: 'consequences.buries.0.filters.brand', code: 'invalid_filter' }],
  });
  t.match(await bad({ banners: [{ html: 'x' }] }, { filters: { in_stock: ['yes'] } }), {
    details: [{ field: 'conditions.filters.in_stock', code: 'invalid_filter' }],
  });
  const imported = await call('POST', '/v1/rules/import', { rules: [base, { ...base, consequences: { add_filters: { in_stock: 'maybe' } } }] });
  t.match(imported.body.error, { code: 'validation_failed', details: [{ field: 'rules.1.consequences.add_filters.in_stock', code: 'invalid_filter' }] });
  const good = await call('POST', '/v1/rules', {
    ...base,
    consequences: { add_filters: { in_stock: 'true', price: { lte: 500 } }, boosts: [{ filters: { in_stock: true, brand: ['HP'] } }] },
  });
  t.equal(good.status, 201, 'the shapes search takes are accepted');
  await call('DELETE', `/v1/rules/${good.body.id}`);
});

t.test('import: a repeated id is reported at its own index in the file', async (t) => {
  const dup = await call('POST', '/v1/rules/import', {
    rules: [
      { ...base, name: 'n0' },
      { ...base, name: 'n1' },
      { ...base, id: 'dupe' },
      { ...base, id: 'dupe' },
    ],
  });
  t.equal(dup.status, 400);
  t.match(dup.body.error, { code: 'validation_failed', details: [{ field: 'rules.3.id', code: 'duplicate' }] });
});

t.test('the OpenAPI document lists the rule and experiment endpoints with their scopes', async (t) => {
  const doc = (await h.api.call('GET', '/v1/openapi.json')).body;
  t.equal(doc.paths['/v1/rules'].post['x-scope'], 'rules:write');
  t.ok(doc.paths['/v1/rules'].post.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key'));
  t.equal(doc.paths['/v1/rules/import'].post['x-scope'], 'rules:write');
  t.equal(doc.paths['/v1/experiments/{experiment_id}/results'].get['x-scope'], 'experiments:read');
  t.ok(doc.paths['/v1/experiments'].post.parameters.some((p: { name: string }) => p.name === 'Idempotency-Key'));
});

t.test('a filter named __proto__ is an unknown filter on create, replace and import, not dropped', async (t) => {
  // JSON.parse keeps "__proto__" as an own key, as the API's body parser does; an object literal would set the prototype.
  const sent = (json: string) => ({ ...base, ...JSON.parse(json) });
  const context = sent('{"conditions":{"patterns":[{"match":"is","text":"laptop"}],"filters":{"__proto__":["x"]}}}');
  const made = await call('POST', '/v1/rules', context);
  t.equal(made.status, 400, 'a filter context on __proto__ is refused (it was stored as no context: the rule met every search)');
  t.match(made.body.error, { code: 'unknown_filter', details: [{ field: 'conditions.filters.__proto__', code: 'unknown_filter' }] });
  const add = sent('{"consequences":{"banners":[{"html":"b"}],"add_filters":{"__proto__":"x"}}}');
  const added = await call('POST', '/v1/rules', add);
  t.equal(added.status, 400, 'add_filters.__proto__ is refused, not silently left out');
  t.match(added.body.error, { details: [{ field: 'consequences.add_filters.__proto__', code: 'unknown_filter' }] });
  const boost = sent('{"consequences":{"boosts":[{"filters":{"__proto__":"x","brand":"y"}}]}}');
  t.match((await call('POST', '/v1/rules', boost)).body.error, { details: [{ field: 'consequences.boosts.0.filters.__proto__', code: 'unknown_filter' }] });
  const ok = await call('POST', '/v1/rules', base);
  t.equal(ok.status, 201);
  const put = await call('PUT', `/v1/rules/${ok.body.id}`, context);
  t.equal(put.status, 400, 'replace refuses it too');
  t.match(put.body.error, { details: [{ field: 'conditions.filters.__proto__' }] });
  t.same((await call('GET', `/v1/rules/${ok.body.id}`)).body.conditions, ok.body.conditions, 'the stored rule is unchanged');
  const imported = await call('POST', '/v1/rules/import', { rules: [base, context] });
  t.equal(imported.status, 400, 'an import refuses it, naming the rule');
  t.match(imported.body.error, { details: [{ field: 'rules.1.conditions.filters.__proto__', code: 'unknown_filter' }] });
  await call('DELETE', `/v1/rules/${ok.body.id}`);
});
