import { createHmac, randomBytes } from 'node:crypto';

/** A new signing secret, Standard Webhooks style: `whsec_` + base64 of 24 random bytes. */
export function newSigningSecret(): string {
  return `whsec_${randomBytes(24).toString('base64')}`;
}

/**
 * The Standard Webhooks headers of one attempt: the message id (the same on every retry), the
 * attempt's own timestamp (seconds) and `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` keyed
 * with the secret's bytes (the base64 after `whsec_`).
 */
export function signedHeaders(secret: string, id: string, body: string, nowS = Math.floor(Date.now() / 1000)): Record<string, string> {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const signature = createHmac('sha256', key).update(`${id}.${nowS}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(nowS), 'webhook-signature': `v1,${signature}` };
}
