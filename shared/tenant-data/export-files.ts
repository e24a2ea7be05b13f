import { lstat, readdir, rm } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import type { Knex } from 'knex';
import { exportsRepo } from './exports.repo.js';

/** An archive stays this long after its link expires: a download begun just before finishes, and API clocks may differ a little. */
export const EXPORT_FILE_GRACE_HOURS = 1;
/** A file no data_exports row knows (a crash between writing and recording) goes once this old; one being written is younger. */
export const STRAY_EXPORT_HOURS = 24;
/** What the export stages write under `<dir>/<tenant>/`: archives, a catalog export's plain lines, a data archive's work folder. Nothing else is touched. */
const EXPORT_NAME = /^(data|catalog)-.+\.(tar\.gz|jsonl|parts)$/;

/**
 * Walks `<dir>/<tenant>/` and removes the archives whose link expired over EXPORT_FILE_GRACE_HOURS
 * ago, and the export files no row of that store knows once over STRAY_EXPORT_HOURS old. The
 * data_exports rows stay: an expired link keeps answering 410 `link_expired`. The work follows the
 * files on disk, not every export ever made. Idempotent: a second run finds nothing to remove.
 */
export async function purgeExportFiles(db: Knex, dir: string, signal?: AbortSignal): Promise<{ expired: number; stray: number }> {
  const now = Date.now();
  const root = resolve(dir);
  const removed = { expired: 0, stray: 0 };
  for (const entry of await listing(root)) {
    signal?.throwIfAborted();
    if (!entry.isDirectory()) continue;
    const folder = join(root, entry.name);
    const names = (await listing(folder)).map((e) => e.name).filter((name) => EXPORT_NAME.test(name));
    if (!names.length) continue;
    // By store and file name: a row of another store never keeps a file, and a working directory
    // other than the writer's (a relative EXPORT_DIR) does not orphan one.
    const expiresAt = new Map((await exportsRepo(db).forTenant(entry.name)).map((r) => [basename(r.file), new Date(r.expires_at).getTime()]));
    for (const name of names) {
      const path = join(folder, name);
      const expires = expiresAt.get(name);
      if (expires !== undefined) {
        if (expires < now - EXPORT_FILE_GRACE_HOURS * 3600_000 && (await remove(path))) removed.expired++;
      } else if (((await modified(path)) ?? now) < now - STRAY_EXPORT_HOURS * 3600_000 && (await remove(path))) removed.stray++;
    }
  }
  return removed;
}

/** `fn`'s answer, or `missing` when the path is not there (never created, or removed meanwhile: a store being deleted). */
async function unlessMissing<T>(fn: () => Promise<T>, missing: T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return missing;
    throw err;
  }
}

const listing = (dir: string) => unlessMissing(() => readdir(dir, { withFileTypes: true }), []);
const modified = (path: string) => unlessMissing(async () => (await lstat(path)).mtimeMs, undefined);

/** Removes a file or folder; false if it was not there. */
async function remove(path: string): Promise<boolean> {
  if ((await modified(path)) === undefined) return false;
  await rm(path, { recursive: true, force: true });
  return true;
}
