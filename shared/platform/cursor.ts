import { AppError } from './errors.js';

/** Opaque page cursors: base64url JSON of the last row's sort key. */
export function encodeCursor(value: Record<string, unknown>): string {
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

export function decodeCursor<T extends Record<string, unknown>>(cursor: string | null | undefined, keys: (keyof T)[]): T | undefined {
  if (!cursor) return undefined;
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (value && typeof value === 'object' && keys.every((k) => k in value)) return value as T;
  } catch {
    // fall through to the error below
  }
  throw new AppError('invalid_cursor', 400, 'cursor is not one this API returned', [{ field: 'cursor', code: 'invalid_cursor', message: 'pass back next_cursor unchanged' }]);
}
