import t from 'tap';
import { execFile } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { promisify } from 'node:util';
import { setup } from '../helpers/harness.js';

/** The command-line tools: --help, bad arguments and failures read as messages with a non-zero exit, never a stack trace. */

// Every case starts a node process (tsx compiles the script): slower than the default file timeout on a busy machine.
t.setTimeout(300_000);
const h = await setup();
const { id: tenantId } = await h.tenant();
t.teardown(() => h.close());

const exec = promisify(execFile);
const env = { ...process.env, DATABASE_URL: h.config.databaseUrl, REDIS_URL: h.config.redisUrl, QUEUE_PREFIX: h.config.queuePrefix, LOG_LEVEL: 'silent' };
/** Runs a script; resolves with its exit code and output whatever the code. */
async function run(script: string, args: string[], extraEnv: Record<string, string> = {}) {
  const out = await exec(process.execPath, ['--import', 'tsx', `scripts/${script}`, ...args], { env: { ...env, ...extraEnv }, timeout: 60_000 }).then(
    (r) => ({ code: 0, ...r }),
    (e: { code: number; stdout: string; stderr: string }) => e,
  );
  return { code: out.code, stdout: String(out.stdout), stderr: String(out.stderr) };
}
const noStack = (s: string) => !/^\s+at /m.test(s) && !/node:internal/.test(s);

t.test('--help prints the usage and exits 0, before anything runs', async (t) => {
  for (const script of ['tenant-create.ts', 'load-catalog.ts', 'demo.ts']) {
    const r = await run(script, ['--help']);
    t.same([r.code, /^usage: /.test(r.stdout), noStack(r.stderr)], [0, true, true], `${script} --help`);
  }
  // No database behind this URL: a --help that migrated would fail.
  const migrate = await run('migrate.ts', ['--help'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/pss_no_such_database' });
  t.same([migrate.code, /^usage: /.test(migrate.stdout)], [0, true], 'migrate --help migrates nothing');
});

t.test('an unknown option or a missing value: the problem and the usage, exit 2', async (t) => {
  const unknown = await run('tenant-create.ts', ['--name', 'X', '--bogus']);
  t.same([unknown.code, noStack(unknown.stderr)], [2, true]);
  t.match(unknown.stderr, /Unknown option '--bogus'[\s\S]*usage: npm run tenant:create/);
  const missing = await run('tenant-create.ts', ['--name']);
  t.same([missing.code, noStack(missing.stderr)], [2, true]);
  t.match(missing.stderr, /--name/);
  const noName = await run('tenant-create.ts', []);
  t.same([noName.code, noStack(noName.stderr)], [2, true]);
  const noLocale = await run('tenant-create.ts', ['--name', 'X', '--locales=']);
  t.same([noLocale.code, noStack(noLocale.stderr)], [2, true]);
  t.match(noLocale.stderr, /--locales needs at least one locale/);
  t.equal(
    await h.api.deps
      .db('tenants')
      .count({ n: '*' })
      .first()
      .then((r) => Number(r!.n)),
    1,
    'no tenant was created',
  );
});

t.test('session:create: hours outside what POST /v1/sessions takes are refused; good ones mint a session', async (t) => {
  for (const hours of ['abc', '--hours=-3', '100000000']) {
    const r = await run('session-create.ts', ['--tenant', tenantId, hours.startsWith('--') ? hours : `--hours=${hours}`]);
    t.same([r.code, noStack(r.stderr)], [2, true], `--hours ${hours}`);
    t.match(r.stderr, /--hours must be a number/);
  }
  t.equal(
    await h.api.deps
      .db('dashboard_sessions')
      .count({ n: '*' })
      .first()
      .then((r) => Number(r!.n)),
    0,
    'none was minted',
  );
  const ok = await run('session-create.ts', ['--tenant', tenantId, '--hours', '2']);
  t.equal(ok.code, 0);
  const out = JSON.parse(ok.stdout);
  const hours = (Date.parse(out.expires_at) - Date.now()) / 3600_000;
  t.ok(hours > 1.5 && hours <= 2, `expires in about 2 hours (${hours.toFixed(2)})`);
  const unknown = await run('session-create.ts', ['--tenant', 'ten_nope']);
  t.same([unknown.code, unknown.stderr.trim()], [1, 'no tenant ten_nope']);
});

t.test('a failure says what failed, exit 1, no stack trace', async (t) => {
  const config = await run('tenant-create.ts', ['--name', 'X'], { DATABASE_URL: 'not a url' });
  t.same([config.code, noStack(config.stderr)], [1, true], 'bad configuration');
  t.match(config.stderr, /invalid configuration[\s\S]*DATABASE_URL/);
  // A port nothing listens on: one the system just gave out and took back.
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  const load = await run('load-catalog.ts', ['--file', 'scripts/sample/demo-store.product-in.jsonl', '--key', 'sk_x', '--url', `http://127.0.0.1:${port}`]);
  t.same([load.code, noStack(load.stderr)], [1, true], 'an API that cannot be reached');
  t.match(load.stderr, /ECONNREFUSED/);
  const limit = await run('load-catalog.ts', ['--file', 'scripts/sample/demo-store.product-in.jsonl', '--key', 'sk_x', '--limit', 'ten']);
  t.same([limit.code, noStack(limit.stderr)], [2, true], '--limit ten');
  t.match(limit.stderr, /--limit must be a number/);
});
