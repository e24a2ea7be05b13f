import t from 'tap';
import { setup } from '../helpers/harness.js';

// A Postgres server whose TimeZone is a local zone (its initdb default on a host set to it): an old
// instant is written there with the zone's local mean time, an offset in seconds ("+03:06:52").
const h = await setup();
t.teardown(() => h.close());
const database = new URL(h.config.databaseUrl).pathname.slice(1);
await h.api.deps.db.raw(`ALTER DATABASE ${database} SET timezone TO 'Asia/Riyadh'`);
// A new API: its pool's connections start with the database's time zone.
const api = await h.startApi();
const { key } = await h.tenant();
const call = (method: string, path: string, body?: unknown) => api.call(method, path, { key, body });
const rule = (name: string, created_at?: string) => ({
  name,
  ...(created_at ? { created_at } : {}),
  conditions: { patterns: [{ match: 'is', text: name }] },
  consequences: { banners: [{ html: name }] },
});

t.test('rules list pages past imported rules of any age, whatever the server time zone', async (t) => {
  t.equal((await api.deps.db.raw('SHOW timezone')).rows[0].TimeZone, 'Asia/Riyadh', 'the API reads in Asia/Riyadh');
  const imported = await call('POST', '/v1/rules/import', {
    rules: [rule('first', '0001-01-01T00:00:00Z'), rule('second', '1900-06-01T12:00:00Z'), rule('third', '1960-01-01T00:00:00Z'), rule('fourth')],
  });
  t.same(imported.body, { created: 4, updated: 0, unchanged: 0, deleted: 0 });
  const names: string[] = [];
  let cursor: string | null = null;
  for (let i = 0; i < 6; i++) {
    const page = await call('GET', `/v1/rules?limit=1${cursor ? `&cursor=${cursor}` : ''}`);
    t.equal(page.status, 200, `page ${i + 1}: ${JSON.stringify(page.body).slice(0, 200)}`);
    if (page.status !== 200) break;
    names.push(...page.body.data.map((r: { name: string }) => r.name));
    cursor = page.body.next_cursor;
    if (!cursor) break;
  }
  t.same(names, ['first', 'second', 'third', 'fourth'], 'every rule once, oldest first');
});
