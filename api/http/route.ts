import type { Router, RouterMiddleware } from '@koa/router';
import type { Context } from 'koa';
import { z } from 'zod';
import type { Deps } from '../../shared/deps.js';
import { AppError, type FieldError } from '../../shared/platform/errors.js';
import { auth, type AuthRule } from './middleware/auth.js';
import { readBody } from './middleware/json-body.js';
import { idempotency } from './middleware/idempotency.js';
import { allTextValid, invalidText } from '../../shared/text/valid-text.js';
import type { ErrorBodyShaper } from './middleware/error-handler.js';

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteSpec<P = unknown, Q = unknown, B = unknown> {
  method: Method;
  /** OpenAPI-style path, e.g. `/v1/keys/{key_id}`. */
  path: string;
  summary: string;
  tag: string;
  /** null: no credential needed. */
  auth: AuthRule | null;
  idempotent?: boolean;
  /**
   * The text an Idempotency-Key's request hash covers, from the validated input (default: the
   * body's canonical JSON). Must give equal texts for requests that do the same thing and
   * different texts otherwise; a route that canonicalizes its body anyway reuses that work here.
   */
  requestText?(input: { params: P; query: Q; body: B }): string;
  /** Body fields whose items the handler checks one by one, text included, so one bad item fails alone (batch upserts, import files). */
  itemFields?: readonly string[];
  params?: z.ZodType<P>;
  query?: z.ZodType<Q>;
  body?: z.ZodType<B>;
  /**
   * The body as the OpenAPI document shows it, when `body` takes some fields as unknown because
   * the handler checks them item by item (itemFields): clients still need to see what an item is.
   */
  docBody?: z.ZodType;
  /** The query as the OpenAPI document shows it, when the route reads some parameters by pattern (search's `filter[<name>]...`). */
  docQuery?: z.ZodType;
  /** By status; `contentType` when the body is not JSON (a file), `headers` the response headers the route sets (name -> description). */
  responses: Record<number, { description: string; schema?: z.ZodType; contentType?: string; headers?: Record<string, string> }>;
  /** Reshapes this route's error bodies for clients that read another format (the Algolia protocol reads a top-level `message`). */
  errorBody?: ErrorBodyShaper;
  handle(ctx: Context, input: { params: P; query: Q; body: B }): Promise<void> | void;
}

/** Declares a route; the same schemas validate requests and generate the OpenAPI document. */
export function defineRoute<P = unknown, Q = unknown, B = unknown>(spec: RouteSpec<P, Q, B>): RouteSpec {
  return spec as unknown as RouteSpec;
}

/**
 * The query of a /v1 route that declares none: it takes no parameters, so an unknown one is 400
 * `unknown_field` as on every route that declares some (`GET /v1/usage?period=...` answered this
 * month's usage, `POST /v1/reindex?mode=settings_only` ran a full reindex).
 */
const NO_QUERY = z.strictObject({});

/** Adds routes to a router: auth -> body -> validate -> idempotency -> handler. */
export function mountRoutes(router: Router, deps: Deps, routes: RouteSpec[]): void {
  for (const route of routes) {
    // `*` is literal in our paths (the Algolia protocol's /1/indexes/*/queries); the router reads a bare one as a wildcard.
    const koaPath = route.path.replace(/\{(\w+)\}/g, ':$1').replace(/\*/g, '\\*');
    const chain: RouterMiddleware[] = [];
    if (route.errorBody) {
      const shaper = route.errorBody;
      chain.push((ctx, next) => {
        ctx.state.errorBody = shaper;
        return next();
      });
    }
    if (route.auth) chain.push(auth(deps, route.auth));
    // The body is read only now, after authentication (jsonBody).
    chain.push(readBody);
    // Plain functions, not async ones: a throw becomes the chain's rejection all the same (koa-compose), without a promise each.
    chain.push((ctx, next) => {
      checkText(ctx, route.itemFields);
      ctx.state.input = {
        params: parse(route.params, ctx.params, 'path'),
        query: parse(route.query ?? (route.path.startsWith('/v1/') ? NO_QUERY : undefined), ctx.query, 'query'),
        body: parse(route.body, (ctx.request as { body?: unknown }).body, 'body'),
      };
      return next();
    });
    // A replay answers the headers the route documents (X-Job-Id...) as the first answer did.
    if (route.idempotent)
      chain.push(idempotency(deps, route.requestText, [...new Set(Object.values(route.responses).flatMap((r) => Object.keys(r.headers ?? {})))], route.path));
    chain.push(deps.config.checkResponses ? checked(route) : (ctx) => route.handle(ctx, ctx.state.input));
    router[route.method](koaPath, ...chain);
  }
}

/**
 * 400 `invalid_text` for any path segment, query value or body string (keys included) that cannot
 * be stored: percent-encoding that is not UTF-8, lone surrogates, U+0000. Run on every route, so
 * no field can forget it and nothing is silently changed to U+FFFD on its way to Postgres.
 */
