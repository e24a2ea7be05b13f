import t from 'tap';
import { randomBytes } from 'node:crypto';
import { setup } from '../helpers/harness.js';
import { idempotencyRepo } from '../../shared/platform/db/idempotency.repo.js';
import { openSealedFields, Sealer, withoutSealedFields } from '../../shared/platform/sealed.js';
import { loadConfig } from '../../shared/platform/config.js';

// Issue 12, item 8: the idempotent replay of `POST /v1/keys` kept the full secret key readable
// for 48 h. Kept answers are sealed (AES-256-GCM, SECRET_ENCRYPTION_KEY); replays still carry the key.
const h = await setup({ SECRET_ENCRYPTION_KEY: randomBytes(32).toString('hex') });
t.teardown(() => h.close());
const admin = await h.tenant();
const db = h.api.deps.db;

/** Every table of the database, searched whole (every column, as JSON text) for `needle`. */
async function tablesHolding(needle: string): Promise<string[]> {
  const tables = (await db.raw(`SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE'`)).rows as Array<{
    table_name: string;
  }>;
  const found: string[] = [];
  for (const { table_name: name } of tables) {
    const res = await db.raw(`SELECT count(*) AS n FROM "${name}" t WHERE strpos(to_jsonb(t)::text, ?) > 0`, [needle]);
    if (Number(res.rows[0].n) > 0) found.push(name);
  }
  return found;
}

const created: string[] = [];

t.test('creating and rotating keys with Idempotency-Keys: replays carry the key', async (t) => {
  for (const [i, body] of [
    { name: 'server', kind: 'secret' },
    { name: 'web', kind: 'public', allowed_origins: ['https://shop.example'] },
  ].entries()) {
    const headers = { 'idempotency-key': `create-key-${i}-abcdef` };
    const first = await h.api.call('POST', '/v1/keys', { key: admin.key, body, headers });
    t.equal(first.status, 201);
    const replay = await h.api.call('POST', '/v1/keys', { key: admin.key, body, headers });
    t.equal(replay.status, 201);
    t.equal(replay.headers.get('idempotent-replayed'), 'true');
    t.equal(replay.body.key, first.body.key, 'the replay still answers the full key');
    created.push(first.body.key);

    const rotateHeaders = { 'idempotency-key': `rotate-key-${i}-abcdef` };
    const rotated = await h.api.call('POST', `/v1/keys/${first.body.id}/rotate`, { key: admin.key, body: { grace_hours: 1 }, headers: rotateHeaders });
    t.equal(rotated.status, 200);
    const again = await h.api.call('POST', `/v1/keys/${first.body.id}/rotate`, { key: admin.key, body: { grace_hours: 1 }, headers: rotateHeaders });
    t.equal(again.headers.get('idempotent-replayed'), 'true', 'a retried rotation replays instead of 409 key_already_rotated');
    t.equal(again.body.key, rotated.body.key);
    created.push(rotated.body.key);
  }
  const session = await h.api.call('POST', '/v1/sessions', { key: admin.key, body: {} });
  created.push(session.body.token);
  t.equal(created.length, 5);
});

t.test('no table holds a full secret key, nor its secret part', async (t) => {
  for (const secret of [...created, admin.key]) {
    t.same(await tablesHolding(secret), [], `${secret.slice(0, 12)}…: nowhere`);
    t.same(await tablesHolding(secret.slice(12)), [], `${secret.slice(0, 12)}…: its random part nowhere`);
  }
  const rows = await db('idempotency_keys').where({ tenant_id: admin.id });
  t.equal(rows.length, 4);
  for (const row of rows) t.match(row.response_body, { sealed: /^v1\./ }, `${row.key}: the kept answer is sealed`);
});

t.test('an answer sealed under a key no longer configured is not replayed, and says why', async (t) => {
  const row = await db('idempotency_keys').where({ tenant_id: admin.id, key: 'create-key-0-abcdef' }).first();
  const repo = idempotencyRepo(db, 48, new Sealer(randomBytes(32)));
  t.throws(() => repo.replayBody(row), { code: 'idempotency_replay_unavailable', status: 409 });
  // One character in the middle of the encrypted data (the last one of base64 may carry only padding bits that decoding drops).
  const sealed: string = row.response_body.sealed;
  const from = sealed.lastIndexOf('.') + Math.floor((sealed.length - sealed.lastIndexOf('.')) / 2);
  const at = from + [...sealed.slice(from)].findIndex((c) => /[A-Za-z0-9]/.test(c));
  const tampered = { ...row, response_body: { sealed: sealed.slice(0, at) + (sealed[at] === 'A' ? 'B' : 'A') + sealed.slice(at + 1) } };
  t.throws(() => h.api.deps.repos.idempotency.replayBody(tampered), { code: 'idempotency_replay_unavailable' }, 'an altered answer does not authenticate');
});

t.test('SECRET_ENCRYPTION_KEY: required in production, checked when set', async (t) => {
  t.throws(() => loadConfig({ NODE_ENV: 'production' }), /SECRET_ENCRYPTION_KEY: required in production/);
  t.throws(() => loadConfig({ SECRET_ENCRYPTION_KEY: 'short' }), /SECRET_ENCRYPTION_KEY/);
  const key = randomBytes(32);
  // Production also needs the billing provider's webhook secret (the mock provider's by default).
  const production = { NODE_ENV: 'production', MOCK_WEBHOOK_SECRET: randomBytes(24).toString('hex') };
  t.same(loadConfig({ ...production, SECRET_ENCRYPTION_KEY: key.toString('hex') }).secretEncryptionKey, key);
  t.same(loadConfig({ SECRET_ENCRYPTION_KEY: key.toString('base64') }).secretEncryptionKey, key);
  const dev = loadConfig({});
  t.equal(dev.secretEncryptionKeyIsDefault, true, 'development runs on the published key (the API warns)');
});

t.test('sealed fields of a stored result: opened for its store, left out of copies, null under another key', async (t) => {
  const sealer = new Sealer(randomBytes(32));
  const result = { export_id: 'exp_1', download_url: sealer.seal('/v1/data/exports/exp_1/download?token=abc'), bytes: 10 };
  t.same(openSealedFields(result, sealer), { export_id: 'exp_1', download_url: '/v1/data/exports/exp_1/download?token=abc', bytes: 10 });
  t.same(withoutSealedFields(result), { export_id: 'exp_1', bytes: 10 });
  t.same(openSealedFields(result, new Sealer(randomBytes(32))).download_url, null, 'sealed under a key no longer configured');
  const plain = { a: 1 };
  t.equal(openSealedFields(plain, sealer), plain, 'nothing sealed: the same object');
  t.equal(withoutSealedFields(null), null);
});
