import t from 'tap';
import { assignVariant, bucketOf } from '../../shared/experiments/index.js';

const variants = [
  { key: 'control', traffic_percent: 50 },
  { key: 'b', traffic_percent: 30 },
  { key: 'c', traffic_percent: 20 },
];

t.test('10,000 sessions split within 2 points of the configured percentages, each always in the same variant', async (t) => {
  const counts = new Map<string, number>();
  const first = new Map<string, string>();
  for (let i = 0; i < 10_000; i++) {
    const session = `sess-${i}-${(i * 2654435761) % 1000003}`;
    const v = assignVariant('exp_abc', session, variants).key;
    first.set(session, v);
    counts.set(v, (counts.get(v) ?? 0) + 1);
  }
  for (const v of variants) {
    const share = ((counts.get(v.key) ?? 0) / 10_000) * 100;
    t.ok(Math.abs(share - v.traffic_percent) <= 2, `${v.key}: ${share.toFixed(2)} % for ${v.traffic_percent} %`);
  }
  let moved = 0;
  for (const [session, v] of first) if (assignVariant('exp_abc', session, variants).key !== v) moved++;
  t.equal(moved, 0, 'sticky: the same session gets the same variant again');
});

t.test('another experiment reshuffles; buckets are stable numbers; 0 % gets no one', async (t) => {
  let same = 0;
  for (let i = 0; i < 2000; i++) if (assignVariant('exp_1', `s${i}`, variants).key === assignVariant('exp_2', `s${i}`, variants).key) same++;
  t.ok(same < 1200, `assignments are independent between experiments (${same} of 2000 equal; 38 % expected by chance)`);
  t.equal(bucketOf('exp_1', 's1'), bucketOf('exp_1', 's1'));
  t.ok(bucketOf('exp_1', 's1') >= 0 && bucketOf('exp_1', 's1') < 10_000);
  const none = [
    { key: 'a', traffic_percent: 0 },
    { key: 'b', traffic_percent: 100 },
  ];
  t.equal(Array.from({ length: 500 }, (_, i) => assignVariant('e', `s${i}`, none).key).filter((k) => k !== 'b').length, 0, 'a 0 % variant gets no session');
});
