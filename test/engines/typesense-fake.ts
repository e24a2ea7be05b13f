import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RecordedRequest } from './openapi-check.js';
import { textMatches, type FakeSynonymItem } from './typesense-fake-text.js';

interface Field {
  name: string;
  type: string;
  facet?: boolean;
  optional?: boolean;
  index?: boolean;
}
interface Collection {
  name: string;
  fields: Field[];
  default_sorting_field?: string;
  created_at: number;
  docs: Map<string, Record<string, unknown>>;
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Splits a filter on `&&` the way Typesense's tokenizer does: every backtick toggles "inside a value". */
function clauses(filter: string): string[] {
  const out: string[] = [];
  let buf = '';
  let tick = false;
  for (let i = 0; i < filter.length; i++) {
    const c = filter[i];
    if (c === '`') tick = !tick;
    if (!tick && c === '&' && filter[i + 1] === '&') {
      out.push(buf.trim());
      buf = '';
      i++;
      continue;
    }
    if (!tick && (c === '(' || c === ')' || (c === '|' && filter[i + 1] === '|')))
      throw new HttpError(400, `the fake understands only && of simple clauses: ${filter}`);
    buf += c;
  }
  if (tick) throw new HttpError(400, `Could not parse the filter query: unbalanced backtick in ${filter}`);
  out.push(buf.trim());
  return out;
}

/** Typesense's StringUtils::split_to_values: commas split outside backticks; values trimmed. */
function splitToValues(s: string): string[] {
  const out: string[] = [];
  let buf = '';
  let inside = false;
  for (const c of s) {
    if (c === '`') inside = inside && buf ? false : true;
    else if (c === ',' && !inside) (out.push(buf.trim()), (buf = ''));
    else buf += c;
  }
  if (buf) out.push(buf.trim());
  return out;
}

function matches(col: Collection, filter: string | undefined, doc: Record<string, unknown>): boolean {
  if (!filter) return true;
  return clauses(filter).every((clause) => {
    const i = clause.indexOf(':');
    const field = clause.slice(0, i).trim();
    let raw = clause.slice(i + 1).trim();
    if (field !== 'id' && !col.fields.some((f) => f.name === field))
      throw new HttpError(404, `Could not find a filter field named \`${field}\` in the schema.`);
    const v = doc[field];
    if (raw.startsWith('>=') || raw.startsWith('<=')) {
      // Typesense compares numbers only: a comparator on a text or flag field is an error; a numeric array matches by any element.
      const type = col.fields.find((f) => f.name === field)?.type ?? '';
      if (!/^(float|int32|int64)(\[\])?$/.test(type)) throw new HttpError(400, `Error with filter field \`${field}\`: Not a numerical field.`);
      const bound = Number(raw.slice(2));
      const numbers = (Array.isArray(v) ? v : v == null ? [] : [v]) as number[];
      return numbers.some((n) => (raw.startsWith('>=') ? n >= bound : n <= bound));
    }
    if (raw.startsWith('=')) raw = raw.slice(1).trim();
    const negate = raw.startsWith('!=');
    if (negate) raw = raw.slice(2).trim();
    const values = raw.startsWith('[') && raw.endsWith(']') ? splitToValues(raw.slice(1, -1)) : splitToValues(raw);
    const have = (field === 'id' ? [doc.id] : Array.isArray(v) ? v : v == null ? [] : [v]).map(String);
    return negate ? !values.some((x) => have.includes(x)) : values.some((x) => have.includes(x));
  });
}

function typeMatches(type: string, v: unknown): boolean {
  if (type.endsWith('[]')) return Array.isArray(v) && v.every((x) => typeMatches(type.slice(0, -2), x));
  if (type === 'string') return typeof v === 'string';
  if (type === 'float') return typeof v === 'number';
  if (type === 'int32' || type === 'int64') return Number.isInteger(v);
  if (type === 'bool') return typeof v === 'boolean';
  return true;
}

function docProblem(col: Collection, doc: Record<string, unknown>): string | null {
  if (typeof doc.id !== 'string') return 'Document `id` must be a string.';
  for (const f of col.fields) {
    const v = doc[f.name];
    if (v == null) {
      if (!f.optional) return `Field \`${f.name}\` has been declared in the schema, but is not found in the document.`;
    } else if (!typeMatches(f.type, v)) return `Field \`${f.name}\` must be a ${f.type}.`;
  }
  return null;
}

/**
 * A local HTTP server that answers like Typesense 30 for the calls the adapter makes: collections,
 * aliases, JSONL imports (with per-line results) and exports (by filter), a document by id, delete by filter or id, search and multi_search
 * (filters evaluated with Typesense's own tokenizing rules, facet counts and numeric stats) and
 * synonym sets. `q` is ignored unless `matchText` is set (typesense-fake-text.ts). It records every request.
 */
export class FakeTypesense {
  readonly requests: RecordedRequest[] = [];
  readonly collections = new Map<string, Collection>();
  readonly aliases = new Map<string, string>();
  /** Documents whose import line fails, as a real server does for a document it rejects. */
  readonly failIds = new Set<string>();
  readonly synonymSets = new Map<string, FakeSynonymItem[]>();
  private server: Server = createServer((req, res) => void this.receive(req, res));
  url = '';

