import { defineStage } from '../define-stage.js';
import { indexJob, reindexProducts } from '../../shared/translation/index.js';

/**
 * Sends products whose served translations changed through the catalog's index stage (so they
 * reach search within visible_within_s), then counts the chunk done; the chunk that completes the
 * backfill closes its jobs row, and drops the provider answers translate-fields kept for the chunk.
 * Re-runnable: the index job id and the chunk mark are keyed by run and chunk. Job id: index-translations-<tenant>-<run>-<chunk>.
 */
export const indexTranslations = defineStage({
  ...indexJob,
  async run({ data, deps, progress, detach }) {
    if (data.changedProducts?.length) await reindexProducts(deps.queues, data.tenantId, data.changedProducts, `tr-${data.runId}-${data.chunk}`);
    const outcome = data.outcome ?? {};
    // The chunk's translations are written: the provider answers kept for translate-fields' retries can go.
    await deps.repos.translationAnswers.forget(data.tenantId, data.runId, data.chunk);
    if (!data.jobRowId) return outcome;
    const state = await deps.repos.translationRuns.chunkDone(data.tenantId, data.jobRowId, data.chunk, outcome);
    if (state.total !== null && state.done >= state.total) return { chunks: state.total, fields: state.fields, ...state.counts };
    if (state.total) await progress(0.02 + (0.98 * state.done) / state.total);
    detach();
    return outcome;
  },
});
