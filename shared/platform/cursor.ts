import { createHash } from 'node:crypto';
import { z } from 'zod';
import { AppError } from './errors.js';
import { textProblem } from '../text/valid-text.js';

/**
 * Opaque page cursors: base64url JSON of the last row's sort key. Every list pages through one
 * codec per cursor shape, and a cursor is validated once, here, against that shape's schema: a
 * forged one is 400 `invalid_cursor` before any query sees it (a date JavaScript reads but
 * Postgres refuses, such as "1", used to reach the database and answer 500).
 */
export interface CursorCodec<T> {
  encode(value: T): string;
  /** undefined for no cursor; throws 400 invalid_cursor for one this API could not have returned. */
  decode(cursor: string | null | undefined): T | undefined;
}

/**
 * Strict ISO 8601 with an offset and a four-digit year, whose UTC time is in years 1 to 9999: what
 * Postgres and JavaScript both read the same way (year 0000, or 9999-12-31T23:59-23:59, which is
 * year 10000 in UTC, reached Postgres and answered 500).
 */
export const CursorTime = z.iso.datetime({ offset: true }).refine((s) => {
  const year = new Date(s).getUTCFullYear();
  return year >= 1 && year <= 9999;
});
/** A row id or product id as stored: text Postgres can compare (no NUL, no lone surrogate). */
export const CursorId = z
  .string()
  .min(1)
  .max(128)
  .refine((s) => textProblem(s) === null);

export function cursorCodec<T>(schema: z.ZodType<T>): CursorCodec<T> {
  return {
    encode: (value) => Buffer.from(JSON.stringify(value)).toString('base64url'),
    decode(cursor) {
      if (!cursor) return undefined;
      let value: unknown;
      try {
        value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
      } catch {
        throw invalidCursor();
      }
      const parsed = schema.safeParse(value);
      if (!parsed.success) throw invalidCursor();
      return parsed.data;
    },
  };
}

/** Lists ordered by (time, id): synonyms, global rules, suggestions. `at` keeps Postgres's microseconds. */
export const timeIdCursor = cursorCodec(z.strictObject({ at: CursorTime, id: CursorId }));
/** Longest cursor a client may send back (spec 8: cursor max 200 characters). */
export const MAX_CURSOR_CHARS = 200;

/**
 * Where a page ordered by id alone starts: after `after`, or, for an id whose cursor would pass
 * MAX_CURSOR_CHARS (ids are up to 128 characters, and a non-ASCII or quote-heavy one takes up to
 * 3 bytes each before base64), after the id that starts with `prefix` and whose md5 begins with `hash`.
 */
export type IdAfter = { after: string } | { prefix: string; hash: string };

const plainIdCursor = cursorCodec(z.strictObject({ after: CursorId }));
const longIdCursor = cursorCodec(z.strictObject({ prefix: CursorId, hash: z.string().regex(/^[0-9a-f]{16}$/) }));

/** Lists ordered by id alone: products. Every cursor it encodes fits MAX_CURSOR_CHARS, so it can be passed back. */
export const idCursor: CursorCodec<IdAfter> = {
  encode(value) {
    if (!('after' in value)) return longIdCursor.encode(value);
    const plain = plainIdCursor.encode(value);
    if (plain.length <= MAX_CURSOR_CHARS) return plain;
    const hash = createHash('md5').update(value.after).digest('hex').slice(0, 16);
    return longIdCursor.encode({ prefix: prefixThatFits(value.after, (prefix) => longIdCursor.encode({ prefix, hash })), hash });
  },
  decode(cursor) {
    if (!cursor) return undefined;
    try {
      return plainIdCursor.decode(cursor);
    } catch {
      return longIdCursor.decode(cursor);
    }
  },
};

/** The longest prefix of `text` (whole code points, at least one) whose cursor, made by `encode`, fits MAX_CURSOR_CHARS. */
export function prefixThatFits(text: string, encode: (prefix: string) => string): string {
  const chars = [...text];
  let n = chars.length - 1;
  while (n > 1 && encode(chars.slice(0, n).join('')).length > MAX_CURSOR_CHARS) n--;
  return chars.slice(0, n).join('');
}

export function invalidCursor(): AppError {
  return new AppError('invalid_cursor', 400, 'cursor is not one this API returned', [
    { in: 'query', field: 'cursor', code: 'invalid_cursor', message: 'pass back next_cursor unchanged' },
  ]);
}

/**
 * One page of a list: asks `fetch` for one row more than `limit` (so no count is needed to know
 * another page exists), returns `limit` rows mapped by `out`, and the cursor of the last one.
 */
export async function cursorPage<Row, Key, Out>(
  codec: CursorCodec<Key>,
  limit: number,
  fetch: (n: number) => Promise<Row[]>,
  keyOf: (last: Row) => Key,
  out: (row: Row) => Out,
): Promise<{ data: Out[]; next_cursor: string | null }> {
  const rows = await fetch(limit + 1);
  const kept = rows.slice(0, limit);
  const more = rows.length > limit && kept.length > 0;
  return { data: kept.map(out), next_cursor: more ? codec.encode(keyOf(kept[kept.length - 1])) : null };
}
