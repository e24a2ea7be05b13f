import t from 'tap';
import type { SearchDoc } from '../../shared/engines/lexical/port.js';
import { PLAIN_SETTINGS as SETTINGS, engineStore, searchDoc } from '../helpers/engine-store.js';

// Two writers of the same products into one generation (a catalog batch while a reindex builds it,
// or two workers with overlapping batches) lock the rows in the same order whatever order their
// batches come in: neither is killed as a deadlock's victim.
const tenantId = 'ten_writeorder';
const { db, engine } = await engineStore(t, tenantId, 6);

function doc(i: number, version: number): SearchDoc {
  const id = `p${String(i).padStart(5, '0')}`;
  return searchDoc(id, `lamp ${id}`, { price: i, version });
}
const N = 3000;
await engine.upsert(
  tenantId,
  Array.from({ length: N }, (_, i) => doc(i, 1)),
  SETTINGS,
);

t.test('concurrent writes of the same products in opposite orders all succeed', async (t) => {
  const failures: string[] = [];
  for (let round = 2; round < 8; round++) {
    const forward = Array.from({ length: N }, (_, i) => doc(i, round));
    const backward = [...forward].reverse();
    const shuffled = [...forward].sort((a, b) => ((a.price * 7919) % N) - ((b.price * 7919) % N));
    const results = await Promise.allSettled([forward, backward, shuffled].map((docs) => engine.upsert(tenantId, docs, SETTINGS)));
    for (const r of results) if (r.status === 'rejected') failures.push(String((r.reason as Error).message).slice(-60));
  }
  t.same(failures, [], 'no writer was chosen as a deadlock victim');
  const { rows } = await db.raw('SELECT count(*)::int AS n, min(source_version)::int AS v FROM search_docs WHERE tenant_id = ?', [tenantId]);
  t.same(rows[0], { n: N, v: 7 }, 'every document at the last version');
});
