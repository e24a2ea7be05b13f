import t from 'tap';
import type Router from '@koa/router';
import { setup } from '../helpers/harness.js';
import { allRoutes, createApp } from '../../api/app.js';

const h = await setup();
t.teardown(() => h.close());
const res = await h.api.call('GET', '/v1/openapi.json');
const doc = res.body;
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The router's real layers as [OpenAPI path, method] pairs, read from the built app. */
function routerLayers(): Array<[string, string]> {
  const app = createApp(h.api.deps);
  const dispatch = app.middleware.find((m) => (m as { router?: Router }).router) as { router: Router } | undefined;
  if (!dispatch) throw new Error('no router middleware on the app');
  return dispatch.router.stack.flatMap((layer) =>
    layer.methods
      .map((m) => m.toLowerCase())
      .filter((m) => METHODS.includes(m))
      .map((m): [string, string] => [
        String(layer.path)
          .replace(/:(\w+)/g, '{$1}')
          .replace(/\\\*/g, '*'),
        m,
      ]),
  );
}

t.test('serves an OpenAPI 3.1.0 document without a key', async (t) => {
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /application\/json/);
  t.equal(doc.openapi, '3.1.0');
  t.type(doc.info.title, 'string');
  t.ok(doc.components.schemas.Error, 'error schema');
  t.ok(doc.components.securitySchemes.bearer, 'bearer scheme');
});

t.test('every registered route is documented, and nothing else', async (t) => {
  const specs = allRoutes(h.api.deps);
  t.ok(specs.length >= 10);
  for (const r of specs) {
    t.ok(doc.paths[r.path]?.[r.method], `${r.method.toUpperCase()} ${r.path} documented`);
  }
  const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) => Object.keys(ops).map((m) => `${m} ${path}`));
  const declared = new Set(specs.map((r) => `${r.method} ${r.path}`));
  t.same(
    documented.filter((op) => !declared.has(op)),
    [],
    'no undeclared operation documented',
  );

  const layers = routerLayers();
  t.ok(layers.length >= specs.length);
  for (const [path, method] of layers) {
    if (path === '/v1/openapi.json') continue;
    t.ok(doc.paths[path]?.[method], `router layer ${method.toUpperCase()} ${path} documented`);
  }
  const operationIds = documented.map((op) => {
    const [m, p] = op.split(' ');
    return doc.paths[p][m].operationId;
  });
  t.equal(new Set(operationIds).size, operationIds.length, 'operationIds are unique');
});

t.test('POST /v1/keys documents its body and Idempotency-Key', async (t) => {
  const op = doc.paths['/v1/keys'].post;
  const schema = op.requestBody.content['application/json'].schema;
  t.equal(schema.type, 'object');
  t.equal(schema.properties.name.type, 'string');
  t.equal(schema.properties.name.maxLength, 100);
  t.same(schema.properties.kind.enum, ['public', 'secret']);
  t.same([...schema.required].sort(), ['kind', 'name']);
  t.equal(schema.additionalProperties, false, 'unknown fields are refused');
  const idem = op.parameters.find((p: { name: string }) => p.name === 'Idempotency-Key');
  t.match(idem, { in: 'header', required: false });
  t.equal(idem.schema.pattern, '^[A-Za-z0-9_\\-:.]{8,255}$');
  const created = op.responses['201'].content['application/json'].schema;
  t.ok(created.required.includes('key'), 'ApiKeyCreated has key');
  t.equal(op['x-scope'], 'admin');
  t.ok(op.responses.default, 'error response');
});

t.test('Idempotency-Key appears exactly on idempotent routes', async (t) => {
  for (const r of allRoutes(h.api.deps)) {
    const params = (doc.paths[r.path][r.method].parameters ?? []) as Array<{ name: string }>;
    const has = params.some((p) => p.name === 'Idempotency-Key');
    t.equal(has, Boolean(r.idempotent), `${r.method.toUpperCase()} ${r.path}`);
  }
});

t.test('path parameters and rotate limits are documented', async (t) => {
  const rotate = doc.paths['/v1/keys/{key_id}/rotate'].post;
  t.match(rotate.parameters, [{ name: 'key_id', in: 'path', required: true }]);
  const grace = rotate.requestBody.content['application/json'].schema.properties.grace_hours;
  t.equal(grace.minimum, 0);
  t.equal(grace.maximum, 720);
  t.equal(grace.default, 24);
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { parameters?: Array<{ name: string; in: string }> }>>)) {
    const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
    for (const [method, op] of Object.entries(ops)) {
      const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name);
      t.same(pathParams.sort(), [...names].sort(), `${method.toUpperCase()} ${path} path params`);
    }
  }
  const publicOps = Object.values(doc.paths['/healthz'] as Record<string, { security: unknown[] }>);
  t.same(publicOps[0].security, [], 'health needs no key');
});

