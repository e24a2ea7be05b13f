import t from 'tap';
import { SuggestPreviews } from '../../shared/search/suggest-previews.js';
import type { ProductCard } from '../../shared/engines/lexical/port.js';

const card = (id: string) => ({ id }) as unknown as ProductCard;
const settle = () => new Promise((r) => setImmediate(r));

t.test('fresh entries answer without a load; expiring ones answer stale while one refresh runs', async (t) => {
  const previews = new SuggestPreviews(1000);
  let loads = 0;
  let version = 'v1';
  const load = async () => { loads++; return [card(version)]; };
  const t0 = Date.now();
  t.same(await previews.get('t1', 'lap', load, t0), [card('v1')]);
  t.same(await previews.get('t1', 'lap', load, t0 + 900), [card('v1')], 'fresh: cached');
  t.equal(loads, 1);
  version = 'v2';
  t.same(await previews.get('t1', 'lap', load, t0 + 1500), [card('v1')], 'past ttl: the old previews at once');
  await settle();
  t.equal(loads, 2, 'one background refresh');
  t.same(await previews.get('t1', 'lap', load, Date.now()), [card('v2')], 'the refreshed previews next time');
});

t.test('entries older than twice the ttl are loaded before answering; clear forgets at once', async (t) => {
  const previews = new SuggestPreviews(1000);
  let version = 'v1';
  const load = async () => [card(version)];
  const t0 = Date.now();
  await previews.get('t1', 'cam', load, t0);
  version = 'v2';
  t.same(await previews.get('t1', 'cam', load, t0 + 2500), [card('v2')], 'too old to serve');
  version = 'v3';
  previews.clear('t1');
  t.same(await previews.get('t1', 'cam', load), [card('v3')], 'after an index change: a new load');
});
