import { z } from 'zod';
import { defineStage } from '../define-stage.js';

/**
 * Makes the built generation the serving one and drops the old one (products deleted during
 * the build were removed from both by the delete path); a reindex canceled before the swap drops
 * the built generation instead. Job id: swap-<job row>-<generation>.
 */
export const swapGeneration = defineStage({
  queue: 'reindex',
  name: 'swap-generation',
  schema: z.object({ tenantId: z.string().min(1), jobRowId: z.string().min(1), generation: z.number().int().positive(), documents: z.number().int().min(0) }),
  jobId: (d) => `swap-${d.jobRowId}-${d.generation}`,
  async run({ data, deps, progress }) {
    await deps.engine.swapGeneration(data.tenantId, data.generation);
    await deps.notices.publish('index', data.tenantId);
    // The generation was built with the current mapping: its facet names now serve.
    await deps.notices.publish('context', data.tenantId);
    await progress(1);
    return { generation: data.generation, documents: data.documents };
  },
  // Canceled before the swap: the built generation never serves, and writes stop going to it.
  async canceled({ data, deps }) {
    await deps.engine.dropGeneration(data.tenantId, data.generation);
  },
});
