import t from 'tap';
import { Writable } from 'node:stream';
import { createLogger, withLogScope } from '../../shared/platform/logger.js';

function capture() {
  const lines: any[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      for (const l of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(l));
      cb();
    },
  });
  return { lines, stream: stream as unknown as { write(s: string): void } };
}

t.test('JSON lines with level names, the scope request id, errors with stack', async (t) => {
  const { lines, stream } = capture();
  const log = createLogger('info', {}, stream);
  log.debug('hidden');
  withLogScope({ request_id: 'req_abc12345' }, () => log.info('inside', { n: 1 }));
  log.error('failed', { err: new Error('boom') });
  t.equal(lines.length, 2, 'debug is below the level');
  t.match(lines[0], { level: 'info', msg: 'inside', n: 1, request_id: 'req_abc12345' });
  t.ok(lines[0].time);
  t.notOk('request_id' in lines[1], 'outside a scope no request id');
  t.match(lines[1].err, { message: 'boom', type: 'Error' });
  t.match(lines[1].err.stack, /boom/);
});

t.test('secrets and keys are redacted, in fields and in text', async (t) => {
  const { lines, stream } = capture();
  const log = createLogger('debug', {}, stream);
  const key = 'sk_live_abcdefghijklmnopqrstuvwxyz012345';
  log.warn(`bad key ${key}`, { key, secret: 'whsec_zzzzzzzzzzzz', headers: { authorization: `Bearer ${key}` }, provider: { apiKey: 'xyz' }, q: `find ${key}` });
  const text = JSON.stringify(lines);
  t.notMatch(text, /abcdefghijklmnop/);
  t.notMatch(text, /zzzzzzzz/);
  t.notMatch(text, /xyz"/);
  t.equal(lines[0].key, '[redacted]');
  t.equal(lines[0].headers.authorization, '[redacted]');
  t.equal(lines[0].q, 'find sk_live_[redacted]');
});

t.test('the request-id middleware puts its id on every line written while serving', async (t) => {
  const { requestId } = await import('../../api/http/middleware/request-id.js');
  const { lines, stream } = capture();
  const log = createLogger('info', {}, stream);
  const headers: Record<string, string> = {};
  const ctx = {
    get: (h: string) => (h === 'x-request-id' ? 'req_from_client_1' : ''),
    res: { setHeader: (k: string, v: string) => (headers[k] = v) },
    state: {},
  } as never;
  await requestId(ctx, async () => {
    log.info('first');
    await new Promise((r) => setTimeout(r, 5));
    log.warn('after an await');
  });
  log.info('outside');
  t.same(
    lines.map((l) => l.request_id),
    ['req_from_client_1', 'req_from_client_1', undefined],
  );
  t.equal(headers['X-Request-Id'], 'req_from_client_1');
});
