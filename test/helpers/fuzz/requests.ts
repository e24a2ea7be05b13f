import fc from 'fast-check';
import { validArb, type JsonSchema } from './schema-arb.js';
import { badCursor, badPathId, badValue, deepJson, mutate, oddString, toJsonText } from './bad-values.js';

export interface Operation {
  method: string;
  /** OpenAPI path, e.g. `/v1/keys/{key_id}`. */
  path: string;
  /** undefined: no credential; null: any valid credential; else the scope the route needs. */
  scope: string | null | undefined;
  query: Array<{ name: string; schema: JsonSchema }>;
  body?: JsonSchema;
  /** Every method the path answers (for wrong-method requests). */
  methods: string[];
}

export interface Credentials {
  secret: string;
  session: string;
  public: string;
  origin: string;
}

export interface FuzzRequest {
  kind: string;
  /** The operation it was made for, e.g. `post /v1/keys`. */
  route: string;
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
}

/** Percent-encodes any JS string, lone surrogates included (as the invalid UTF-8 a careless client sends). */
export function pctEncode(s: string): string {
  let out = '';
  for (const ch of s) {
    const cu = ch.charCodeAt(0);
    if (ch.length === 1 && cu >= 0xd800 && cu <= 0xdfff) {
      out += [0xe0 | (cu >> 12), 0x80 | ((cu >> 6) & 0x3f), 0x80 | (cu & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else out += encodeURIComponent(ch);
  }
  return out;
}

const SHOPPER_SCOPES = new Set(['search', 'events']);
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];
const asciiJunk = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((n) => String.fromCharCode(n)), maxLength: 120 });

/** The credential a well-behaved client would send for this operation (each kind that may call it). */
function goodAuth(op: Operation, creds: Credentials): fc.Arbitrary<Record<string, string>> {
  if (op.scope === undefined) return fc.constant({});
  const secret = { authorization: `Bearer ${creds.secret}` };
  const session = { authorization: `Bearer ${creds.session}` };
  const pub = { authorization: `Bearer ${creds.public}`, origin: creds.origin };
  if (op.scope !== null && SHOPPER_SCOPES.has(op.scope)) return fc.constantFrom(pub, pub, secret, session);
  return fc.constantFrom(secret, secret, session, { 'x-api-key': creds.secret });
}

/** Headers that are wrong in one way: credential, content type, idempotency key, origin, request id. */
function badHeaders(creds: Credentials): fc.Arbitrary<Record<string, string>> {
  return fc.oneof(
    fc.constant({}),
    asciiJunk.map((j) => ({ authorization: `Bearer ${j}` })),
    asciiJunk.map((j) => ({ authorization: j })),
    fc.constantFrom('Basic dXNlcjpwYXNz', 'Bearer', 'Bearer  ', `bearer ${creds.secret} extra`).map((a) => ({ authorization: a })),
    asciiJunk.map((j) => ({ 'x-api-key': j })),
    fc.stringMatching(/^(sk|pk)_live_[A-Za-z0-9_-]{32}$/).map((k) => ({ authorization: `Bearer ${k}` })),
    fc.stringMatching(/^ds_[A-Za-z0-9_-]{43}$/).map((k) => ({ authorization: `Bearer ${k}` })),
    fc.constant({ authorization: `Bearer ${creds.public}` }),
    asciiJunk.map((o) => ({ authorization: `Bearer ${creds.public}`, origin: o })),
    fc
      .constantFrom(
        'text/plain',
        'multipart/form-data; boundary=x',
        'application/x-www-form-urlencoded',
        'application/json; charset=latin1',
        'application/jsonx',
        '*/*',
      )
      .map((type) => ({ authorization: `Bearer ${creds.secret}`, 'content-type': type })),
    fc
      .oneof(asciiJunk, fc.constantFrom('short', 'a b c d e f', 'k'.repeat(300), ''))
      .map((k) => ({ authorization: `Bearer ${creds.secret}`, 'idempotency-key': k })),
    asciiJunk.map((r) => ({ authorization: `Bearer ${creds.secret}`, 'x-request-id': r })),
  );
}

/** Raw bodies no JSON encoder would write. */
const badRawBody: fc.Arbitrary<string | Uint8Array> = fc.oneof(
  fc.constantFrom(
    '{"a":',
    '{',
    '[1,]',
    '{"a":1}}',
    'nul',
    "{'a':1}",
    '\u0000',
    '"\\ud800"',
    '{"name":"\\ud800"}',
    '{"a":"\\u0000"}',
    '1e999999',
    '[]',
    '""',
    'true',
  ),
  fc.constantFrom(
    Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    Uint8Array.from([0xed, 0xa0, 0x80]),
  ),
  deepJson.map((raw) => raw.text),
  fc.constant('x'),
);

