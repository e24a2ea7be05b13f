import t from 'tap';
import { ResultCache } from '../../shared/search/result-cache.js';

t.test('a result made before its tenant was cleared is not stored', async (t) => {
  const cache = new ResultCache<string>();
  const since = cache.mark();
  cache.clear('t1');
  cache.set('t1', 'q', 'old', since);
  t.equal(cache.entry('t1', 'q')?.value, undefined, 'computed with what the clear dropped');
  cache.set('t2', 'q', 'other', since);
  t.equal(cache.entry('t2', 'q')?.value, 'other', 'another tenant\'s clear does not matter');
  cache.set('t1', 'q', 'new', cache.mark());
  t.equal(cache.entry('t1', 'q')?.value, 'new');
});

t.test('clearing every tenant refuses every result started before it', async (t) => {
  const cache = new ResultCache<string>();
  const since = cache.mark();
  cache.clear('*');
  cache.set('t1', 'q', 'old', since);
  t.equal(cache.entry('t1', 'q')?.value, undefined);
  cache.set('t1', 'q', 'new', cache.mark());
  t.equal(cache.entry('t1', 'q')?.value, 'new');
});

t.test('entries keep the time they were stored; the oldest goes first when a tenant is full', async (t) => {
  const cache = new ResultCache<string>(2);
  cache.set('t1', 'a', 'A', cache.mark(), 1234);
  t.same(cache.entry('t1', 'a'), { value: 'A', at: 1234 });
  cache.set('t1', 'a', 'A', cache.mark(), 0);
  cache.set('t1', 'b', 'B', cache.mark(), 0);
  cache.set('t1', 'c', 'C', cache.mark(), 0);
  t.equal(cache.entry('t1', 'a')?.value, undefined);
  t.equal(cache.entry('t1', 'c')?.value, 'C');
});

t.test('a stored-again entry counts as the newest', async (t) => {
  const cache = new ResultCache<string>(2);
  cache.set('t1', 'a', 'A', cache.mark());
  cache.set('t1', 'b', 'B', cache.mark());
  cache.set('t1', 'a', 'A2', cache.mark());
  cache.set('t1', 'c', 'C', cache.mark());
  t.equal(cache.entry('t1', 'a')?.value, 'A2', 'refreshed, so kept');
  t.equal(cache.entry('t1', 'b')?.value, undefined, 'the oldest went');
});
