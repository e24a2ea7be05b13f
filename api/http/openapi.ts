import { z } from 'zod';
import type { RouteSpec } from './route.js';
import { PUBLIC_SCOPES, SCOPE_DOCS } from '../../shared/access/scopes.js';

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const json = toSchema(schema, 'input');
  const props = (json.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((json.required as string[] | undefined) ?? []);
  return Object.entries(props).map(([name, s]) => ({
    name,
    in: where,
    required: where === 'path' || required.has(name),
    schema: s,
    // An object in the query string is written `name[key]=value` (`filter[brand]=a,b`, `filter[price][gte]=10`).
    ...(s.type === 'object' ? { style: 'deepObject', explode: true } : {}),
    ...(s.description ? { description: s.description } : {}),
  }));
}

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message', 'request_id'],
      properties: {
        code: { type: 'string', description: 'stable snake_case code' },
        message: { type: 'string' },
        details: { description: 'field errors: [{in, field, code, message}] or an object' },
        request_id: { type: 'string' },
      },
    },
  },
};

const errorContent = { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } };
const REQUEST_ID = { description: 'the request id (an error body repeats it as request_id)', schema: { type: 'string' } };
const requestIdHeader = { 'X-Request-Id': { $ref: '#/components/headers/X-Request-Id' } };
const retryAfter = { ...requestIdHeader, 'Retry-After': { description: 'seconds to wait before retrying', schema: { type: 'integer' } } };
const replayed = {
  'Idempotent-Replayed': { description: '`true` when this is the kept answer of an earlier request with the same Idempotency-Key', schema: { type: 'string' } },
};

/** True for a list's query: one with a `cursor` (or the approved feed's `since`). */
function pagesByCursor(query: z.ZodType | undefined): boolean {
  const props = query ? ((toSchema(query, 'input').properties ?? {}) as JsonSchema) : {};
  return 'cursor' in props || 'since' in props;
}

/**
 * The error answers a route can give, by what it takes (input, a credential) and does: every
 * status the middleware can answer for it is listed, so a client generated from the document
 * knows them; a route adds its own (a 409 conflict, a 402) as 4xx entries of its `responses`.
 */
function errorResponses(r: RouteSpec): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  const error = (description: string, headers: JsonSchema = requestIdHeader) => ({ description, headers, content: errorContent });
  if (r.params || r.query || r.body || r.idempotent) {
    out['400'] = error(
      'bad input: `validation_failed` (field details), `invalid_text` (a lone surrogate, U+0000 or non-UTF-8 escapes in any string; per item inside a batch)' +
        (r.body ? ', `json_too_deep` (nesting over 64 levels), `malformed_json`' : '') +
        (pagesByCursor(r.query) ? ', `invalid_cursor`' : '') +
        (r.idempotent ? ', `invalid_idempotency_key`' : ''),
    );
  }
  if (r.auth) {
    out['401'] = error('`key_missing`, `key_invalid`, `key_revoked`, `key_expired`, `session_revoked`, `session_expired`');
    const publicKeys = r.auth.scope === null || PUBLIC_SCOPES.includes(r.auth.scope);
    out['403'] = error(
      '`scope_missing` (the credential lacks the scope in x-scope), `key_kind_not_allowed`' +
        (publicKeys ? ', `origin_missing` or `origin_not_allowed` (a public key from a browser origin not in its allowed_origins)' : ''),
    );
  }
  if (r.params) out['404'] = error('`not_found`: no such resource in this store');
  if (r.idempotent) {
    out['409'] = error(
      '`idempotency_key_reused` (the Idempotency-Key came with another body) or `idempotency_in_progress` (retry after `Retry-After`)',
      retryAfter,
    );
  }
  if (r.body) {
    out['413'] = error('`payload_too_large`: the body is over the size limit');
    out['415'] = error('`unsupported_media_type`: a body must be application/json');
  }
  if (r.auth) {
    out['429'] = error(
      '`rate_limited` (per-credential limit) or `auth_throttled` (too many failed authentications from this address or key prefix)',
      retryAfter,
    );
  }
  out['503'] = error(
    "`query_timeout` (a statement passed the request path's time limit), `dependency_unavailable` (Postgres or Redis could not be reached) or `not_ready`; retry after `Retry-After`" +
      (r.idempotent
        ? '. With an Idempotency-Key, `dependency_unavailable` also when the request ran but neither Postgres nor Redis could keep its answer: retry with the same key'
        : ''),
    retryAfter,
  );
  // The route's own error answers: their description joins the generic one of the same status.
  for (const [status, res] of Object.entries(r.responses)) {
    if (Number(status) < 400) continue;
    const generic = out[status]?.description;
    out[status] = error(generic ? `${res.description}; ${generic as string}` : res.description, (out[status]?.headers as JsonSchema | undefined) ?? undefined);
  }
  return out;
}

