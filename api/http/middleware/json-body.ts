import type { Context, Next } from 'koa';
import { AppError } from '../../../shared/platform/errors.js';
import { decodeUtf8, jsonTooDeepAt, MAX_JSON_DEPTH } from '../../../shared/platform/json-text.js';

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/**
 * Reads a JSON body up to `limit` bytes into ctx.request.body: 413 past the limit, 415 for
 * another content type, 400 `invalid_text` for bytes that are not UTF-8, 400 `json_too_deep`
 * past MAX_JSON_DEPTH levels of nesting (checked on the raw text, before anything recurses),
 * 400 for malformed JSON. An empty body reads as undefined. Under
 * `plainTextPrefixes`, a `text/plain` body is read as JSON too: browser clients of the Algolia
 * protocol (algoliasearch lite, search-insights' sendBeacon) send JSON as text/plain so that no
 * CORS preflight is needed. Under `rawPrefixes` the raw bytes are kept in ctx.state.rawBody, unparsed.
 * `pathLimits` raises the limit for paths whose contract allows larger bodies.
 *
 * The body is read when a route asks for it (readBody), after the route has authenticated the
 * caller: a request without a valid key gets its 401 before a byte of its body is parsed, and a
 * request no route takes is never read.
 */
export function jsonBody(
  defaultLimit: number,
  plainTextPrefixes: string[] = [],
  rawPrefixes: string[] = [],
  large: LargeBodies = { bytes: Infinity, concurrency: 1 },
  pathLimits: Record<string, number> = {},
) {
  const gate = new Gate(large.concurrency);
  // Requests without a body pass straight on (no async function, no promise of its own).
  return (ctx: Context, next: Next) => (METHODS_WITH_BODY.has(ctx.method) ? lazily(ctx, next) : next());
  async function lazily(ctx: Context, next: Next) {
    let gated = false;
    (ctx.state as { readBody?: () => Promise<void> }).readBody = async () => {
      // A path whose contract allows more than the default (the synonyms import's 2,000,000 characters) has its own limit.
      const limit = Math.max(defaultLimit, pathLimits[ctx.path] ?? 0);
      const declared = Number(ctx.get('content-length') || 0);
      if (declared > limit) throw tooLarge(limit);
      const raw = await readRaw(ctx, limit);
      // Under `rawPrefixes` (payment webhooks) the bytes stay as sent: their signature covers them, and is checked before any parsing.
      if (rawPrefixes.some((p) => ctx.path.startsWith(p))) {
        ctx.state.rawBody = raw;
        return;
      }
      // A large body (a catalog batch) becomes tens of megabytes of objects until its request ends:
      // only `large.concurrency` at a time per process, the others wait read but not parsed.
      if (raw.length >= large.bytes) {
        await gate.enter();
        gated = true;
      }
      parse(ctx, raw, plainTextPrefixes);
    };
    try {
      await next();
    } finally {
      if (gated) gate.leave();
    }
  }
}

/** Reads the request's body if it has one (jsonBody); a route's chain calls it after authentication. */
export function readBody(ctx: Context, next: Next) {
  const read = (ctx.state as { readBody?: () => Promise<void> }).readBody;
  if (!read) return next();
  ctx.state.readBody = undefined;
  return read().then(next);
}

/** Bodies of at least `bytes` are parsed and handled `concurrency` at a time (JSON_LARGE_BODY_BYTES, JSON_LARGE_BODY_CONCURRENCY). */
export interface LargeBodies {
  bytes: number;
  concurrency: number;
}

/** A counting semaphore, first come first served. */
class Gate {
  private active = 0;
  private waiting: Array<() => void> = [];

  constructor(private size: number) {}

  async enter(): Promise<void> {
    if (this.active < this.size) {
      this.active++;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  leave(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}

/** The body as JSON in ctx.request.body (see jsonBody). */
function parse(ctx: Context, raw: Buffer, plainTextPrefixes: string[]): void {
  if (raw.length > 0) {
    const type = ctx.get('content-type');
    const plainOk = plainTextPrefixes.some((p) => ctx.path.startsWith(p)) && /^text\/plain\b/i.test(type);
    if (type && !plainOk && !/^application\/([a-z.+-]*\+)?json\b/i.test(type)) {
      throw new AppError('unsupported_media_type', 415, 'request bodies must be application/json');
    }
    const text = decodeUtf8(raw);
    if (text === null) {
      throw new AppError('invalid_text', 400, 'request body is not valid UTF-8', [
        { in: 'body', field: '(root)', code: 'invalid_text', message: 'JSON must be encoded as UTF-8' },
      ]);
    }
    const deepAt = jsonTooDeepAt(text);
    if (deepAt >= 0) {
      throw new AppError('json_too_deep', 400, `request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at character ${deepAt})`, {
        max_depth: MAX_JSON_DEPTH,
      });
    }
    try {
      (ctx.request as { body?: unknown }).body = JSON.parse(text);
    } catch (err) {
      throw new AppError('malformed_json', 400, `request body is not valid JSON: ${(err as Error).message}`);
    }
  }
}

function tooLarge(limit: number) {
  return new AppError('payload_too_large', 413, `request body is larger than ${limit} bytes`);
}

async function readRaw(ctx: Context, limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    size += (chunk as Buffer).length;
    if (size > limit) {
      ctx.req.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}
