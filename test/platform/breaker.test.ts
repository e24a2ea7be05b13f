import t from 'tap';
import { Breaker } from '../../shared/platform/breaker.js';

/** The provider breaker on its own, with a clock the test moves. */
const clock = () => {
  const c = { at: 1_000_000, now: () => c.at };
  return c;
};
const OPTS = { failures: 3, coolDownMs: 30_000, maxCoolDownMs: 100_000 };

t.test('closed: calls go through; fewer failures in a row than the threshold keep it closed', async (t) => {
  const b = new Breaker(OPTS, clock().now);
  t.ok(b.allow());
  b.failure();
  b.failure();
  t.ok(b.allow(), 'two failures: still closed');
  b.success();
  b.failure();
  b.failure();
  t.ok(b.allow(), 'a success between resets the count');
  t.notOk(b.open);
});

t.test('opens after N failures in a row; one probe after the cool-down; its success closes it', async (t) => {
  const c = clock();
  const b = new Breaker(OPTS, c.now);
  for (let i = 0; i < 3; i++) b.failure();
  t.ok(b.open);
  t.notOk(b.allow(), 'open: skipped');
  c.at += 29_999;
  t.notOk(b.allow(), 'still cooling down');
  c.at += 1;
  t.ok(b.allow(), 'the cool-down is over: one probe');
  t.notOk(b.allow(), 'only one probe at a time');
  b.success();
  t.notOk(b.open);
  t.ok(b.allow(), 'closed again');
  t.ok(b.allow());
});

t.test('a failed probe opens it again for twice as long, up to the cap; a success resets the cool-down', async (t) => {
  const c = clock();
  const b = new Breaker(OPTS, c.now);
  for (let i = 0; i < 3; i++) b.failure();
  const cooled = (ms: number) => {
    c.at += ms - 1;
    const early = b.allow();
    c.at += 1;
    return !early && b.allow();
  };
  t.ok(cooled(30_000), 'first cool-down 30 s');
  b.failure();
  t.ok(cooled(60_000), 'then 60 s');
  b.failure();
  t.ok(cooled(100_000), 'then the cap (100 s, not 120 s)');
  b.failure();
  t.ok(cooled(100_000), 'the cap again');
  b.success();
  for (let i = 0; i < 3; i++) b.failure();
  t.ok(cooled(30_000), 'after a success it starts from 30 s again');
});

t.test('a probe released without a call frees its place; failures of calls from before it opened do not extend it', async (t) => {
  const c = clock();
  const b = new Breaker(OPTS, c.now);
  t.ok(b.allow());
  t.ok(b.allow());
  for (let i = 0; i < 3; i++) b.failure();
  c.at += 20_000;
  b.failure();
  c.at += 10_000;
  t.ok(b.allow(), 'the cool-down counts from when it opened');
  b.release();
  t.ok(b.allow(), 'released: another probe may go');
  b.success();
  t.notOk(b.open);
});
