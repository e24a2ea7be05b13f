/**
 * Checks recorded HTTP requests against an OpenAPI 3.0 document: the path template and method
 * exist, every query key is a declared parameter (or a property of an exploded object
 * parameter) with a value of the right type, required parameters are present, the API key
 * header is sent, and the body has a declared media type and validates against its schema.
 * Objects are closed: a property the schema does not declare is a problem unless the schema
 * says `additionalProperties` (or declares no properties at all: a free-form object), so a
 * misspelt option never passes as "allowed extra".
 */
type Schema = Record<string, any>;

export interface OpenApiDoc {
  paths: Record<string, Record<string, any>>;
  components?: { schemas?: Record<string, Schema>; securitySchemes?: Record<string, Schema> };
}

export interface RecordedRequest {
  method: string;
  /** Raw path, percent-encoded as sent. */
  path: string;
  query: URLSearchParams;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export interface Allowance {
  operationId: string;
  /** A request Content-Type accepted for that operation although the document lists another. */
  contentType?: string;
  /** A body property accepted anywhere in that operation's body although its schema does not declare it. */
  property?: string;
  reason: string;
}

export function createOpenApiChecker(doc: OpenApiDoc, options: { apiKeyHeader?: string; allow?: Allowance[] } = {}) {
  const resolve = (s: Schema | undefined): Schema => {
    let cur = s ?? {};
    for (let i = 0; cur.$ref && i < 20; i++) {
      const name = String(cur.$ref).replace('#/components/schemas/', '');
      const next = doc.components?.schemas?.[name];
      if (!next) throw new Error(`unresolved $ref ${cur.$ref}`);
      cur = next;
    }
    return cur;
  };

  /** Declared property names of an object schema (through allOf), or null when it is open. */
  const knownProps = (schema: Schema): Set<string> | null => {
    const s = resolve(schema);
    if (s.additionalProperties) return null;
    // An object that declares no properties at all is free-form (a collection's `metadata`: "optional details").
    if (!s.properties && !s.allOf?.length) return null;
    const names = new Set(Object.keys(s.properties ?? {}));
    for (const sub of s.allOf ?? []) {
      const more = knownProps(sub);
      if (!more) return null;
      more.forEach((n) => names.add(n));
    }
    return names;
  };

  const typeOk = (type: string, v: unknown) =>
    type === 'object'
      ? typeof v === 'object' && v !== null && !Array.isArray(v)
      : type === 'array'
        ? Array.isArray(v)
        : type === 'integer'
          ? Number.isInteger(v)
          : type === 'number'
            ? typeof v === 'number' && Number.isFinite(v)
            : typeof v === type;

  function check(schema: Schema, value: unknown, at: string, out: string[], closed = true): void {
    const s = resolve(schema);
    for (const sub of s.allOf ?? []) check(sub, value, at, out, false);
    if (s.oneOf) {
      const matching = (s.oneOf as Schema[]).filter((sub) => {
        const o: string[] = [];
        check(sub, value, at, o);
        return o.length === 0;
      });
      if (matching.length !== 1) out.push(`${at}: matches ${matching.length} of its oneOf schemas`);
    }
    if (s.enum && !s.enum.includes(value)) out.push(`${at}: ${JSON.stringify(value)} is not one of ${JSON.stringify(s.enum)}`);
    const type = s.type ?? (s.properties || s.allOf ? 'object' : undefined);
    if (type && !typeOk(type, value)) {
      out.push(`${at}: expected ${type}, got ${JSON.stringify(value)}`);
      return;
    }
    if (typeof value === 'string') {
      if (s.minLength != null && value.length < s.minLength) out.push(`${at}: shorter than ${s.minLength}`);
      if (s.maxLength != null && value.length > s.maxLength) out.push(`${at}: longer than ${s.maxLength}`);
    }
    if (Array.isArray(value) && s.items) value.forEach((v, i) => check(s.items, v, `${at}[${i}]`, out));
    if (type === 'object' && typeOk('object', value)) {
      const obj = value as Record<string, unknown>;
      for (const r of s.required ?? []) if (!(r in obj)) out.push(`${at}: missing required property ${r}`);
      for (const [k, v] of Object.entries(obj)) {
        if (s.properties?.[k]) check(s.properties[k], v, `${at}.${k}`, out);
        else if (typeof s.additionalProperties === 'object') check(s.additionalProperties, v, `${at}.${k}`, out);
      }
      const known = closed ? knownProps(s) : null;
      if (known) for (const k of Object.keys(obj)) if (!known.has(k)) out.push(`${at}: unknown property ${k}`);
    }
  }

  /** A query string value against a scalar schema. */
  function checkScalar(schema: Schema, raw: string, at: string, out: string[]): void {
    const s = resolve(schema);
    const type = s.type ?? 'string';
    const ok =
      type === 'integer'
        ? /^-?\d+$/.test(raw)
        : type === 'number'
          ? raw.trim() !== '' && Number.isFinite(Number(raw))
          : type === 'boolean'
            ? raw === 'true' || raw === 'false'
            : type === 'string';
    if (!ok) out.push(`${at}: ${JSON.stringify(raw)} is not a ${type}`);
    if (s.enum && !s.enum.includes(raw)) out.push(`${at}: ${JSON.stringify(raw)} is not one of ${JSON.stringify(s.enum)}`);
  }

  function findOperation(method: string, rawPath: string) {
    const segments = rawPath.split('/').filter(Boolean).map(decodeURIComponent);
    let best: { template: string; literals: number; params: Record<string, string> } | null = null;
    for (const template of Object.keys(doc.paths)) {
      const parts = template.split('/').filter(Boolean);
      if (parts.length !== segments.length) continue;
      const params: Record<string, string> = {};
      let literals = 0;
      const match = parts.every((p, i) => {
        const m = /^\{(.+)\}$/.exec(p);
        if (m) return ((params[m[1]] = segments[i]), true);
        literals++;
        return p === segments[i];
      });
      if (match && (!best || literals > best.literals)) best = { template, literals, params };
    }
    if (!best) return null;
    const pathItem = doc.paths[best.template];
    const op = pathItem[method.toLowerCase()];
    return op ? { template: best.template, pathItem, op, params: best.params } : { template: best.template, pathItem, op: null, params: best.params };
  }

  /** Problems of one request; empty when it conforms. */
  function problems(req: RecordedRequest): string[] {
    const at = `${req.method} ${req.path}`;
    const out: string[] = [];
    const found = findOperation(req.method, req.path);
    if (!found) return [`${at}: no path template matches`];
    if (!found.op) return [`${at}: ${found.template} has no ${req.method.toLowerCase()} operation`];
    const { op, pathItem } = found;
    const params: Schema[] = [...(pathItem.parameters ?? []), ...(op.parameters ?? [])];
    for (const [name, value] of Object.entries(found.params)) {
      const p = params.find((x) => x.in === 'path' && x.name === name);
      if (!p) out.push(`${at}: path parameter ${name} is not declared`);
      else if (!value) out.push(`${at}: path parameter ${name} is empty`);
    }
    const allowed = new Map<string, Schema>();
    for (const p of params.filter((x) => x.in === 'query')) {
      const s = resolve(p.schema);
      if (s.type === 'object' || s.properties) {
        // style: form, explode: true (the defaults): the object's properties are the query keys.
        const keys = Object.keys(s.properties ?? {});
        keys.forEach((k) => allowed.set(k, s.properties[k]));
        if (p.required || keys.some((k) => req.query.has(k))) {
          for (const r of s.required ?? []) if (!req.query.has(r)) out.push(`${at}: missing required query parameter ${r}`);
        }
      } else {
        allowed.set(p.name, p.schema);
        if (p.required && !req.query.has(p.name)) out.push(`${at}: missing required query parameter ${p.name}`);
      }
    }
    for (const [k, v] of req.query) {
      const s = allowed.get(k);
      if (!s) out.push(`${at}: unknown query parameter ${k} for ${op.operationId}`);
      else checkScalar(s, v, `${at} ?${k}`, out);
    }
    if (options.apiKeyHeader && !req.headers[options.apiKeyHeader.toLowerCase()]) out.push(`${at}: no ${options.apiKeyHeader} header`);
    const rb = op.requestBody;
    if (!rb) {
      if (req.body.length) out.push(`${at}: a body sent to ${op.operationId}, which takes none`);
      return out;
    }
    if (!req.body.length) {
      if (rb.required) out.push(`${at}: missing required body`);
      return out;
    }
    const contentType = String(req.headers['content-type'] ?? '')
      .split(';')[0]
      .trim()
      .toLowerCase();
    const allowance = options.allow?.find((a) => a.operationId === op.operationId && a.contentType !== undefined && a.contentType === contentType);
    const media = rb.content?.[contentType] ?? (allowance ? Object.values(rb.content ?? {})[0] : undefined);
    if (!media) {
      out.push(`${at}: Content-Type ${contentType || '(none)'} is not one of ${Object.keys(rb.content ?? {}).join(', ')}`);
      return out;
    }
    if (contentType === 'application/json') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(req.body);
      } catch {
        out.push(`${at}: body is not JSON`);
        return out;
      }
      check(media.schema ?? {}, parsed, 'body', out);
      const allowed = options.allow?.filter((a) => a.operationId === op.operationId && a.property).map((a) => `: unknown property ${a.property}`) ?? [];
      if (allowed.length) out.splice(0, out.length, ...out.filter((p) => !allowed.some((a) => p.endsWith(a))));
    } else {
      check(media.schema ?? {}, req.body, 'body', out);
    }
    return out.map((p) => (p.startsWith('body') ? `${at} ${p}` : p));
  }

  return { problems, operationId: (req: RecordedRequest) => findOperation(req.method, req.path)?.op?.operationId as string | undefined };
}
