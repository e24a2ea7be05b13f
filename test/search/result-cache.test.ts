import t from 'tap';
import { ResultCache } from '../../shared/search/result-cache.js';

t.test('a result made before its tenant was cleared is not stored', async (t) => {
  const cache = new ResultCache<string>({ maxBytes: 1e6, sizeOf: (v) => v.length });
  const since = cache.mark();
  cache.clear('t1');
  cache.set('t1', 'q', 'old', since);
  t.equal(cache.entry('t1', 'q')?.value, undefined, 'computed with what the clear dropped');
  cache.set('t2', 'q', 'other', since);
  t.equal(cache.entry('t2', 'q')?.value, 'other', "another tenant's clear does not matter");
  cache.set('t1', 'q', 'new', cache.mark());
  t.equal(cache.entry('t1', 'q')?.value, 'new');
});

t.test('clearing every tenant refuses every result started before it', async (t) => {
  const cache = new ResultCache<string>({ maxBytes: 1e6, sizeOf: (v) => v.length });
  const since = cache.mark();
  cache.clear('*');
  cache.set('t1', 'q', 'old', since);
  t.equal(cache.entry('t1', 'q')?.value, undefined);
  cache.set('t1', 'q', 'new', cache.mark());
  t.equal(cache.entry('t1', 'q')?.value, 'new');
});

t.test('entries keep the time they were stored; the oldest goes first when the budget is full', async (t) => {
  const cache = new ResultCache<string>({ maxBytes: 2, sizeOf: () => 1 });
  cache.set('t1', 'a', 'A', cache.mark(), 1234);
  t.same(cache.entry('t1', 'a'), { value: 'A', at: 1234 });
  cache.set('t1', 'a', 'A', cache.mark(), 0);
  cache.set('t1', 'b', 'B', cache.mark(), 0);
  cache.set('t1', 'c', 'C', cache.mark(), 0);
  t.equal(cache.entry('t1', 'a')?.value, undefined);
  t.equal(cache.entry('t1', 'c')?.value, 'C');
});

t.test('a stored-again entry counts as the newest', async (t) => {
  const cache = new ResultCache<string>({ maxBytes: 2, sizeOf: () => 1 });
  cache.set('t1', 'a', 'A', cache.mark());
  cache.set('t1', 'b', 'B', cache.mark());
  cache.set('t1', 'a', 'A2', cache.mark());
  cache.set('t1', 'c', 'C', cache.mark());
  t.equal(cache.entry('t1', 'a')?.value, 'A2', 'refreshed, so kept');
  t.equal(cache.entry('t1', 'b')?.value, undefined, 'the oldest went');
});

t.test("the budget is in bytes over every tenant; a tenant's clear gives its bytes back", async (t) => {
  const cache = new ResultCache<string>({ maxBytes: 10, sizeOf: (v) => v.length });
  cache.set('t1', 'a', 'aaaa', cache.mark());
  cache.set('t2', 'b', 'bbbb', cache.mark());
  t.same(cache.size(), { bytes: 8, entries: 2 });
  cache.set('t2', 'c', 'ccc', cache.mark());
  t.equal(cache.entry('t1', 'a')?.value, undefined, "another tenant's oldest value made room");
  t.same(cache.size(), { bytes: 7, entries: 2 });
  cache.set('t1', 'big', 'x'.repeat(11), cache.mark());
  t.equal(cache.entry('t1', 'big'), undefined, 'a value above the whole budget is not kept');
  t.equal(cache.entry('t2', 'b')?.value, 'bbbb', 'and evicts nothing');
  cache.clear('t2');
  t.same(cache.size(), { bytes: 0, entries: 0 });
  cache.set('t2', 'b', 'bb', cache.mark());
  t.equal(cache.entry('t2', 'b')?.value, 'bb');
});
