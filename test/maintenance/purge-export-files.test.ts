import t from 'tap';
import { existsSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupWithWorkers } from '../helpers/workers.js';
import { runPurge } from './run-purge.js';

// Export archives on the real filesystem, in a temp EXPORT_DIR, purged by the real stage through a
// real worker; links checked through the real download route. Two stores, each with every case.
const exportDir = mkdtempSync(join(tmpdir(), 'pss-export-files-'));
t.teardown(() => rmSync(exportDir, { recursive: true, force: true }));
const { h } = await setupWithWorkers({ EXPORT_DIR: exportDir });
const { db } = h.api.deps;
const exportsRepo = h.api.deps.repos.dataExports;

const runStage = (run: string) => runPurge(h, run);

/** A file (or folder) under the store's folder, last written `hoursAgo`. */
function put(tenantId: string, name: string, hoursAgo: number, folder = false): string {
  const path = join(exportDir, tenantId, name);
  mkdirSync(join(exportDir, tenantId), { recursive: true });
  if (folder) {
    mkdirSync(path);
    writeFileSync(join(path, 'products.jsonl'), '{}\n');
  } else writeFileSync(path, `archive ${tenantId} ${name}`);
  const at = new Date(Date.now() - hoursAgo * 3600_000);
  utimesSync(path, at, at);
  return path;
}

/** An archive recorded by its export job, its link expiring in `ttlHours` (negative: expired that long ago). */
async function recorded(tenantId: string, name: string, ttlHours: number) {
  const file = put(tenantId, `${name}.tar.gz`, Math.max(0, -ttlHours) + 24);
  const { row, token } = await exportsRepo.create({ tenantId, jobId: `job_${name}`, kind: 'export', file, bytes: 10, ttlHours });
  return { file, link: `/v1/data/exports/${row.id}/download?token=${token}` };
}

async function seed(tenantId: string) {
  return {
    expired: await recorded(tenantId, 'catalog-job_expired', -2),
    // Expired, but within the grace: the link already answers 410, the file is not removed yet.
    justExpired: await recorded(tenantId, 'data-job_just_expired', -0.25),
    live: await recorded(tenantId, 'data-job_live', 20),
    strayOld: put(tenantId, 'data-job_crashed.tar.gz', 25),
    strayOldParts: put(tenantId, 'data-job_killed.parts', 25, true),
    strayOldLines: put(tenantId, 'catalog-job_killed.jsonl', 25),
    strayNew: put(tenantId, 'data-job_writing.tar.gz', 1),
    notOurs: put(tenantId, 'notes.txt', 100),
  };
}

t.test('purge-expired removes expired and stray export files, keeps live ones, and expired links still answer 410', async (t) => {
  const a = await h.tenant('Store A');
  const b = await h.tenant('Store B');
  const files = { [a.id]: await seed(a.id), [b.id]: await seed(b.id) };
  // A live archive of store B only, whose name store A's folder also holds, unrecorded and old: B's row does not keep A's file.
  const bOnly = await recorded(b.id, 'data-job_b_only', 20);
  const borrowed = put(a.id, 'data-job_b_only.tar.gz', 25);

  const first = await runStage('files-first');
  t.same(first.returnvalue.export_files, { expired: 2, stray: 7 }, 'per store: the expired archive; the old strays (and A: the borrowed name)');
  for (const [tenantId, f] of Object.entries(files)) {
    const store = tenantId === a.id ? 'store A' : 'store B';
    t.notOk(existsSync(f.expired.file), `${store}: the archive past its link and the grace is gone`);
    t.ok(existsSync(f.justExpired.file), `${store}: an archive within the grace stays`);
    t.ok(existsSync(f.live.file), `${store}: a live archive stays`);
    t.notOk(existsSync(f.strayOld), `${store}: an unrecorded archive over a day old is gone`);
    t.notOk(existsSync(f.strayOldParts), `${store}: a data archive's work folder left over a day ago is gone`);
    t.notOk(existsSync(f.strayOldLines), `${store}: a catalog export's plain lines left over a day ago are gone`);
    t.ok(existsSync(f.strayNew), `${store}: an unrecorded file under a day old stays (an export being written)`);
    t.ok(existsSync(f.notOurs), `${store}: a file no export stage writes is never touched`);

    for (const link of [f.expired.link, f.justExpired.link]) {
      const res = await fetch(`${h.api.url}${link}`);
      t.equal(res.status, 410, `${store}: an expired link answers 410, its file gone or not`);
      t.equal((await res.json()).error.code, 'link_expired');
    }
    const live = await fetch(`${h.api.url}${f.live.link}`);
    t.equal(live.status, 200, `${store}: a live link downloads`);
    t.equal(await live.text(), `archive ${tenantId} data-job_live.tar.gz`, `${store}: its own archive`);
  }
  t.notOk(existsSync(borrowed), "store B's row kept no file of store A");
  t.ok(existsSync(bOnly.file), "store B's own file of that name stays");
  t.equal(Number((await db('data_exports').count({ n: '*' }))[0].n), 7, 'the rows stay, so the links answer 410 rather than 404');

  const second = await runStage('files-second');
  t.same(second.returnvalue.export_files, { expired: 0, stray: 0 }, 'a second run removes nothing');
  for (const f of Object.values(files)) t.ok(existsSync(f.live.file) && existsSync(f.strayNew) && existsSync(f.justExpired.file));
});
