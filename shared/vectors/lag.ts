import type { Knex } from 'knex';
import type { VectorStore } from '../engines/vectors/port.js';

/** Products whose latest version has no vector in the serving generation yet, and how long the oldest has waited. */
export interface VectorLag {
  pending: number;
  oldest_s: number | null;
}

/** Products compared with the store per call (by id: one product list page, one store lookup). */
const PAGE = 1000;

/** Asks the configured vector store which version of each stored product it serves. */
export async function vectorLag(db: Knex, vectors: VectorStore, tenantId: string): Promise<VectorLag> {
  let pending = 0;
  let oldest: number | null = null;
  for (let after = ''; ;) {
    const { rows }: { rows: Array<{ id: string; version: string; waited: string }> } = await db.raw(
      `SELECT id, (extract(epoch FROM updated_at) * 1000)::bigint AS version, extract(epoch FROM now() - updated_at) AS waited
         FROM products WHERE tenant_id = ? AND id > ? ORDER BY id LIMIT ?`,
      [tenantId, after, PAGE],
    );
    if (!rows.length) break;
    const stored = await vectors.versions(
      tenantId,
      rows.map((r) => r.id),
    );
    for (const r of rows) {
      const v = stored.get(r.id);
      if (v !== undefined && v >= Number(r.version)) continue;
      pending++;
      oldest = Math.max(oldest ?? 0, Number(r.waited));
    }
    if (rows.length < PAGE) break;
    after = rows[rows.length - 1].id;
  }
  return { pending, oldest_s: oldest == null ? null : Math.round(oldest * 10) / 10 };
}
