import type { Knex } from 'knex';
import type { VectorGeneration } from './port.js';

/** Which vector generation of a store serves and which is building (`vector_generations`), shared by the vector store adapters. */
export class PostgresGenerations {
  constructor(private db: Knex) {}

  async get(tenantId: string): Promise<{ active: VectorGeneration | null; building: VectorGeneration | null }> {
    const row = await this.db('vector_generations').where({ tenant_id: tenantId }).first();
    if (!row) return { active: null, building: null };
    return {
      active: row.active == null ? null : { generation: row.active, embedderId: row.active_embedder, dims: row.dims },
      building: row.building == null ? null : { generation: row.building, embedderId: row.building_embedder, dims: row.dims },
    };
  }

  async live(tenantId: string, generation: number): Promise<VectorGeneration | null> {
    const { active, building } = await this.get(tenantId);
    return [active, building].find((g) => g?.generation === generation) ?? null;
  }

  /** A new generation: the first serves at once; otherwise it builds (a previous building one is dropped: `dropped`). */
  async begin(tenantId: string, embedderId: string, dims: number): Promise<{ generation: number; first: boolean; dropped: number | null }> {
    return this.db.transaction(async (trx) => {
      const row = await trx('vector_generations').where({ tenant_id: tenantId }).forUpdate().first();
      if (!row) {
        await trx('vector_generations').insert({ tenant_id: tenantId, active: 1, active_embedder: embedderId, dims });
        return { generation: 1, first: true, dropped: null };
      }
      const next = Math.max(row.active ?? 0, row.building ?? 0) + 1;
      await trx('vector_generations').where({ tenant_id: tenantId }).update({ building: next, building_embedder: embedderId, dims, updated_at: trx.fn.now() });
      return { generation: next, first: false, dropped: row.building ?? null };
    });
  }

  /** Serves `generation`; returns the generation it replaced (null: it already served). */
  async activate(tenantId: string, generation: number): Promise<number | null> {
    return this.db.transaction(async (trx) => {
      const row = await trx('vector_generations').where({ tenant_id: tenantId }).forUpdate().first();
      if (!row || (row.building !== generation && row.active !== generation)) throw new Error(`vector generation ${generation} of ${tenantId} is not live`);
      if (row.active === generation) return null;
      await trx('vector_generations')
        .where({ tenant_id: tenantId })
        .update({ active: generation, active_embedder: row.building_embedder, building: null, building_embedder: null, updated_at: trx.fn.now() });
      return row.active as number;
    });
  }

  async drop(tenantId: string, generation: number): Promise<void> {
    await this.db('vector_generations').where({ tenant_id: tenantId, building: generation }).update({ building: null, building_embedder: null });
  }

  async forget(tenantId: string): Promise<void> {
    await this.db('vector_generations').where({ tenant_id: tenantId }).delete();
  }
}
