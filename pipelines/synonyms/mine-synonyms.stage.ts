import { mineSynonymsJob } from '../../shared/synonyms/synonyms.jobs.js';
import { defineStage } from '../define-stage.js';
import { mineCandidates } from '../../shared/synonyms/mining-candidates.js';
import { coverage } from '../../shared/synonyms/mining-coverage.js';

const DAY_MS = 24 * 3600_000;
/** Rows read per source per run: bounds memory on very busy tenants (the newest activity is not preferred; see README). */
export const MAX_ROWS = 200_000;

/**
 * Mines one tenant's search log and search clicks for synonym suggestions and upserts them as
 * pending (evidence and score refreshed; approved/rejected ones never touched; rules an enabled
 * synonym already covers skipped). Re-runnable: writes are upserts on (tenant, fingerprint).
 * Job id: mine-synonyms-<job row>.
 */
export const mineSynonyms = defineStage({
  ...mineSynonymsJob,
  async run({ data, deps, progress, signal }) {
    const since = new Date(Date.now() - data.days * DAY_MS);
    const events = deps.repos.events;
    const searches = await events.zeroResultSessionSearches(data.tenantId, since, MAX_ROWS);
    await progress(0.3);
    const clicks = await events.searchClicks(data.tenantId, since, MAX_ROWS);
    await progress(0.6);
    signal.throwIfAborted();
    const candidates = mineCandidates(searches, clicks, { minSessions: data.minSessions });
    const covered = coverage(await deps.repos.suggestions.enabledRules(data.tenantId));
    const fresh = candidates.filter((c) => !covered(c));
    await progress(0.8);
    const written = await deps.repos.suggestions.upsertPending(data.tenantId, fresh);
    return {
      searches: searches.length,
      clicks: clicks.length,
      candidates: candidates.length,
      covered: candidates.length - fresh.length,
      created: written.created,
      refreshed: written.refreshed,
      already_decided: written.decided,
      truncated: searches.length >= MAX_ROWS || clicks.length >= MAX_ROWS,
    };
  },
});