t.test('POST /v1/products/batch documents its items: ProductIn in upsert, product ids in delete', async (t) => {
  // The route checks each item itself (one bad item fails alone), so its validating schema takes any item; the document still shows what an item is.
  const batch = doc.paths['/v1/products/batch'].post.requestBody.content['application/json'].schema;
  const item = batch.properties.upsert.items;
  t.equal(item.type, 'object', 'an upsert item is an object');
  t.same([...item.required].sort(), ['currency', 'id', 'name', 'price'], 'ProductIn required fields');
  t.equal(item.properties.id.maxLength, 128);
  t.equal(item.properties.brand.anyOf?.[0]?.maxLength ?? item.properties.brand.maxLength, 200);
  t.equal(item.properties.gtin.anyOf?.[0]?.maxLength ?? item.properties.gtin.maxLength, 50);
  t.equal(item.additionalProperties, false, 'unknown product fields are refused (per item)');
  t.match(batch.properties.delete.items, { type: 'string', minLength: 1, maxLength: 128 });
  t.equal(batch.properties.upsert.maxItems, 1000);
  t.equal(batch.properties.delete.maxItems, 1000);
});

t.test('GET /v1/search documents its filter[<name>] parameters', async (t) => {
  // Spec 4.6: "plus filters", sent as filter[brand]=a,b and filter[price][gte]=10; the route reads them by pattern, not as named fields.
  const params = doc.paths['/v1/search'].get.parameters as Array<{ name: string; in: string; style?: string; explode?: boolean; schema: any }>;
  const filter = params.find((p) => p.name === 'filter');
  t.match(filter, { in: 'query', style: 'deepObject', explode: true }, 'one deepObject parameter: filter[<name>]...');
  t.equal(filter?.schema.type, 'object');
  const value = JSON.stringify(filter?.schema.additionalProperties ?? {});
  t.match(value, /gte/, 'a range takes gte');
  t.match(value, /lte/, 'and lte');
  t.match(value, /"string"/, 'a value list is a comma-separated string');
});

t.test("the error statuses the service answers are in each operation's documented responses", async (t) => {
  // Asked of the running service, not of the code: a credential without the scope (403), an id no store has (404), a body too large (413) or not JSON (415).
  const hs = await setup({ BODY_LIMIT_BYTES: '4096' });
  t.teardown(() => hs.close());
  const admin = await hs.tenant();
  const narrow = (await hs.api.call('POST', '/v1/keys', { key: admin.key, body: { name: 'usage only', kind: 'secret', scopes: ['usage'] } })).body.key;
  const documented = (r: { path: string; method: string }, status: number) => Object.keys(doc.paths[r.path][r.method].responses).includes(String(status));
  for (const r of allRoutes(hs.api.deps)) {
    const path = r.path.replace(/\{(\w+)\}/g, 'nothing_here');
    const M = r.method.toUpperCase();
    const withBody = ['post', 'put', 'patch'].includes(r.method);
    const answers: Array<{ status: number; body: any }> = [];
    if (r.auth && r.auth.scope !== 'usage' && !r.path.startsWith('/algolia'))
      answers.push(await hs.api.call(M, path, { key: narrow, body: withBody ? {} : undefined }));
    if (r.params && r.auth && !r.path.startsWith('/algolia')) answers.push(await hs.api.call(M, path, { key: admin.key, body: withBody ? {} : undefined }));
    if (r.body && !r.path.startsWith('/algolia') && !r.path.startsWith('/v1/billing/webhooks')) {
      answers.push(await hs.api.call(M, path, { key: admin.key, body: { pad: 'p'.repeat(8000) } }));
      answers.push(await hs.api.call(M, path, { key: admin.key, rawBody: 'a=1', headers: { 'content-type': 'application/x-www-form-urlencoded' } }));
    }
    for (const a of answers) {
      if (a.status >= 400 && a.status !== 400) t.ok(documented(r, a.status), `${M} ${r.path}: ${a.status} ${a.body?.error?.code} documented`);
    }
  }
});

