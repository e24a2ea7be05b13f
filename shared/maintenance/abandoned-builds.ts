import type { LexicalEngine } from '../engines/lexical/port.js';
import { TERMINAL, type jobsRepos } from '../jobs/index.js';

/**
 * How long a generation may build before the sweep asks whose it is. Only generations whose job
 * has finished go, so this bounds how long one can linger, not how long a reindex may take.
 */
export const ABANDONED_BUILD_MS = 15 * 60_000;

export interface AbandonedBuildDeps {
  engine: Pick<LexicalEngine, 'staleBuilds' | 'dropBuild' | 'dropGeneration'>;
  repos: ReturnType<typeof jobsRepos>;
}

/**
 * Drops index generations still building over `olderThanMs` after they began whose reindex job has
 * finished (canceled, failed, or its row gone): the safety net for a build whose own cleanup never
 * ran (its worker died, its drop failed). One begun by no known job goes once its store has no
 * reindex queued or running. Returns what it dropped; the serving generations are never touched.
 */
export async function dropAbandonedBuilds(
  deps: AbandonedBuildDeps,
  olderThanMs = ABANDONED_BUILD_MS,
): Promise<Array<{ tenantId: string; generation: number }>> {
  const dropped: Array<{ tenantId: string; generation: number }> = [];
  for (const build of await deps.engine.staleBuilds(olderThanMs)) {
    if (build.owner) {
      const job = await deps.repos.jobs.get(build.owner);
      if (job && !TERMINAL.includes(job.status)) continue;
      if ((await deps.engine.dropBuild(build.tenantId, build.owner)) !== null) dropped.push({ tenantId: build.tenantId, generation: build.generation });
    } else {
      if (await liveReindex(deps, build.tenantId)) continue;
      await deps.engine.dropGeneration(build.tenantId, build.generation);
      dropped.push({ tenantId: build.tenantId, generation: build.generation });
    }
  }
  return dropped;
}

async function liveReindex(deps: AbandonedBuildDeps, tenantId: string): Promise<boolean> {
  for (const status of ['queued', 'running'] as const) {
    if ((await deps.repos.jobs.list(tenantId, { kind: 'reindex', status, limit: 1 })).length) return true;
  }
  return false;
}
