import t from 'tap';
import { setup } from '../helpers/harness.js';
import { storefrontKey } from './storefront-key.js';
import { eventually } from '../helpers/workers.js';

// A free plan past its searches: the protocol's billed query is refused (402) before it runs, as /v1/search refuses it,
// so a search the shopper never got is neither run nor logged.
const h = await setup({ BILLING_DEFAULT_PLAN: 'free' });
t.teardown(() => h.close());
const deps = h.api.deps;
const { id: tenantId, key } = await h.tenant();
const { query } = await storefrontKey(h, tenantId, key);
const logged = (q: string) => deps.db('search_log').where({ tenant_id: tenantId, query: q });

// This process's view of the month past the free plan's limit (as another API process's counts would make it).
const month = new Date().toISOString().slice(0, 7);
await deps.redis.incrby(`${h.config.queuePrefix}:usage:search:${tenantId}:${month}`, 100_000);
await h.api.call('GET', '/v1/search?q=warmup', { key });
await deps.usage.flush();

t.test('a billed query over the quota is refused without being run or logged', async (t) => {
  const refused = await query({ query: 'refused words' });
  t.equal(refused.status, 402);
  t.same([refused.body.status, refused.body.error?.code], [402, 'search_quota_exceeded'], "the protocol's error body");
  // A later page is never billed: it runs and is logged, and the log writes rows in the order searches were made.
  const free = await query({ query: 'served words', page: 1 });
  t.equal(free.status, 200, 'a page past the first is not billed, so not limited');
  await eventually(async () => ((await logged('served words')).length ? true : null), 10_000);
  t.same(await logged('refused words'), [], 'the refused search left no search-log row');
});
