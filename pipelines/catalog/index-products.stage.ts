import { defineStage } from '../define-stage.js';
import { indexContext } from '../../shared/catalog/indexer.js';
import { removeDeleted, removeUnstored } from '../../shared/catalog/remove-deleted.js';
import { indexProductsJob } from '../../shared/catalog/catalog.jobs.js';
import { tenantJobDone } from '../../shared/platform/queue/fairness.js';
import { refreshVocabulary } from '../search/refresh-vocabulary.stage.js';
import { localize, productsChanged } from '../../shared/translation/index.js';
import { translationHooks } from '../translation/hooks.js';
import { embedProducts } from '../vectors/embed-products.stage.js';

/**
 * Indexes one stored batch into the lexical engine: upserts the products' current versions,
 * removes deleted ones (those not stored again since), marks them indexed. Re-runnable: engine writes are upserts keyed by
 * product id and never regress to an older product version. Job id: index-<tenant>-<batch>.
 * The embed-products and upsert-vectors stages (VectorStore port) chain after this one via ctx.next.
 * Translation's hooks run here: changed sources mark their translations stale (watch mode queues
 * new ones), and served translations fill the products' locale fields.
 */
export const indexProducts = defineStage({
  ...indexProductsJob,
  async run({ data, deps, progress }) {
    const { products } = deps.repos;
    const ctx = await indexContext(deps, data.tenantId);
    const rows = await products.findMany(data.tenantId, data.ids);
    // A deleted product stored again since stays in search (its new batch indexes it, maybe already): only what is not stored now goes.
    const gone = await removeDeleted(products, data.tenantId, data, rows, (ids) => deps.engine.remove(data.tenantId, ids));
    const hooks = translationHooks(deps);
    await productsChanged(hooks, data.tenantId, rows, gone);
    await progress(0.2);
    await deps.engine.upsert(data.tenantId, ctx.toDocs(await localize(hooks, data.tenantId, rows)), ctx.settings);
    // A product deleted while it was indexed had its document removed before this write landed: taken out again here.
    await removeUnstored(
      products,
      data.tenantId,
      rows.map((r) => r.id),
      (ids) => deps.engine.remove(data.tenantId, ids),
    );
    await products.markIndexed(
      data.tenantId,
      rows.map((r) => ({ id: r.id, updatedAt: r.updated_at })),
    );
    await deps.notices.publish('index', data.tenantId);
    await tenantJobDone(deps.redis, deps.config.queuePrefix, 'catalog', data.tenantId).catch(() => undefined);
    // One vocabulary rebuild per tenant per window, run after the window closes.
    const window = deps.config.vocabDebounceMs;
    const bucket = Math.floor(Date.now() / window);
    await deps.queues.enqueue(refreshVocabulary, { tenantId: data.tenantId, bucket }, { delayMs: (bucket + 1) * window - Date.now() + 200 });
    // Vectors follow in their own queue: lexical visibility never waits for embedding.
    await deps.queues.enqueue(embedProducts, { tenantId: data.tenantId, batchId: data.batchId, ids: data.ids, deletes: data.deletes });
    return { indexed: rows.length, removed: gone.length };
  },
});
