import t, { type Test } from 'tap';
import { setup } from '../helpers/harness.js';
import { holdWrites, lockWaiters } from '../helpers/pg-fault.js';
import { eventually } from '../helpers/workers.js';
import { fingerprintOf } from '../../shared/synonyms/rule.js';

// An import compares its file with the rules it read, then writes. A rule replaced (PUT) between
// the read and the write must not take the import's fields under its new identity, nor be deleted
// as the rule it no longer is: the import's write then acts as if it ran before the replace.
const h = await setup();
t.teardown(() => h.close());
const db = h.api.deps.db;

async function racing(t: Test, name: string, file: unknown[], mode: 'merge' | 'replace', replaceWith: string[]) {
  const s = await h.tenant(name);
  const call = (method: string, path: string, body?: unknown) => h.api.call(method, path, { key: s.key, body });
  const x = await call('POST', '/v1/synonyms', { kind: 'equivalent', terms: ['sofa', 'couch'] });
  t.equal(x.status, 201);
  // The import has read the stored rules and waits at its first insert.
  const hold = await holdWrites(db, { name: `hold_${name}`, table: 'synonyms', on: 'INSERT', when: `NEW.tenant_id = '${s.id}' AND NEW.source = 'import'` });
  t.teardown(() => hold.remove());
  const imported = call('POST', '/v1/synonyms/import', { content: JSON.stringify(file), mode });
  await eventually(async () => (await lockWaiters(db)) > 0);
  const put = await call('PUT', `/v1/synonyms/${x.body.id}`, { kind: 'equivalent', terms: replaceWith });
  t.equal(put.status, 200, 'the replace is not held');
  await hold.release();
  const result = await imported;
  t.equal(result.status, 200);
  const rows = await db('synonyms').where({ tenant_id: s.id });
  for (const r of rows) t.equal(r.fingerprint, fingerprintOf(r.kind, r.terms, r.input, r.outputs), `${r.terms.join(',')}: its identity is its fields`);
  const listed = (await call('GET', '/v1/synonyms')).body.data as Array<{ id: string; terms: string[] }>;
  for (const r of listed) {
    const dup = await call('POST', '/v1/synonyms', { kind: 'equivalent', terms: r.terms });
    t.match([dup.status, dup.body.error?.details?.existing_id], [409, r.id], `${r.terms.join(',')} is held by its rule`);
  }
  return { x: x.body.id as string, result: result.body, listed };
}

t.test('merge: a rule replaced while the import runs keeps the replace', async (t) => {
  const file = [
    { kind: 'equivalent', terms: ['Couch', 'sofa'], enabled: false },
    { kind: 'equivalent', terms: ['cap', 'hat'] },
  ];
  const { x, result, listed } = await racing(t, 'mergerace', file, 'merge', ['tv', 'telly']);
  t.match(result, { created: 1, updated: 0, errors: [] });
  t.same(listed.find((r) => r.id === x)?.terms, ['tv', 'telly']);
});

t.test('replace: a rule replaced into one of the file is not deleted as the rule it was', async (t) => {
  const { x, result, listed } = await racing(t, 'replacerace', [{ kind: 'equivalent', terms: ['cap', 'hat'] }], 'replace', ['cap', 'hat']);
  t.match(result, { deleted: 0, errors: [] });
  t.same(
    listed.map((r) => [r.id, r.terms]),
    [[x, ['cap', 'hat']]],
    "the file's rule is stored",
  );
});
