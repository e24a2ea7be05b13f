import { createServer, type Server } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: Record<string, string>;
  body: string;
  at: number;
  /** The receiver's own verdict, computed here from the secret alone (the Standard Webhooks check). */
  verified: boolean;
  fresh: boolean;
}

/**
 * A notification receiver as a store would write one: verifies `webhook-signature` over
 * `id.timestamp.body` with the secret's bytes and rejects timestamps more than 5 minutes away.
 * `answer` decides the status of each request (default 204).
 */
export async function startReceiver() {
  const received: Received[] = [];
  const state = { secret: '', answer: (_n: number): { status: number; headers?: Record<string, string>; body?: string } => ({ status: 204 }) };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const id = headers['webhook-id'];
      const ts = headers['webhook-timestamp'];
      const key = Buffer.from(state.secret.split('_')[1] ?? '', 'base64');
      const expected = createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest();
      const verified = (headers['webhook-signature'] ?? '').split(' ').some((part) => {
        const [version, sig] = part.split(',');
        const given = Buffer.from(sig ?? '', 'base64');
        return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
      });
      const fresh = Math.abs(Date.now() / 1000 - Number(ts)) <= 300;
      received.push({ headers, body, at: Date.now(), verified, fresh });
      const a = state.answer(received.length);
      res.writeHead(verified && fresh ? a.status : 401, a.headers).end(a.body ?? '');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, received, state, close: () => new Promise<void>((r) => server.close(() => r())) };
}
