import { defineStage } from '../define-stage.js';
import { indexContext } from '../../shared/catalog/indexer.js';
import { buildGenerationJob } from '../../shared/catalog/catalog.jobs.js';
import { swapGeneration } from './swap-generation.stage.js';
import { localize } from '../../shared/translation/index.js';
import { translationHooks } from '../translation/hooks.js';

const PAGE = 1000;

/**
 * Builds a new index generation from stored products beside the serving one (searches keep
 * using the old one), with served translations in their locale fields. Re-runnable: a re-run starts a fresh generation
 * (the one an earlier attempt left goes). A cancel drops the generation this job began. Job id: reindex-<job row>.
 */
export const buildGeneration = defineStage({
  ...buildGenerationJob,
  async run({ data, deps, progress, signal, next }) {
    const ctx = await indexContext(deps, data.tenantId);
    const total = await deps.repos.products.count(data.tenantId);
    const generation = await deps.engine.beginGeneration(data.tenantId, ctx.settings, data.jobRowId);
    let after: string | null = null;
    let done = 0;
    try {
      for (;;) {
        if (signal.aborted) throw new Error('canceled');
        const rows = await deps.repos.products.page(data.tenantId, after, PAGE);
        if (!rows.length) break;
        await deps.engine.writeGeneration(data.tenantId, generation, ctx.toDocs(await localize(translationHooks(deps), data.tenantId, rows)));
        done += rows.length;
        after = rows[rows.length - 1].id;
        await progress(total ? 0.95 * (done / total) : 0.5);
      }
    } catch (err) {
      await deps.engine.dropGeneration(data.tenantId, generation);
      throw err;
    }
    await next(swapGeneration, { tenantId: data.tenantId, jobRowId: data.jobRowId, generation, documents: done });
    return { generation, documents: done };
  },
  // Canceled before an attempt ran, or as one stopped: an earlier attempt that failed may have left
  // its generation building (its own drop failed too, or it died), which every write would keep updating.
  async canceled({ data, deps }) {
    const dropped = await deps.engine.dropBuild(data.tenantId, data.jobRowId);
    if (dropped) deps.logger.info('canceled reindex: its generation dropped', { tenantId: data.tenantId, generation: dropped });
  },
});