function checkText(ctx: Context, itemFields: readonly string[] | undefined): void {
  const path = ctx.path;
  const query = ctx.querystring;
  const body = (ctx.request as { body?: unknown }).body;
  // Nearly every request passes: checked without building anything, the details only for one that fails.
  if (
    (!path.includes('%') || decodes(path)) &&
    (!query.includes('%') || decodes(query)) &&
    allTextValid(ctx.params) &&
    allTextValid(ctx.query) &&
    allTextValid(body, itemFields)
  ) {
    return;
  }
  const details: Array<FieldError & { in: string }> = [];
  for (const [where, raw] of [
    ['path', path],
    ['query', query],
  ] as const) {
    if (raw.includes('%') && !decodes(raw))
      details.push({ in: where, field: '(raw)', code: 'invalid_text', message: 'percent-encoding must be of UTF-8 bytes' });
  }
  const found = [
    ...invalidText(ctx.params).map((f) => ({ in: 'path', ...f })),
    ...invalidText(ctx.query).map((f) => ({ in: 'query', ...f })),
    ...invalidText(body, { skip: itemFields }).map((f) => ({ in: 'body', ...f })),
  ];
  for (const f of found) details.push({ in: f.in, field: f.field, code: 'invalid_text', message: f.message });
  if (details.length) {
    throw new AppError('invalid_text', 400, `${details[0].in} ${details[0].field}: ${details[0].message}`, details);
  }
}

/** False for %-escapes of bytes that are not UTF-8; a stray `%` (as in `q=50%`) is taken literally, as the query parser does. */
function decodes(raw: string): boolean {
  try {
    decodeURIComponent(raw.replace(/%(?![0-9a-fA-F]{2})/g, '%25'));
    return true;
  } catch {
    return false;
  }
}

function parse(schema: z.ZodType | undefined, value: unknown, where: 'path' | 'query' | 'body'): unknown {
  if (!schema) return value;
  if (where === 'body' && value === undefined) value = {};
  // reportInput: issueCode needs each issue's input to tell a missing field from a wrong one.
  const result = schema.safeParse(value, { reportInput: true });
  if (result.success) return result.data;
  throw validationError(result.error, where);
}

/** One field error per problem; unknown fields each get their own `unknown_field` entry. */
export function validationError(error: z.ZodError, where: string): AppError {
  const details: Array<FieldError & { in: string }> = [];
  for (const issue of error.issues.flatMap(branchIssues)) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        details.push({ in: where, field: base ? `${base}.${key}` : key, code: 'unknown_field', message: `unknown field "${key}"` });
      }
      continue;
    }
    details.push({ in: where, field: base || '(root)', code: issueCode(issue), message: issue.message });
  }
  const first = details[0];
  const message = first ? `invalid ${where}: ${first.field}: ${first.message}` : `invalid ${where}`;
  return new AppError('validation_failed', 400, message, details);
}

/**
 * A union's failure as the issues of its one branch of the input's type, when there is one: a list
 * of 101 filter values is `too_long` at the list, not `invalid_union` "Invalid input". Otherwise the issue.
 */
function branchIssues(issue: z.core.$ZodIssue): z.core.$ZodIssue[] {
  if (issue.code !== 'invalid_union' || !issue.errors?.length) return [issue];
  const near = issue.errors.filter((branch) => !branch.every((i) => i.path.length === 0 && (i.code === 'invalid_type' || i.code === 'invalid_union')));
  if (near.length !== 1) return [issue];
  return near[0].flatMap((i) => branchIssues({ ...i, path: [...issue.path, ...i.path] } as z.core.$ZodIssue));
}

function issueCode(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' ? 'too_long' : 'too_large';
    case 'too_small':
      return issue.origin === 'string' || issue.origin === 'array' ? 'too_short' : 'too_small';
    case 'invalid_type':
    case 'invalid_value':
      return (issue as { input?: unknown }).input === undefined ? 'required' : issue.code;
    default:
      return issue.code;
  }
}

/**
 * The route's handler, then its answer checked against the schema documented for its status
 * (RESPONSE_SCHEMA_CHECK, on in tests): an answer the OpenAPI document does not describe (a field
 * missing, null where it may not be, of another type) fails as a 500 naming the route and the
 * fields. Fields beyond the schema are allowed, as zod objects allow them.
 */
function checked(route: RouteSpec): RouterMiddleware {
  return async (ctx) => {
    await route.handle(ctx, ctx.state.input);
    const schema = route.responses[ctx.status]?.schema;
    if (!schema || ctx.body == null || Buffer.isBuffer(ctx.body) || typeof (ctx.body as { pipe?: unknown }).pipe === 'function') return;
    let body: unknown = ctx.body;
    if (typeof body === 'string' && /json/.test(ctx.type)) body = JSON.parse(body);
    const result = schema.safeParse(body);
    if (!result.success) {
      const fields = result.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
      throw new Error(`${route.method.toUpperCase()} ${route.path} answered ${ctx.status} outside its documented schema: ${fields.join('; ')}`);
    }
  };
}
