import { defineStage } from '../define-stage.js';
import { indexContext } from '../../shared/catalog/index.js';
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
    const found = new Set(rows.map((r) => r.id));
    // A deleted product stored again since keeps its vector (its new batch embeds it, maybe already): only what is not stored now goes.
    const back = await products.existingIds(data.tenantId, data.deletes);
    let gone = [...new Set([...data.deletes.filter((id) => !back.has(id)), ...data.ids.filter((id) => !found.has(id))])];
    if (gone.length) {
      await deps.vectors.remove(data.tenantId, gone);
      // Stored again between the check and the removal (its batch's embed job may have written it before the removal): embedded again below.
      const again = await products.findMany(data.tenantId, gone);
      rows.push(...again);
      const stored = new Set(again.map((r) => r.id));
      gone = gone.filter((id) => !stored.has(id));
    }
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
