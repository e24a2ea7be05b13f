import t from 'tap';
import fc from 'fast-check';
import { Agent, fetch } from 'undici';
import { setup } from '../helpers/harness.js';
import { requestArb, type FuzzRequest, type Operation } from '../helpers/fuzz/requests.js';
import type { JsonSchema } from '../helpers/fuzz/schema-arb.js';

/**
 * Generated bad requests over every route of the served OpenAPI document: wrong types, missing
 * and unknown fields, huge, deep and odd-unicode values, forged cursors, bad path ids, bad
 * headers, wrong methods, broken bodies; each with a valid credential of a kind the route
 * takes. No answer may be a 5xx, and every 4xx carries the error body. FUZZ_SEED replays a run,
 * FUZZ_RUNS changes its size.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 5200);
const SEED = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const CONCURRENCY = 4;

// The fuzzer is one client sending thousands of requests: per-key and failed-auth limits would answer most of them 429.
const h = await setup({
  RATE_LIMIT_SECRET_PER_S: '1000000',
  RATE_LIMIT_PUBLIC_PER_S: '1000000',
  RATE_LIMIT_SESSION_PER_S: '1000000',
  AUTH_FAILURES_PER_MINUTE: '1000000',
  AUTH_FAILURES_PER_PREFIX_PER_MINUTE: '1000000',
});
t.teardown(() => h.close());
const admin = await h.tenant('Fuzzed store');
const origin = 'https://shop.example';
const pub = await h.api.call('POST', '/v1/keys', { key: admin.key, body: { name: 'web', kind: 'public', allowed_origins: [origin] } });
const ses = await h.api.call('POST', '/v1/sessions', { key: admin.key, body: {} });
const creds = { secret: admin.key, public: pub.body.key as string, session: ses.body.token as string, origin };

const doc = (await h.api.call('GET', '/v1/openapi.json')).body as {
  paths: Record<
    string,
    Record<
      string,
      {
        'x-scope'?: string | null;
        security?: unknown[];
        parameters?: Array<{ name: string; in: string; schema: JsonSchema }>;
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
};
const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, ops]) =>
  Object.entries(ops).map(([method, op]) => ({
    method,
    path,
    scope: op.security?.length ? (op['x-scope'] ?? null) : undefined,
    query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
    body: op.requestBody?.content['application/json']?.schema,
    methods: Object.keys(ops).map((m) => m.toUpperCase()),
  })),
);

/** Products near the shape a store sends, so item-level checks are reached, not only the envelope. */
const product = fc.record(
  {
    id: fc.stringMatching(/^p[0-9]{1,4}$/),
    name: fc.record({ en: fc.string({ minLength: 1, maxLength: 30 }), ar: fc.constantFrom('هاتف', 'حاسوب محمول') }, { requiredKeys: ['en'] }),
    price: fc.oneof(fc.constantFrom('19.99', '0', '1000000'), fc.double({ min: 0, max: 1e6, noNaN: true })),
    currency: fc.constantFrom('USD', 'SAR'),
    brand: fc.string({ maxLength: 20 }),
    categories: fc.constant([{ id: 'c1', path: [{ en: 'Phones' }] }]),
    attributes: fc.dictionary(fc.constantFrom('color', 'size', 'ram'), fc.oneof(fc.string({ maxLength: 10 }), fc.integer())),
    extra: fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
  },
  { requiredKeys: ['id', 'name', 'price', 'currency'] },
);
const bodies: Record<string, fc.Arbitrary<unknown>> = {
  'post /v1/products/batch': fc.record(
    { upsert: fc.array(product, { minLength: 1, maxLength: 3 }), delete: fc.array(fc.string({ maxLength: 10 }), { maxLength: 2 }) },
    { requiredKeys: ['upsert'] },
  ),
};

t.ok(operations.length >= 30, `fuzzing ${operations.length} operations`);
const arb = fc.oneof(...operations.map((op) => requestArb(op, creds, bodies[`${op.method} ${op.path}`])));
const requests = fc.sample(arb, { numRuns: RUNS, seed: SEED });