/** A body is required only when it has required fields: an absent body reads as `{}` (route.ts parse), so every field then takes its default. */
function requestBody(schema: JsonSchema): JsonSchema {
  return { required: ((schema.required as string[] | undefined) ?? []).length > 0, content: { 'application/json': { schema } } };
}

/** How every string limit of the document counts (zod's limits count the same way; spec 8 is in characters). */
const LENGTHS = 'String lengths (minLength, maxLength) count Unicode code points: an emoji is one character.';

/** OpenAPI 3.1 document built from the registered routes' own zod schemas. */
export function buildOpenApi(routes: RouteSpec[]): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const r of routes) {
    const params = [...parameters(r.params, 'path'), ...parameters(r.docQuery ?? r.query, 'query')];
    if (r.idempotent)
      params.push({
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          'The first answer (2xx, or a 4xx other than 400, 402, 429 and one with Retry-After such as 409 `billing_change_in_progress`) is kept and answered again to a retry with the same key and body (`Idempotent-Replayed: true`), also to one made during or after a Postgres outage: an answer Postgres could not take is kept in Redis until it can.',
        schema: { type: ['string', 'null'], pattern: '^[A-Za-z0-9_\\-:.]{8,255}$' },
      });
    const responses: Record<string, JsonSchema> = {};
    for (const [status, res] of Object.entries(r.responses)) {
      if (Number(status) >= 400) continue;
      const headers: JsonSchema = { ...requestIdHeader, ...(r.idempotent ? replayed : {}) };
      for (const [name, description] of Object.entries(res.headers ?? {})) headers[name] = { description, schema: { type: 'string' } };
      responses[status] = {
        description: res.description,
        headers,
        ...(res.schema ? { content: { [res.contentType ?? 'application/json']: { schema: toSchema(res.schema, 'output') } } } : {}),
      };
    }
    Object.assign(responses, errorResponses(r));
    responses.default = { description: 'error', content: errorContent };
    (paths[r.path] ??= {})[r.method] = {
      summary: r.summary,
      tags: [r.tag],
      operationId: `${r.method}${r.path
        .replace(/[{}]/g, '')
        .replace(/\/(\w)/g, (_, c: string) => c.toUpperCase())
        .replace(/\W/g, '')}`,
      ...(r.auth
        ? { security: [{ bearer: r.auth.scope ? [r.auth.scope] : [] }, { apiKeyHeader: r.auth.scope ? [r.auth.scope] : [] }], 'x-scope': r.auth.scope }
        : { security: [] }),
      ...(params.length ? { parameters: params } : {}),
      ...(r.body ? { requestBody: requestBody(toSchema(r.docBody ?? r.body, 'input')) } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Product search service',
      version: '1.0.0',
      description: `Send a key as "Authorization: Bearer <key>" (or "X-API-Key: <key>"). ${LENGTHS} Scopes:\n${Object.entries(SCOPE_DOCS)
        .map(([s, d]) => `- ${s}: ${d}`)
        .join('\n')}`,
    },
    paths,
    components: {
      schemas: { Error: ERROR_SCHEMA },
      headers: { 'X-Request-Id': REQUEST_ID },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'API key (pk_live_/sk_live_) or dashboard session token (ds_)' },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
  };
}
