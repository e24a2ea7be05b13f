import { defineStage } from '../define-stage.js';
import { indexContext } from '../../shared/catalog/index.js';
import { buildVectorsJob, embedInto, vectorText } from '../../shared/vectors/index.js';

const PAGE = 1000;
/** A catalog still being loaded (products waiting for lexical indexing) is waited for this long at most before training. */
const SETTLE_MS = 60_000;

/**
 * The `embed` job: prepares the embedder (the catalog embedder trains a new version on the
 * store's products), fills a new vector generation beside the serving one, then serves it and
 * drops the old one. Batches indexed meanwhile are written into both generations by
 * embed-products. Re-runnable: a re-run starts a fresh generation. Job id: vectors-<job row>.
 */
export const buildVectors = defineStage({
  ...buildVectorsJob,
  async run({ data, deps, progress, signal }) {
    // Training on the first batches of a bulk load would soon need a retrain: let the load settle first.
    const settleUntil = Date.now() + SETTLE_MS;
    while (Date.now() < settleUntil && !signal.aborted && (await deps.repos.products.countUnindexed(data.tenantId)) > 0) {
      await new Promise((r) => setTimeout(r, 1000));
    }
    // A cancel ends the wait: stop before training (and storing) a model nothing will use.
    signal.throwIfAborted();
    const ctx = await indexContext(deps, data.tenantId);
    const products = deps.repos.products;
    const total = await products.count(data.tenantId);
    const pages = async function* () {
      let after: string | null = null;
      for (;;) {
        const rows = await products.page(data.tenantId, after, PAGE);
        if (!rows.length) return;
        after = rows[rows.length - 1].id;
        yield rows;
      }
    };
    const embedder = await deps.embedders.prepare(data.tenantId, async function* () {
      for await (const rows of pages()) yield ctx.toDocs(rows).map(vectorText);
    });
    await progress(0.2);
    const generation = await deps.vectors.beginGeneration(data.tenantId, embedder.id, embedder.dims);
    let done = 0;
    try {
      for await (const rows of pages()) {
        if (signal.aborted) throw new Error('canceled');
        await embedInto(deps, data.tenantId, generation, embedder, ctx.toDocs(rows), deps.config.vectors.embeddingBatch, signal);
        done += rows.length;
        await progress(0.2 + 0.75 * (total ? done / total : 1));
      }
      await deps.vectors.activate(data.tenantId, generation);
    } catch (err) {
      const { active } = await deps.vectors.generations(data.tenantId);
      if (active?.generation !== generation) await deps.vectors.dropGeneration(data.tenantId, generation);
      throw err;
    }
    await deps.notices.publish('vectors', data.tenantId);
    return { generation, embedder: embedder.id, dims: embedder.dims, vectors: done };
  },
});
