import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from '../engines/openapi-check.js';

interface Point {
  id: string;
  vector: number[];
  payload: Record<string, unknown>;
}
type Cond = { key: string; match?: { value?: unknown; any?: unknown[] }; range?: { gte?: number; lte?: number } };

/** A Qdrant condition on one payload field (arrays match when any element does, as Qdrant does). */
function holds(c: Cond, payload: Record<string, unknown>): boolean {
  const v = payload[c.key];
  const values = Array.isArray(v) ? v : [v];
  if (c.match?.value !== undefined) return values.includes(c.match.value);
  if (c.match?.any) return values.some((x) => c.match!.any!.includes(x));
  if (c.range) return values.some((x) => typeof x === 'number' && (c.range!.gte == null || x >= c.range!.gte) && (c.range!.lte == null || x <= c.range!.lte));
  throw new Error(`the fake does not know condition ${JSON.stringify(c)}`);
}

type Filter = { must?: Cond[]; must_not?: Cond[] };
const passes = (f: Filter, payload: Record<string, unknown>) =>
  (f.must ?? []).every((c) => holds(c, payload)) && !(f.must_not ?? []).some((c) => holds(c, payload));

const cosine = (a: number[], b: number[]) => {
  let d = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    d += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return d / (Math.sqrt(na * nb) || 1);
};

/**
 * A local server answering Qdrant's REST endpoints the adapter uses (collections, aliases, points
 * upsert (also through `points/batch`, honouring `update_filter`)/delete/retrieve/count and `points/query`), with Qdrant's `{result, status, time}`
 * envelope and 404s for unknown collections; records every request for the schema check. With
 * `fault.status` set, it answers every request with that error status.
 */
export async function startQdrantFake(apiKey: string) {
  const collections = new Map<string, { size: number; points: Map<string, Point> }>();
  const aliases = new Map<string, string>();
  const requests: RecordedRequest[] = [];
  /** Set `fault.status` (e.g. 503) and every request is answered with it, in Qdrant's error envelope; 0: answering. */
  const fault = { status: 0 };
  const resolve = (name: string) => collections.get(aliases.get(name) ?? name);

  /** Points upserted as Qdrant does: an `update_filter` leaves stored points it does not match as they are (new points are inserted). */
  const upsert = (col: { size: number; points: Map<string, Point> }, data: { points: Point[]; update_filter?: Filter }): string | null => {
    for (const p of data.points) {
      if (p.vector.length !== col.size) return `Wrong input: Vector dimension error: expected dim: ${col.size}, got ${p.vector.length}`;
      const stored = col.points.get(String(p.id));
      if (stored && data.update_filter && !passes(data.update_filter, stored.payload)) continue;
      col.points.set(String(p.id), { id: String(p.id), vector: p.vector, payload: p.payload ?? {} });
    }
    return null;
  };

  const answer = (res: ServerResponse, status: number, result: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(status < 300 ? { result, status: 'ok', time: 0.0001 } : { status: { error: String(result) }, time: 0.0001 }));
  };

  const handle = (req: IncomingMessage, body: string, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://x');
    requests.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body });
    if (fault.status) return answer(res, fault.status, 'Service Unavailable: injected fault');
    if (req.headers['api-key'] !== apiKey) return answer(res, 401, 'Must provide an API key');
    const data = body ? JSON.parse(body) : {};
    const m = url.pathname.match(/^\/collections\/([^/]+)(\/.*)?$/);
    if (url.pathname === '/collections/aliases' && req.method === 'POST') {
      for (const a of data.actions) {
        if (a.create_alias) aliases.set(a.create_alias.alias_name, a.create_alias.collection_name);
        if (a.delete_alias) aliases.delete(a.delete_alias.alias_name);
      }
      return answer(res, 200, true);
    }
    if (!m) return answer(res, 404, 'not found');
    const name = decodeURIComponent(m[1]);
    const rest = m[2] ?? '';
    if (rest === '/exists') return answer(res, 200, { exists: collections.has(name) });
    if (rest === '' && req.method === 'PUT') {
      if (collections.has(name)) return answer(res, 409, `Collection \`${name}\` already exists!`);
      collections.set(name, { size: data.vectors.size, points: new Map() });
      return answer(res, 200, true);
    }
    if (rest === '' && req.method === 'DELETE') return answer(res, 200, collections.delete(name));
    const col = resolve(name);
    if (!col) return answer(res, 404, `Collection \`${name}\` doesn't exist!`);
    if (rest === '/points' && req.method === 'PUT') {
      const error = upsert(col, data);
      return error ? answer(res, 400, error) : answer(res, 200, { operation_id: 1, status: 'completed' });
    }
    if (rest === '/points/batch' && req.method === 'POST') {
      for (const op of data.operations) {
        if (!op.upsert) return answer(res, 400, `the fake does not know operation ${Object.keys(op)}`);
        const error = upsert(col, op.upsert);
        if (error) return answer(res, 400, error);
      }
      return answer(
        res,
        200,
        data.operations.map((_: unknown, i: number) => ({ operation_id: 3 + i, status: 'completed' })),
      );
    }
    if (rest === '/points/delete') {
      for (const id of data.points) col.points.delete(String(id));
      return answer(res, 200, { operation_id: 2, status: 'completed' });
    }
    if (rest === '/points' && req.method === 'POST') {
      // The payload fields asked for (`with_payload`: a list of keys, or true / absent for all of them).
      const fields = (p: Point) =>
        Array.isArray(data.with_payload)
          ? Object.fromEntries(data.with_payload.map((k: string) => [k, p.payload[k]]))
          : data.with_payload === false
            ? undefined
            : p.payload;
      return answer(
        res,
        200,
        data.ids
          .map((id: string) => col.points.get(String(id)))
          .filter(Boolean)
          .map((p: Point) => ({ id: p.id, payload: fields(p), vector: data.with_vector ? p.vector : undefined })),
      );
    }
    if (rest === '/points/count') return answer(res, 200, { count: col.points.size });
    if (rest === '/points/query') {
      const f: Filter = data.filter ?? {};
      const points = [...col.points.values()]
        .filter((p) => passes(f, p.payload))
        .map((p) => ({ id: p.id, version: 1, score: cosine(p.vector, data.query), payload: { product_id: p.payload.product_id } }))
        .sort((a, b) => b.score - a.score)
        .slice(0, data.limit ?? 10);
      return answer(res, 200, { points });
    }
    return answer(res, 404, `the fake does not answer ${req.method} ${url.pathname}`);
  };

  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      try {
        handle(req, body, res);
      } catch (err) {
        answer(res, 500, String(err));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    collections,
    aliases,
    fault,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
