import { AsyncLocalStorage } from 'node:async_hooks';
import { pino, stdSerializers, type DestinationStream } from 'pino';

/** The logging interface every caller uses: a message and optional fields. */
export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export type LogLevel = 'debug' | 'info' | 'warn' | 'error' | 'silent';

/** What is known about the request (or job) being served; every log line written inside it carries these. */
const scope = new AsyncLocalStorage<{ request_id?: string; job_id?: string }>();

/** Runs `fn` with `fields` added to every log line written within it (the API's request id, a worker's job id). */
export function withLogScope<T>(fields: { request_id?: string; job_id?: string }, fn: () => T): T {
  return scope.run(fields, fn);
}

/**
 * Field paths whose values never reach a log line (pino's fast redaction: paths compiled once).
 * Keys, secrets, tokens and authorization headers, at the top level and one level down.
 */
export const REDACT_PATHS = [
  'key',
  'apiKey',
  'api_key',
  'secret',
  'token',
  'password',
  'authorization',
  'signingSecret',
  'signing_secret',
  '*.key',
  '*.apiKey',
  '*.api_key',
  '*.secret',
  '*.token',
  '*.password',
  '*.authorization',
  '*.signingSecret',
  '*.signing_secret',
  'headers.authorization',
  'headers["x-api-key"]',
  'headers.cookie',
  'headers["x-algolia-api-key"]',
];

/** Full credentials (`sk_live_…`, `pk_live_…`, `ds_…`, `whsec_…`) inside any logged text become `[redacted]`. */
const CREDENTIAL = /\b(sk_live_|pk_live_|ds_|whsec_)[A-Za-z0-9_-]{8,}/g;

/**
 * JSON lines on stderr through pino: `time`, `level` (as a name), `msg`, the request or job id of
 * the scope it is written in, then the fields. Errors are serialized with their stack.
 */
export function createLogger(level: LogLevel, base: Record<string, unknown> = {}, destination?: DestinationStream): Logger {
  const log = pino(
    {
      level,
      base,
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: { err: stdSerializers.err, error: stdSerializers.err, e: stdSerializers.err },
      formatters: { level: (label) => ({ level: label }) },
      mixin: () => scope.getStore() ?? {},
    },
    destination ?? pino.destination({ fd: 2, sync: true }),
  );
  const write = (lvl: 'debug' | 'info' | 'warn' | 'error') => (msg: string, fields?: Record<string, unknown>) => {
    if (!log.isLevelEnabled(lvl)) return;
    const text = msg.replace(CREDENTIAL, '$1[redacted]');
    if (fields) log[lvl](scrub(fields), text);
    else log[lvl](text);
  };
  return { debug: write('debug'), info: write('info'), warn: write('warn'), error: write('error') };
}

/** Top-level string fields are checked for credentials too (a key pasted into a query, say). */
function scrub(fields: Record<string, unknown>): Record<string, unknown> {
  let out = fields;
  for (const [k, v] of Object.entries(fields)) {
    if (typeof v === 'string' && CREDENTIAL.test(v)) {
      CREDENTIAL.lastIndex = 0;
      if (out === fields) out = { ...fields };
      out[k] = v.replace(CREDENTIAL, '$1[redacted]');
    }
    CREDENTIAL.lastIndex = 0;
  }
  return out;
}
