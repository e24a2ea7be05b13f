import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { guardedLookup, isPrivateAddress } from './address-check.js';

export interface SendResult {
  outcome: 'delivered' | 'failed' | 'refused';
  status: number | null;
  error: string | null;
}

export interface SendOptions {
  allowPrivate: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
}

/**
 * POSTs one signed notification. 2xx is delivered; redirects are not followed (a 3xx is a
 * failure); at most `maxResponseBytes` of the answer are read, and for at most `timeoutMs` from
 * the start (then an answer's status stands, no answer is a failure); private addresses are
 * refused at connect time unless allowed.
 */
export function sendNotification(url: string, headers: Record<string, string>, body: string, opts: SendOptions): Promise<SendResult> {
  return new Promise((resolve) => {
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return resolve({ outcome: 'refused', status: null, error: 'not a URL' });
    }
    const host = u.hostname.replace(/^\[|\]$/g, '');
    if (!opts.allowPrivate && isIP(host) && isPrivateAddress(host)) {
      return resolve({ outcome: 'refused', status: null, error: `${host} is a private, loopback or link-local address` });
    }
    const send = u.protocol === 'https:' ? httpsRequest : httpRequest;
    let done = false;
    let deadline: NodeJS.Timeout | undefined;
    let answer: IncomingMessage | undefined;
    const finish = (r: SendResult) => {
      clearTimeout(deadline);
      if (!done) ((done = true), resolve(r));
    };
    const timedOut = () => Object.assign(new Error(`no answer within ${opts.timeoutMs} ms`), { code: 'ETIMEDOUT' });
    const req = send(
      u,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'product-search-notifications/1' },
        lookup: guardedLookup(opts.allowPrivate),
        timeout: opts.timeoutMs,
      },
      (res) => {
        answer = res;
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > opts.maxResponseBytes) res.destroy();
        });
        const status = res.statusCode ?? 0;
        const outcome = () =>
          finish(
            status >= 200 && status < 300
              ? { outcome: 'delivered', status, error: null }
              : {
                  outcome: 'failed',
                  status,
                  error: status >= 300 && status < 400 ? `redirect to ${res.headers.location ?? '?'} not followed` : `HTTP ${status}`,
                },
          );
        res.on('end', outcome);
        res.on('close', outcome);
        res.on('error', outcome);
      },
    );
    req.on('timeout', () => req.destroy(timedOut()));
    // The whole attempt, not only an idle socket: a receiver answering a byte at a time must not hold a
    // worker. An answer already begun keeps its status (its body is cut off, as past maxResponseBytes).
    deadline = setTimeout(() => (answer ? answer.destroy() : req.destroy(timedOut())), opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ outcome: err.code === 'EPRIVATE' ? 'refused' : 'failed', status: null, error: err.message }));
    req.end(body);
  });
}
