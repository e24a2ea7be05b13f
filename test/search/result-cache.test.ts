import t from 'tap';
import { ResultCache } from '../../shared/search/result-cache.js';

t.test('a result made before its tenant was cleared is not stored', async (t) => {
  const cache = new ResultCache<string>(60_000);
  const since = cache.mark();
  cache.clear('t1');
  cache.set('t1', 'q', 'old', since);
  t.equal(cache.get('t1', 'q'), undefined, 'computed with what the clear dropped');
  cache.set('t2', 'q', 'other', since);
  t.equal(cache.get('t2', 'q'), 'other', 'another tenant\'s clear does not matter');
  cache.set('t1', 'q', 'new', cache.mark());
  t.equal(cache.get('t1', 'q'), 'new');
});

t.test('clearing every tenant refuses every result started before it', async (t) => {
  const cache = new ResultCache<string>(60_000);
  const since = cache.mark();
  cache.clear('*');
  cache.set('t1', 'q', 'old', since);
  t.equal(cache.get('t1', 'q'), undefined);
  cache.set('t1', 'q', 'new', cache.mark());
  t.equal(cache.get('t1', 'q'), 'new');
});

t.test('entries expire after ttl and the oldest goes first when a tenant is full', async (t) => {
  const cache = new ResultCache<string>(1000, 2);
  cache.set('t1', 'a', 'A', cache.mark(), 0);
  t.equal(cache.get('t1', 'a', 1000), 'A');
  t.equal(cache.get('t1', 'a', 1001), undefined);
  cache.set('t1', 'a', 'A', cache.mark(), 0);
  cache.set('t1', 'b', 'B', cache.mark(), 0);
  cache.set('t1', 'c', 'C', cache.mark(), 0);
  t.equal(cache.get('t1', 'a', 0), undefined);
  t.equal(cache.get('t1', 'c', 0), 'C');
});
