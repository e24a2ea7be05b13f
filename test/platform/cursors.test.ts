import t from 'tap';
import { setup } from '../helpers/harness.js';

// Issue 12, item 5: `GET /v1/synonyms?cursor=eyJhdCI6IjEiLCJpZCI6IngifQ` ({"at":"1","id":"x"}: a
// date JavaScript reads and Postgres refuses) answered 500, as did the global and suggestion
// lists. Every list decodes its cursor through one codec that validates the shape once.
const h = await setup();
t.teardown(() => h.close());
const { id: tenantId, key } = await h.tenant();
const db = h.api.deps.db;
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

// Three rows in every list, in the same microsecond-distinct order.
for (let i = 0; i < 3; i++) {
  await db('jobs').insert({ id: `job_${i}`, tenant_id: tenantId, kind: 'export', created_at: db.raw(`now() - interval '${i} second'`) });
  await db('synonyms').insert({
    id: `syn_g${i}`,
    tenant_id: null,
    kind: 'equivalent',
    terms: [`g${i}`, `h${i}`],
    fingerprint: `g${i}`,
    created_at: db.raw(`now() - interval '${3 - i} second'`),
  });
  await db('synonym_suggestions').insert({
    id: `sug_${i}`,
    tenant_id: tenantId,
    kind: 'equivalent',
    terms: [`s${i}`, `t${i}`],
    score: 0.5,
    fingerprint: `s${i}`,
  });
  await h.api.call('POST', '/v1/synonyms', { key, body: { kind: 'equivalent', terms: [`a${i}`, `b${i}`] } });
}
await h.api.call('POST', '/v1/products/batch', {
  key,
  body: { upsert: [0, 1, 2].map((i) => ({ id: `p${i}`, name: { en: `P ${i}` }, price: 1, currency: 'USD' })) },
});

const LISTS = ['/v1/jobs', '/v1/products', '/v1/synonyms', '/v1/synonyms/global', '/v1/synonyms/suggestions'];
/** Lists checked for forged cursors only (this file gives them no rows). */
const EMPTY_LISTS = ['/v1/rules', '/v1/experiments', '/v1/translate/glossary'];

t.test('every list pages through all its rows with the cursors it returns', async (t) => {
  for (const list of LISTS) {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { data: Array<{ id: string }>; next_cursor: string | null } } = await h.api.call(
        'GET',
        `${list}?limit=1${cursor ? `&cursor=${cursor}` : ''}`,
        { key },
      );
      t.equal(page.status, 200, list);
      seen.push(...page.body.data.map((r) => r.id));
      cursor = page.body.next_cursor;
    } while (cursor && seen.length < 10);
    t.equal(seen.length, 3, `${list}: three rows`);
    t.equal(new Set(seen).size, 3, `${list}: none repeated`);
  }
});

t.test('forged cursors are 400 invalid_cursor on every list, never 500', async (t) => {
  const forged = [
    'eyJhdCI6IjEiLCJpZCI6IngifQ', // {"at":"1","id":"x"}: the issue's cursor
    b64({ at: '2020-02-30T00:00:00Z', id: 'x' }),
    b64({ at: '+275760-09-13T00:00:00.000Z', id: 'x' }),
    b64({ at: '2020-01-01', id: 'x' }),
    b64({ at: '0000-01-01T00:00:00Z', id: 'x' }), // year 0: Postgres has none
    b64({ at: '9999-12-31T23:59:59-23:59', id: 'x' }), // year 10000 in UTC
    b64({ created_at: '1', id: 'x' }),
    b64({ created_at: '2020-01-01T00:00:00.000Z', id: 5 }),
    b64({ created_at: '2020-01-01T00:00:00.000Z', id: 'x\u0000' }),
    b64({ at: '2020-01-01T00:00:00Z', id: 'x\ud800' }),
    b64({ after: 5 }),
    b64({ after: { $gt: '' } }),
    b64({ after: 'p\u0000' }),
    b64({ after: 'p1', extra: 1 }),
    b64([]),
    b64(null),
    b64('x'),
    'not-base64!',
    'e30',
    '%FF',
  ];
  for (const list of [...LISTS, ...EMPTY_LISTS]) {
    for (const cursor of forged) {
      const res = await h.api.call('GET', `${list}?cursor=${cursor}`, { key });
      if (res.status !== 400 || (res.body.error.code !== 'invalid_cursor' && res.body.error.code !== 'invalid_text')) {
        t.fail(`${list} cursor ${cursor}: ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`);
      }
    }
    const issue = await h.api.call('GET', `${list}?cursor=eyJhdCI6IjEiLCJpZCI6IngifQ`, { key });
    t.equal(issue.status, 400, list);
    t.match(issue.body.error, { code: 'invalid_cursor', details: [{ in: 'query', field: 'cursor', code: 'invalid_cursor' }] });
  }
});
