import t from 'tap';
import { passBelow, passedOver, PASSED_OVER_RATE } from '../../shared/recommend/index.js';

t.test('passed over: the click rate per examination is confidently below the threshold', async (t) => {
  t.notOk(passedOver(0, 3), 'three examinations decide nothing');
  t.ok(passedOver(0, 20), 'twenty examinations, no click');
  t.ok(passedOver(10, 200), 'a few stray clicks (5 %) over two hundred examinations');
  t.notOk(passedOver(1, 10), 'one click in ten: not sure enough');
  t.notOk(passedOver(50, 200), 'a quarter of the examinations clicked');
  t.notOk(passedOver(5, 20), 'at the threshold rate and more is never passed over');
  t.notOk(passedOver(3, 0), 'no logged examinations (older search log rows)');
  t.notOk(passedOver(30, 20), 'more clicks than examinations');
  t.equal(PASSED_OVER_RATE, 0.15);
});

t.test('passBelow keeps the order and moves only the passed-over products', async (t) => {
  const ranked = ['a', 'b', 'c', 'd', 'e'].map((id) => ({ id }));
  t.same(
    passBelow(ranked, new Set(['a', 'c'])).map((h) => h.id),
    ['b', 'd', 'e', 'a', 'c'],
  );
  t.equal(passBelow(ranked, new Set()), ranked, 'nothing passed over: the same list');
  t.same(
    passBelow(ranked, new Set(['x'])).map((h) => h.id),
    ['a', 'b', 'c', 'd', 'e'],
  );
});
