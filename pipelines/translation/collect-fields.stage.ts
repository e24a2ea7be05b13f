import { defineStage } from '../define-stage.js';
import { collect, collectJob, protectJob } from '../../shared/translation/index.js';

const NO_PROVIDER = 'no translation provider is configured: the items wait as pending for people to translate';

/**
 * Backfill fan-out: marks changed sources stale, creates pending items for fields without one,
 * and hands the fields to translate to protect-fields in chunks (none without a provider).
 * Re-runnable: items are upserts on (product, field, key, locale); chunk job ids are
 * protect-fields-<tenant>-<run>-<chunk>. Job id: collect-fields-<tenant>-<run>.
 */
export const collectFields = defineStage({
  ...collectJob,
  async run({ data, deps, next, progress }) {
    const tenant = await deps.repos.tenants.find(data.tenantId);
    if (!tenant) return { skipped: 'tenant not found' };
    const { translationItems: items, translationRuns: runs } = deps.repos;
    const translate = deps.translator !== null;
    const reviewProducts = new Set(await items.topProducts(data.tenantId, data.reviewTopN));
    if (data.jobRowId) await runs.start(data.tenantId, data.jobRowId);
    let chunks = 0;
    const totals = await collect(
      { catalog: deps.repos.products, items },
      data.tenantId,
      { scope: data.scope, target: data.targetLocale, fields: data.fields, productIds: data.productIds },
      {
        preferred: tenant.default_locale,
        translate,
        chunkFields: deps.config.translation.chunkFields,
        reviewProducts,
        emit: (chunkItems) =>
          next(protectJob, {
            tenantId: data.tenantId,
            jobRowId: data.jobRowId,
            runId: data.runId,
            chunk: chunks++,
            targetLocale: data.targetLocale,
            items: chunkItems,
          }),
        progress: () => progress(0.02),
      },
    );
    const result = {
      products: totals.products,
      fields: totals.fields,
      pending_created: totals.created,
      chunks,
      provider: deps.translator?.name ?? null,
      ...(translate ? {} : { note: NO_PROVIDER }),
    };
    // Nothing handed on: the runner closes the row with this result.
    if (!chunks || !data.jobRowId) return result;
    // Chunks may all have finished while collect was still paging: then it closes the row itself.
    const state = await runs.setTotal(data.tenantId, data.jobRowId, chunks, totals.fields);
    if (state.done >= chunks) await deps.repos.jobs.finish(data.jobRowId, 'succeeded', { result: { ...result, ...state.counts } });
    return result;
  },
});
