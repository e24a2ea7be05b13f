import { createHmac, timingSafeEqual } from 'node:crypto';

/** Why a webhook was refused: a stable error code for the 400 answer. */
export class SignatureError extends Error {
  constructor(readonly code: 'signature_missing' | 'signature_invalid' | 'signature_stale') {
    super(code);
  }
}

const hmacHex = (secret: string, text: Buffer) => createHmac('sha256', secret).update(text).digest('hex');

/** Constant-time equality of two hex strings (a length mismatch is simply unequal). */
function sameHex(a: string, b: string): boolean {
  const x = Buffer.from(a, 'utf8');
  const y = Buffer.from(b, 'utf8');
  return x.length === y.length && timingSafeEqual(x, y);
}

function checkAge(ts: number, now: Date, toleranceS: number): void {
  if (!Number.isFinite(ts) || Math.abs(now.getTime() / 1000 - ts) > toleranceS) throw new SignatureError('signature_stale');
}

/**
 * Stripe (`Stripe-Signature: t=<unix>,v1=<hex>[,v1=<hex>...]`): HMAC-SHA256 of `t + "." + body`
 * with the endpoint secret; any v1 may match (secret rotation sends two). The mock provider uses
 * the same scheme under `Mock-Signature` with its own secret.
 */
export function verifyStripeStyle(header: string | undefined, body: Buffer, secret: string, now: Date, toleranceS = 300): void {
  if (!header) throw new SignatureError('signature_missing');
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = parts.find(([k]) => k === 't')?.[1];
  const sigs = parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v);
  if (!t || !/^\d+$/.test(t) || !sigs.length) throw new SignatureError('signature_invalid');
  const expected = hmacHex(secret, Buffer.concat([Buffer.from(`${t}.`), body]));
  // Every candidate is compared (no early exit), so timing says nothing about which one matched.
  let ok = false;
  for (const s of sigs) ok = sameHex(s, expected) || ok;
  if (!ok) throw new SignatureError('signature_invalid');
  checkAge(Number(t), now, toleranceS);
}

/** Paddle Billing (`Paddle-Signature: ts=<unix>;h1=<hex>`): HMAC-SHA256 of `ts + ":" + body`. */
export function verifyPaddle(header: string | undefined, body: Buffer, secret: string, now: Date, toleranceS: number): void {
  if (!header) throw new SignatureError('signature_missing');
  const parts = header.split(';').map((p) => p.trim().split('='));
  const ts = parts.find(([k]) => k === 'ts')?.[1];
  const sigs = parts.filter(([k, v]) => k === 'h1' && v).map(([, v]) => v);
  if (!ts || !/^\d+$/.test(ts) || !sigs.length) throw new SignatureError('signature_invalid');
  const expected = hmacHex(secret, Buffer.concat([Buffer.from(`${ts}:`), body]));
  let ok = false;
  for (const s of sigs) ok = sameHex(s, expected) || ok;
  if (!ok) throw new SignatureError('signature_invalid');
  checkAge(Number(ts), now, toleranceS);
}

/** A `Stripe-Signature`-style header for `body` (the mock provider signs its deliveries with it). */
export function signStripeStyle(body: string, secret: string, now = new Date()): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${hmacHex(secret, Buffer.from(`${t}.${body}`))}`;
}