  constructor(
    readonly apiKey: string,
    readonly options: { matchText?: boolean } = {},
  ) {}

  async start(): Promise<this> {
    await new Promise<void>((ok) => this.server.listen(0, '127.0.0.1', ok));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((ok) => this.server.close(() => ok()));
  }

  since(mark: number): RecordedRequest[] {
    return this.requests.slice(mark);
  }

  private async receive(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url ?? '/', 'http://fake');
    const rec: RecordedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: req.headers,
      body: Buffer.concat(chunks).toString('utf8'),
    };
    this.requests.push(rec);
    try {
      if (req.headers['x-typesense-api-key'] !== this.apiKey) throw new HttpError(401, 'Forbidden - a valid `x-typesense-api-key` header must be sent.');
      const out = this.route(rec);
      if (typeof out === 'string') {
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf8' }).end(out);
      } else {
        res.writeHead(out.status ?? 200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(out.body));
      }
    } catch (e) {
      const status = e instanceof HttpError ? e.status : 500;
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify({ message: (e as Error).message }));
    }
  }

  private col(name: string): Collection {
    const col = this.collections.get(this.aliases.get(name) ?? name);
    if (!col) throw new HttpError(404, 'Not Found');
    return col;
  }

  private summary(col: Collection, withFields = true) {
    const { docs, ...rest } = col;
    return { ...rest, ...(withFields ? {} : { fields: undefined }), num_documents: docs.size };
  }

  private route(r: RecordedRequest): string | { status?: number; body: unknown } {
    const seg = r.path.split('/').filter(Boolean).map(decodeURIComponent);
    const json = () => JSON.parse(r.body || '{}');
    const key = `${r.method} ${seg.map((s, i) => (i === 1 || (i === 3 && !['import', 'search', 'export'].includes(s)) ? ':' : s)).join('/')}`;
    switch (key) {
      case 'GET aliases/:': {
        const target = this.aliases.get(seg[1]);
        if (!target) throw new HttpError(404, 'Not Found');
        return { body: { name: seg[1], collection_name: target } };
      }
      case 'PUT aliases/:': {
        const target = json().collection_name;
        if (!this.collections.has(target)) throw new HttpError(404, `Collection \`${target}\` not found.`);
        this.aliases.set(seg[1], target);
        return { body: { name: seg[1], collection_name: target } };
      }
      case 'DELETE aliases/:': {
        const target = this.aliases.get(seg[1]);
        if (!target) throw new HttpError(404, 'Not Found');
        this.aliases.delete(seg[1]);
        return { body: { name: seg[1], collection_name: target } };
      }
      case 'GET collections': {
        const withFields = !(r.query.get('exclude_fields') ?? '').split(',').includes('fields');
        return { body: [...this.collections.values()].reverse().map((c) => this.summary(c, withFields)) };
      }
      case 'POST collections': {
        const schema = json();
        if (this.collections.has(schema.name)) throw new HttpError(409, `A collection with name \`${schema.name}\` already exists.`);
        const col: Collection = { ...schema, created_at: Math.floor(Date.now() / 1000), docs: new Map() };
        this.collections.set(schema.name, col);
        return { status: 201, body: this.summary(col) };
      }
      case 'GET collections/:':
        return { body: this.summary(this.col(seg[1])) };
      case 'DELETE collections/:': {
        const col = this.col(seg[1]);
        this.collections.delete(col.name);
        return { body: this.summary(col) };
      }
      case 'POST collections/:/documents/import':
        return this.import(this.col(seg[1]), r.body);
      case 'GET collections/:/documents/search':
        return { body: this.search(this.col(seg[1]), Object.fromEntries(r.query)) };
      case 'DELETE collections/:/documents': {
        const col = this.col(seg[1]);
        const doomed = [...col.docs.values()].filter((d) => matches(col, r.query.get('filter_by') ?? undefined, d));
        doomed.forEach((d) => col.docs.delete(String(d.id)));
        return { body: { num_deleted: doomed.length } };
      }
      case 'GET collections/:/documents/export': {
        // JSONL, one line a matching document in the order written, no trailing newline; only the fields named when include_fields is given.
        const col = this.col(seg[1]);
        const include = r.query.get('include_fields')?.split(',');
        return [...col.docs.values()]
          .filter((d) => matches(col, r.query.get('filter_by') ?? undefined, d))
          .map((d) => JSON.stringify(include ? Object.fromEntries(Object.entries(d).filter(([k]) => include.includes(k))) : d))
          .join('\n');
      }
      case 'GET collections/:/documents/:': {
        const doc = this.col(seg[1]).docs.get(seg[3]);
        if (!doc) throw new HttpError(404, `Could not find a document with id: ${seg[3]}`);
        return { body: doc };
      }
      case 'DELETE collections/:/documents/:': {
        const col = this.col(seg[1]);
        const doc = col.docs.get(seg[3]);
        if (!doc) throw new HttpError(404, `Could not find a document with id: ${seg[3]}`);
        col.docs.delete(seg[3]);
        return { body: doc };
      }
      case 'GET synonym_sets':
        return { body: [...this.synonymSets].map(([name, items]) => ({ name, items })) };
      case 'GET synonym_sets/:': {
        const items = this.synonymSets.get(seg[1]);
        if (!items) throw new HttpError(404, 'Synonym index not found');
        return { body: { name: seg[1], items } };
      }
      case 'PUT synonym_sets/:': {
        const items = json().items as FakeSynonymItem[];
        if (!Array.isArray(items)) throw new HttpError(400, 'Parameter `items` is required');
        for (const item of items) {
          if (typeof item.id !== 'string' || !Array.isArray(item.synonyms) || !item.synonyms.length)
            throw new HttpError(400, 'Could not find a valid string array of `synonyms`');
        }
        this.synonymSets.set(seg[1], items);
        return { body: { name: seg[1], items } };
      }
      case 'DELETE synonym_sets/:': {
        if (!this.synonymSets.delete(seg[1])) throw new HttpError(404, 'Synonym index not found');
        return { body: { name: seg[1] } };
      }
      case 'POST multi_search': {
        const results = (json().searches as Array<Record<string, unknown>>).map(({ collection, ...params }) => {
          try {
            return this.search(this.col(String(collection)), Object.fromEntries(Object.entries(params).map(([k, v]) => [k, String(v)])));
          } catch (e) {
            return { code: e instanceof HttpError ? e.status : 500, error: (e as Error).message };
          }
        });
        return { body: { results } };
      }
      default:
        throw new HttpError(404, 'Not Found');
    }
  }

  private import(col: Collection, body: string): string {
    return body
      .split('\n')
      .filter((l) => l.trim())
      .map((line) => {
        let doc: Record<string, unknown>;
        try {
          doc = JSON.parse(line);
        } catch {
          return JSON.stringify({ success: false, error: 'Bad JSON.', document: line });
        }
        const problem = this.failIds.has(String(doc.id)) ? 'Field `price` must be a float.' : docProblem(col, doc);
        if (problem) return JSON.stringify({ success: false, code: 400, error: problem, document: line });
        col.docs.set(String(doc.id), doc);
        return JSON.stringify({ success: true });
      })
      .join('\n');
  }

  private search(col: Collection, p: Record<string, string>) {
    for (const f of (p.query_by ?? '').split(',').filter(Boolean)) {
      if (!col.fields.some((x) => x.name === f && x.type.startsWith('string')))
        throw new HttpError(404, `Could not find a field named \`${f}\` in the schema.`);
    }
    // Typesense checks every named synonym set before it searches.
    const items = (p.synonym_sets ?? '')
      .split(',')
      .filter(Boolean)
      .flatMap((name) => {
        const set = this.synonymSets.get(name);
        if (!set) throw new HttpError(404, 'Synonym index not found');
        return set;
      });
    const found = [...col.docs.values()].filter((d) => matches(col, p.filter_by, d) && (!this.options.matchText || textMatches(p, items, d)));
    const perPage = Number(p.limit ?? p.per_page ?? 10);
    const page = Number(p.page ?? 1);
    const from = p.offset !== undefined ? Number(p.offset) : (page - 1) * perPage;
    const include = p.include_fields?.split(',');
    const hits = found.slice(from, from + perPage).map((d) => ({
      document: include ? Object.fromEntries(Object.entries(d).filter(([k]) => include.includes(k))) : d,
      text_match: 1000,
    }));
    const facet_counts = (p.facet_by ?? '')
      .split(',')
      .filter(Boolean)
      .map((name) => {
        const field = col.fields.find((f) => f.name === name && f.facet);
        if (!field) throw new HttpError(404, `Could not find a facet field named \`${name}\` in the schema.`);
        const counts = new Map<string, number>();
        const numbers: number[] = [];
        for (const d of found) {
          for (const v of Array.isArray(d[name]) ? (d[name] as unknown[]) : d[name] == null ? [] : [d[name]]) {
            counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
            if (typeof v === 'number') numbers.push(v);
          }
        }
        const rows = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, Number(p.max_facet_values ?? 10));
        return {
          field_name: name,
          sampled: false,
          counts: rows.map(([value, count]) => ({ value, count, highlighted: value })),
          stats: numbers.length ? { min: Math.min(...numbers), max: Math.max(...numbers), total_values: counts.size } : { total_values: counts.size },
        };
      });
    return {
      found: found.length,
      out_of: col.docs.size,
      page,
      hits,
      facet_counts,
      search_time_ms: 0,
      request_params: { collection_name: col.name, q: p.q ?? '', per_page: perPage },
    };
  }
}
