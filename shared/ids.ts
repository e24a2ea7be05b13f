import { createHash, randomBytes, randomFillSync } from 'node:crypto';

const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
/** Random bytes drawn ahead, so an id (one per search) costs no call into the CSPRNG. */
const pool = Buffer.alloc(4096);
let used = pool.length;

/** Random id with a readable prefix, e.g. `key_3k9...`; 16 chars of base36 (~82 bits). */
export function newId(prefix: string, length = 16): string {
  if (used + length > pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  let out = `${prefix}_`;
  for (let i = 0; i < length; i++) out += ALPHABET[pool[used + i] % 36];
  used += length;
  return out;
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
