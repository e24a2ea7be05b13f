import t from 'tap';
import { clickFeedback, clickOrder, FEEDBACK_SHARE } from '../../shared/recommend/index.js';

const v = (...xs: number[]) => new Float32Array(xs);

t.test('a deeper match close to a chosen product inherits part of its attractiveness', async (t) => {
  const observed = new Map([
    ['chosen', 0.8],
    ['rare', 0.1],
  ]);
  const vectors = new Map([
    ['chosen', v(1, 0, 0)],
    ['rare', v(0, 0, 1)],
    ['twin', v(0.9, 0.1, 0)],
    ['far', v(0, 1, 0)],
    ['near-rare', v(0, 0.1, 0.9)],
  ]);
  const out = clickFeedback(observed, vectors, ['twin', 'far', 'near-rare', 'no-vector', 'chosen']);
  const cos = 0.9 / Math.sqrt(0.82);
  t.ok(Math.abs(out.get('twin')! - FEEDBACK_SHARE * 0.8 * cos) < 1e-6, `twin ${out.get('twin')}`);
  t.notOk(out.has('far'), 'not close to any chosen product');
  t.notOk(out.has('near-rare'), 'an occasional click is not a choice');
  t.notOk(out.has('no-vector'));
  t.equal(out.get('chosen'), 0.8, 'a product with statistics of its own keeps them');
  t.equal(observed.size, 2, 'the observed statistics are not changed');
  t.ok(out.get('twin')! < 0.8, 'an inherited attractiveness stays below the one it came from');
});

t.test('nothing chosen: nothing inherited', async (t) => {
  const observed = new Map([['a', 0.05]]);
  const out = clickFeedback(
    observed,
    new Map([
      ['a', v(1, 0)],
      ['b', v(1, 0)],
    ]),
    ['b'],
  );
  t.equal(out, observed);
});

t.test('an inheriting product deep in the matches rises over passed-over first-page products', async (t) => {
  const page = Array.from({ length: 10 }, (_, i) => ({ id: `p${i}` }));
  const deep = [{ id: 'deep' }];
  const observed = new Map([['p3', 0.9]]);
  const scores = clickFeedback(
    observed,
    new Map([
      ['p3', v(1, 0)],
      ['deep', v(1, 0)],
    ]),
    ['deep'],
  );
  const order = clickOrder([...page, ...deep], scores).map((h) => h.id);
  t.equal(order[0], 'p3', 'the chosen product first');
  t.ok(order.indexOf('deep') < 10, `the deep look-alike enters the first page: ${order}`);
  t.equal(clickOrder([...page, ...deep], observed).at(-1)!.id, 'deep', 'without feedback it stays last');
});