t.test('a request body is documented as required only when it has required fields (an absent body reads as {})', async (t) => {
  const h2 = await setup();
  t.teardown(() => h2.close());
  const admin = await h2.tenant();
  const reindex = await h2.api.call('POST', '/v1/reindex', { key: admin.key });
  t.equal(reindex.status, 202, 'POST /v1/reindex without a body runs with the defaults');
  t.equal(doc.paths['/v1/reindex'].post.requestBody.required, false);
  t.equal(doc.paths['/v1/keys'].post.requestBody.required, true);
  for (const [path, ops] of Object.entries(doc.paths as Record<string, Record<string, { requestBody?: { required: boolean; content: any } }>>)) {
    for (const [method, op] of Object.entries(ops)) {
      if (!op.requestBody) continue;
      const schema = op.requestBody.content['application/json'].schema;
      t.equal(op.requestBody.required, (schema.required?.length ?? 0) > 0, `${method.toUpperCase()} ${path}`);
    }
  }
});

t.test('response headers and media types the service sends are documented', async (t) => {
  const h3 = await setup();
  t.teardown(() => h3.close());
  const admin = await h3.tenant();
  const headersOf = (path: string, method: string, status: number) =>
    Object.keys(doc.paths[path][method].responses[String(status)].headers ?? {}).map((n) => n.toLowerCase());

  const search = await h3.api.call('GET', '/v1/search?q=dress', { key: admin.key });
  t.equal(search.status, 200);
  for (const name of ['x-service-usage', 'x-search-cache', 'x-request-id']) {
    t.ok(search.headers.get(name), `search answers ${name}`);
    t.ok(headersOf('/v1/search', 'get', 200).includes(name), `GET /v1/search documents ${name}`);
    t.ok(headersOf('/v1/search', 'post', 200).includes(name), `POST /v1/search documents ${name}`);
  }
  const mapping = await h3.api.call('PUT', '/v1/attributes/mapping', { key: admin.key, body: { items: [] } });
  t.equal(mapping.status, 200);
  t.ok(mapping.headers.get('x-job-id'), 'the mapping answers X-Job-Id');
  t.ok(headersOf('/v1/attributes/mapping', 'put', 200).includes('x-job-id'), 'and documents it');

  const body = { kind: 'equivalent', terms: ['sofa', 'couch'] };
  const first = await h3.api.call('POST', '/v1/synonyms', { key: admin.key, body, headers: { 'idempotency-key': 'replay-doc-1' } });
  const again = await h3.api.call('POST', '/v1/synonyms', { key: admin.key, body, headers: { 'idempotency-key': 'replay-doc-1' } });
  t.equal(first.status, 201);
  t.equal(again.headers.get('idempotent-replayed'), 'true');
  t.ok(headersOf('/v1/synonyms', 'post', 201).includes('idempotent-replayed'), 'a replay is documented on Idempotency-Key routes');

  // The download is a gzip stream, not a JSON string; a lapsed link is 410.
  const download = doc.paths['/v1/data/exports/{export_id}/download'].get.responses;
  t.same(Object.keys(download['200'].content), ['application/gzip']);
  t.ok(download['410'], '410 link_expired documented');
});

t.test('billing and usage timestamps are documented as date-time, usage days as date (spec 2.5)', async (t) => {
  const format = (s: any): string | undefined => s.format ?? s.anyOf?.find((x: any) => x.format)?.format;
  const sub = doc.paths['/v1/billing/subscription'].get.responses['200'].content['application/json'].schema;
  for (const f of ['trial_ends_at', 'current_period_start', 'current_period_end']) t.equal(format(sub.properties[f]), 'date-time', `SubscriptionOut.${f}`);
  t.equal(format(sub.properties.addons.additionalProperties.properties.period_end), 'date-time', 'AddonBalance.period_end');
  const invoice = doc.paths['/v1/billing/invoices'].get.responses['200'].content['application/json'].schema.items;
  for (const f of ['issued_at', 'paid_at']) t.equal(format(invoice.properties[f]), 'date-time', `InvoiceOut.${f}`);
  const usage = doc.paths['/v1/usage'].get.responses['200'].content['application/json'].schema;
  for (const f of ['period_start', 'period_end']) t.equal(format(usage.properties[f]), 'date', `UsageOut.${f}`);
  t.equal(format(usage.properties.daily.items.properties.day), 'date', 'UsageDay.day');
});
