import t from 'tap';
import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo } from 'node:net';
import { sendNotification, type SendResult } from '../../shared/notifications/send.js';

// WEBHOOK_TIMEOUT_MS bounds a whole attempt: a receiver that answers a byte at a time never
// lets the socket idle long enough for an idle timeout, and would hold a notifications worker
// (2 per process by default, shared by every store) for as long as it likes.
const opts = { allowPrivate: true, timeoutMs: 1000, maxResponseBytes: 65536 };
const timers: NodeJS.Timeout[] = [];
t.teardown(() => timers.forEach(clearInterval));

const within = (p: Promise<SendResult>, ms: number) => Promise.race([p, new Promise<'still sending'>((r) => setTimeout(() => r('still sending'), ms).unref())]);

t.test('a 2xx answer whose body trickles ends at the deadline, delivered', async (t) => {
  const server: Server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'text/plain' });
    timers.push(setInterval(() => res.write('.'), 200));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => {
    server.closeAllConnections();
    server.close();
  });
  const started = Date.now();
  const result = await within(sendNotification(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {}, '{}', opts), 4000);
  t.not(result, 'still sending', `the attempt ended (${Date.now() - started} ms)`);
  t.match(result, { outcome: 'delivered', status: 200 });
});

t.test('headers that trickle fail the attempt at the deadline', async (t) => {
  const server = createTcpServer((socket) => {
    socket.on('error', () => undefined);
    socket.write('HTTP/1.1 200 OK\r\n');
    timers.push(setInterval(() => socket.write('x'), 200));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  t.teardown(() => server.close());
  const started = Date.now();
  const result = await within(sendNotification(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, {}, '{}', opts), 4000);
  t.not(result, 'still sending', `the attempt ended (${Date.now() - started} ms)`);
  t.match(result, { outcome: 'failed', status: null, error: /no answer within 1000 ms/ });
  timers.forEach(clearInterval);
});