// Its own connections, dropped after 1 s idle: a socket the server closes after its 5 s keep-alive
// can then never be picked for a request (that race answers "fetch failed" with no server at fault).
const agent = new Agent({ keepAliveTimeout: 1000, connections: CONCURRENCY });
t.teardown(() => agent.close());

interface Failure {
  group: string;
  req: string;
  status: number;
  body: string;
}
const byStatus = new Map<number, number>();
const byKind = new Map<string, number>();
const failures: Failure[] = [];

async function send(req: FuzzRequest): Promise<void> {
  const describe = () =>
    `${req.kind}: ${req.method} ${req.url.slice(0, 300)} ${JSON.stringify(req.headers).slice(0, 200)} ${String(req.body ?? '').slice(0, 300)}`;
  let res: Awaited<ReturnType<typeof fetch>>;
  let text: string;
  try {
    res = await fetch(h.api.url + req.url, { method: req.method, headers: req.headers, body: req.body, dispatcher: agent });
    text = await res.text();
  } catch (err) {
    // No answer at all (the connection closed, or the client refused to send it).
    failures.push({
      group: `no answer ${req.kind} ${req.route}: ${(err as Error).cause ?? (err as Error).message}`,
      req: describe(),
      status: 0,
      body: String((err as Error).cause ?? err),
    });
    return;
  }
  byStatus.set(res.status, (byStatus.get(res.status) ?? 0) + 1);
  byKind.set(req.kind, (byKind.get(req.kind) ?? 0) + 1);
  if (res.status >= 500) failures.push({ group: `${res.status} ${req.kind} ${req.route}`, req: describe(), status: res.status, body: text.slice(0, 300) });
  else if (res.status >= 400 && !hasErrorBody(text, res.headers.get('x-request-id')))
    failures.push({
      group: `${res.status} ${req.kind} ${req.route} (no error body)`,
      req: describe(),
      status: res.status,
      body: `not the error body: ${text.slice(0, 300)}`,
    });
}

function hasErrorBody(text: string, requestId: string | null): boolean {
  try {
    const e = JSON.parse(text)?.error;
    return (
      typeof e?.code === 'string' && /^[a-z_]+$/.test(e.code) && typeof e.message === 'string' && typeof e.request_id === 'string' && e.request_id === requestId
    );
  } catch {
    return false;
  }
}

t.test(`${RUNS} generated bad requests (seed ${SEED}): no 5xx, every 4xx has the error body`, async (t) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) await send(requests[next++]);
    }),
  );
  const statuses = [...byStatus]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s}=${n}`)
    .join(' ');
  const kinds = [...byKind]
    .sort()
    .map(([k, n]) => `${k}=${n}`)
    .join(' ');
  t.comment(`fuzz: ${requests.length} requests over ${operations.length} operations, seed ${SEED}; by status ${statuses}; by kind ${kinds}`);
  const groups = new Map<string, Failure>();
  for (const f of failures) if (!groups.has(f.group)) groups.set(f.group, f);
  for (const f of [...groups.values()].slice(0, 20)) t.comment(`failed: ${f.req} -> ${f.status} ${f.body}`);
  t.same([...groups.keys()], [], `${failures.length} requests answered 5xx or a 4xx without the error body`);
  t.ok((byStatus.get(400) ?? 0) > RUNS / 4, 'most requests were refused as bad input (400)');
  t.ok(
    [...byStatus.keys()].some((s) => s >= 200 && s < 300),
    'some generated requests were valid and answered 2xx',
  );
});

t.test('the API still answers normally after the fuzz', async (t) => {
  t.equal((await h.api.call('GET', '/healthz')).status, 200);
  const search = await h.api.call('GET', '/v1/search?q=phone', { key: creds.public, headers: { origin } });
  t.equal(search.status, 200);
  t.equal((await h.api.call('GET', '/v1/auth/whoami', { key: creds.session })).status, 200, 'the session still works');
});
