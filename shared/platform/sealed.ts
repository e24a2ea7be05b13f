import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** How a sealed value is stored in a json column: `{ "sealed": "v1.<key id>.<iv>.<tag>.<ciphertext>" }` (base64url parts). */
export interface Sealed {
  sealed: string;
}

export class SealedOpenError extends Error {}

/**
 * AES-256-GCM with a server key (SECRET_ENCRYPTION_KEY) for values that must not sit readable in
 * the database, such as an idempotent replay of a response carrying a new secret key. The key id
 * (first bytes of the key's SHA-256) tells a value sealed under another key from a corrupted one.
 */
export class Sealer {
  private readonly keyId: string;

  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('the sealing key must be 32 bytes');
    this.keyId = createHash('sha256').update(key).digest('base64url').slice(0, 8);
  }

  seal(value: unknown): Sealed {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(value ?? null), 'utf8'), cipher.final()]);
    return { sealed: ['v1', this.keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.') };
  }

  static isSealed(value: unknown): value is Sealed {
    return !!value && typeof value === 'object' && typeof (value as Sealed).sealed === 'string' && Object.keys(value).length === 1;
  }

  /** The value, or SealedOpenError when it was sealed under another key or altered. */
  open(value: Sealed): unknown {
    const [version, keyId, iv, tag, data] = value.sealed.split('.');
    if (version !== 'v1' || keyId !== this.keyId) throw new SealedOpenError('sealed under another key');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8'));
    } catch {
      throw new SealedOpenError('sealed value does not authenticate');
    }
  }
}

/** Reads SECRET_ENCRYPTION_KEY: 64 hex characters or 32 bytes in base64/base64url. */
export function parseSealingKey(text: string): Buffer | null {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  const bytes = Buffer.from(text, 'base64');
  return bytes.length === 32 && /^[A-Za-z0-9+/_-]{43}=?$/.test(text) ? bytes : null;
}

/** The development default: derived in the open from a fixed phrase, so anyone can compute it; never use it in production. */
export const DEV_SEALING_KEY = createHash('sha256').update('product-search-service development SECRET_ENCRYPTION_KEY (not secret)').digest();

/**
 * A stored object (a job's result) with its sealed top-level fields opened, for the store that owns
 * it; a field sealed under another key (SECRET_ENCRYPTION_KEY rotated) or altered reads as null.
 */
export function openSealedFields(value: Record<string, unknown>, sealer: Sealer): Record<string, unknown> {
  if (!Object.values(value).some(Sealer.isSealed)) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    try {
      out[k] = Sealer.isSealed(v) ? sealer.open(v) : v;
    } catch (err) {
      if (!(err instanceof SealedOpenError)) throw err;
      out[k] = null;
    }
  }
  return out;
}

/** The object without its sealed top-level fields (what leaves the service in a stored copy elsewhere, such as a webhook payload). */
export function withoutSealedFields(value: Record<string, unknown> | null): Record<string, unknown> | null {
  if (!value || !Object.values(value).some(Sealer.isSealed)) return value;
  return Object.fromEntries(Object.entries(value).filter(([, v]) => !Sealer.isSealed(v)));
}