/** One bad request for `op`: a broken body, query, cursor, path id, header set, method, or raw body. */
export function requestArb(op: Operation, creds: Credentials, bodyBase?: fc.Arbitrary<unknown>): fc.Arbitrary<FuzzRequest> {
  const pathIds = (op.path.match(/\{\w+\}/g) ?? []).length;
  const goodPath = fc.array(fc.stringMatching(/^[a-z]{3}_[a-z0-9]{16}$/), { minLength: pathIds, maxLength: pathIds });
  const goodQuery = fc.record(Object.fromEntries(op.query.map((p) => [p.name, validArb(p.schema)])), { requiredKeys: [] });
  const base = bodyBase ?? (op.body ? validArb(op.body) : fc.constant(undefined));
  const build = (
    kind: string,
    ids: string[],
    query: Record<string, unknown>,
    headers: Record<string, string>,
    body: unknown,
    method = op.method.toUpperCase(),
  ): FuzzRequest => {
    let i = 0;
    const path = op.path.replace(/\{\w+\}/g, () => ids[i++] ?? 'x');
    const qs = Object.entries(query).flatMap(([k, v]) =>
      (Array.isArray(v) ? v : [v])
        .filter((x) => x !== undefined)
        .map((x) => `${pctEncode(k)}=${pctEncode(typeof x === 'string' ? x : (JSON.stringify(x) ?? ''))}`),
    );
    const out: FuzzRequest = { kind, route: `${op.method} ${op.path}`, method, url: path + (qs.length ? `?${qs.join('&')}` : ''), headers: { ...headers } };
    if (typeof body === 'string' || body instanceof Uint8Array) out.body = body;
    else if (body !== undefined && method !== 'GET') out.body = toJsonText(body);
    if (out.body !== undefined) out.headers['content-type'] ??= 'application/json';
    return out;
  };
  const auth = goodAuth(op, creds);
  const kinds: Array<{ weight: number; arbitrary: fc.Arbitrary<FuzzRequest> }> = [
    { weight: 1, arbitrary: fc.tuple(goodPath, goodQuery, auth, base).map(([ids, q, h, b]) => build('valid', ids, q, h, b)) },
    { weight: 2, arbitrary: fc.tuple(goodPath, goodQuery, badHeaders(creds), base).map(([ids, q, h, b]) => build('headers', ids, q, h, b)) },
    {
      weight: 1,
      arbitrary: fc
        .tuple(goodPath, auth, fc.constantFrom(...METHODS.filter((m) => !op.methods.includes(m))))
        .map(([ids, h, m]) => build('method', ids, {}, h, undefined, m)),
    },
  ];
  if (op.body) {
    kinds.push({ weight: 6, arbitrary: fc.tuple(goodPath, goodQuery, auth, base.chain(mutate)).map(([ids, q, h, b]) => build('body', ids, q, h, b)) });
    kinds.push({ weight: 2, arbitrary: fc.tuple(goodPath, auth, badRawBody).map(([ids, h, b]) => build('raw-body', ids, {}, h, b)) });
  }
  if (op.query.length) {
    const names = op.query.map((p) => p.name);
    const badQuery = fc
      .tuple(
        goodQuery,
        fc.constantFrom(...names, 'unknown', 'filter[price][gte]', 'filter[__proto__]'),
        fc.oneof(
          oddString,
          badValue.map((v) => (typeof v === 'string' ? v : (JSON.stringify(v) ?? ''))),
          fc.array(oddString, { minLength: 2, maxLength: 3 }),
        ),
      )
      .map(([q, name, v]) => ({ ...q, [name]: v }));
    kinds.push({ weight: 4, arbitrary: fc.tuple(goodPath, badQuery, auth).map(([ids, q, h]) => build('query', ids, q, h, undefined)) });
  }
  if (op.query.some((p) => p.name === 'cursor')) {
    kinds.push({
      weight: 3,
      arbitrary: fc.tuple(goodPath, goodQuery, auth, badCursor).map(([ids, q, h, c]) => build('cursor', ids, { ...q, cursor: c }, h, undefined)),
    });
  }
  if (pathIds) {
    const badIds = fc.array(badPathId, { minLength: pathIds, maxLength: pathIds });
    kinds.push({ weight: 3, arbitrary: fc.tuple(badIds, auth, base).map(([ids, h, b]) => build('path', ids.map(String), {}, h, b)) });
  }
  return fc.oneof(...kinds);
}
