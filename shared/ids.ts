import { createHash, randomBytes } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';

/** Random id with a readable prefix, e.g. `key_3k9...`; 16 chars of base36 (~82 bits). */
export function newId(prefix: string, length = 16): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i] % 36];
  return `${prefix}_${out}`;
}

/** URL-safe random secret of `bytes` bytes. */
export function randomSecret(bytes = 24): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * JSON with object keys in one fixed order (sorted; integer-like keys first, as JavaScript
 * enumerates them), so equal values hash equally. Native serialization; objects already in order
 * are not copied.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, sortKeys) ?? 'null';
}

function sortKeys(_key: string, value: unknown): unknown {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1] <= keys[i];
  if (sorted) return value;
  const out: Record<string, unknown> = {};
  for (const k of keys.sort()) out[k] = obj[k];
  return out;
}
