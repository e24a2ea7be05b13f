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
 * enumerates them), so equal values hash equally. Objects out of order are copied sorted first,
 * then serialized natively in one call (a replacer would call back into JS for every value).
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(inKeyOrder(value)) ?? 'null';
}

/** `value` with every object's keys sorted; parts already in order are shared, not copied. */
function inKeyOrder(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    let out: unknown[] | null = null;
    for (let i = 0; i < value.length; i++) {
      const v = inKeyOrder(value[i]);
      if (v !== value[i]) (out ??= value.slice())[i] = v;
    }
    return out ?? value;
  }
  const obj = value as Record<string, unknown>;
  const keys = Object.keys(obj);
  let ordered = true;
  for (let i = 1; i < keys.length && ordered; i++) ordered = keys[i - 1] <= keys[i];
  if (!ordered) keys.sort();
  let out: Record<string, unknown> | null = null;
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    const v = inKeyOrder(obj[k]);
    if (!out && (!ordered || v !== obj[k])) {
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = obj[keys[j]];
    }
    if (out) out[k] = v;
  }
  return out ?? value;
}
