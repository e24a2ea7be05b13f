import { defineStage } from '../define-stage.js';
import { indexContext, removeDeleted } from '../../shared/catalog/index.js';
import { embedLive, embedProductsJob, startEmbed } from '../../shared/vectors/index.js';

/** Retrain when the catalog doubled or halved since the model was trained (a bulk load trains a few times, not per batch). */
const RETRAIN_FACTOR = 2;

/**
 * Embeds one indexed batch into every live vector generation and removes deleted products from
 * the vector store; runs after index-products, so lexical visibility never waits for it.
 * Re-runnable: writes are upserts by (generation, product) that never regress a product version.
 * A store without vectors (or whose catalog changed much since its model was trained) gets an
 * `embed` job instead. Job id: embed-<tenant>-<batch>.
 */
export const embedProducts = defineStage({
  ...embedProductsJob,
  async run({ data, deps }) {
    const { active, building } = await deps.vectors.generations(data.tenantId);
    if (!active && !building) {
      // No vectors yet (a store's first load): nothing to write into or remove from; the embed job fills them once the load settles.
      await startEmbed(deps, data.tenantId, 'first vectors');
      return { embedded: 0, removed: 0, served: false };
    }
    const { products } = deps.repos;
    const rows = await products.findMany(data.tenantId, data.ids);
    // A deleted product stored again since keeps its vector (its new batch embeds it, maybe already): only what is not stored now goes.
    const gone = await removeDeleted(products, data.tenantId, data, rows, (ids) => deps.vectors.remove(data.tenantId, ids));
    const ctx = await indexContext(deps, data.tenantId);
    const served = await embedLive(deps, data.tenantId, ctx.toDocs(rows), deps.config.vectors.embeddingBatch);
    await deps.notices.publish('vectors', data.tenantId);
    const trained = (await deps.embedders.trainedOn?.(data.tenantId)) ?? null;
    const count = served && trained !== null ? await products.count(data.tenantId) : 0;
    if (!served || (trained !== null && (count > RETRAIN_FACTOR * trained + 50 || count < trained / RETRAIN_FACTOR - 50))) {
      await startEmbed(deps, data.tenantId, served ? 'catalog changed' : 'first vectors');
    }
    return { embedded: rows.length, removed: gone.length, served };
  },
});
