import t from 'tap';
import { throttledWarn } from '../../shared/platform/throttled-log.js';
import type { Logger } from '../../shared/platform/logger.js';

t.test('an error repeated while a dependency is down is logged once per window, with the count left out', async (t) => {
  const lines: Array<{ msg: string; fields?: Record<string, unknown> }> = [];
  const logger: Logger = { debug() {}, info() {}, error() {}, warn: (msg, fields) => lines.push({ msg, fields }) };
  let clock = 1_000;
  const warn = throttledWarn(logger, 'redis error', { client: 'queues' }, 30_000, () => clock);
  const err = new Error('connect ECONNREFUSED');
  warn(err);
  for (let i = 0; i < 50; i++) {
    clock += 500;
    warn(err);
  }
  t.equal(lines.length, 1, 'the first at once, the next 50 inside the window left out');
  t.same(lines[0], { msg: 'redis error', fields: { client: 'queues', err } });
  clock = 1_000 + 30_000;
  warn(err);
  t.equal(lines.length, 2, 'one more once the window has passed');
  t.same(lines[1].fields, { client: 'queues', err, repeated: 50 }, 'saying how many were left out');
  clock += 30_000;
  warn(err);
  t.same(lines[2].fields, { client: 'queues', err }, 'and counting again from there');
});
