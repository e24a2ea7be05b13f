import type { Knex } from 'knex';

export interface RunState {
  total: number | null;
  done: number;
  fields: number;
  counts: Record<string, number>;
}

/** Accounting of a backfill's chunks: the chunk that completes the run (or the collect that finds it complete) closes the jobs row. */
export function runsRepo(db: Knex) {
  const state = (r: { total_chunks: number | null; done: number; fields: number; counts: Record<string, number> }): RunState => ({
    total: r.total_chunks,
    done: Number(r.done),
    fields: r.fields,
    counts: r.counts,
  });
  return {
    async start(tenantId: string, jobId: string): Promise<void> {
      await db.raw(`INSERT INTO translation_runs (tenant_id, job_id) VALUES (?, ?) ON CONFLICT DO NOTHING`, [tenantId, jobId]);
    },
    /** Records how many chunks and fields collect handed out. */
    async setTotal(tenantId: string, jobId: string, chunks: number, fields: number): Promise<RunState> {
      const [row] = await db('translation_runs')
        .where({ tenant_id: tenantId, job_id: jobId })
        .update({ total_chunks: chunks, fields })
        .returning(['total_chunks', db.raw('cardinality(done_chunks) AS done'), 'fields', 'counts']);
      return state(row);
    },
    /** Marks a chunk done once (a re-run adds nothing) and adds its outcome counts. */
    async chunkDone(tenantId: string, jobId: string, chunk: number, counts: Record<string, number>): Promise<RunState> {
      const { rows } = await db.raw(
        `UPDATE translation_runs r SET done_chunks = array_append(r.done_chunks, ?::int),
                counts = (SELECT coalesce(jsonb_object_agg(k, (coalesce((r.counts->>k)::int, 0) + coalesce((?::jsonb->>k)::int, 0))), '{}')
                            FROM (SELECT jsonb_object_keys(r.counts) AS k UNION SELECT jsonb_object_keys(?::jsonb)) keys)
          WHERE r.tenant_id = ? AND r.job_id = ? AND NOT (?::int = ANY(r.done_chunks))
          RETURNING r.total_chunks, cardinality(r.done_chunks) AS done, r.fields, r.counts`,
        [chunk, JSON.stringify(counts), JSON.stringify(counts), tenantId, jobId, chunk],
      );
      if (rows[0]) return state(rows[0]);
      const row = await db('translation_runs')
        .where({ tenant_id: tenantId, job_id: jobId })
        .first(['total_chunks', db.raw('cardinality(done_chunks) AS done'), 'fields', 'counts']);
      return state(row);
    },
  };
}
