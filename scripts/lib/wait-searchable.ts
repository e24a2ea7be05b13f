import type { Deps } from '../../shared/deps.js';

/** Waits until every stored product of the tenant is indexed (and, with `vocabulary`, its vocabulary is rebuilt too). */
export async function waitSearchable(deps: Deps, tenantId: string, timeoutMs = 600_000, vocabulary = true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const n = await deps.repos.products.countUnindexed(tenantId);
    const [{ v }] = await deps.db('search_vocab').where({ tenant_id: tenantId }).count({ v: '*' });
    const queue = deps.queues.get(vocabulary ? 'vocabulary' : 'catalog');
    const busy = Object.values(await queue.getJobCounts('waiting', 'delayed', 'active', 'prioritized')).reduce((a, b) => a + b, 0);
    if (n === 0 && (!vocabulary || (Number(v) > 0 && busy === 0))) return;
    if (Date.now() > deadline) throw new Error('catalog did not become searchable in time');
    await new Promise((r) => setTimeout(r, 250));
  }
}
