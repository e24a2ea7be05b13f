import type { Knex } from 'knex';
import { newId } from '../platform/ids.js';

export interface DeliveryRow {
  id: string;
  tenant_id: string;
  receiver_id: string;
  kind: string;
  payload: Record<string, unknown>;
  status: 'pending' | 'delivered' | 'failed' | 'skipped';
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: Date | null;
  created_at: Date;
  finished_at: Date | null;
}

export function deliveriesRepo(db: Knex) {
  const rows = () => db<DeliveryRow>('webhook_deliveries');
  return {
    async create(tenantId: string, receiverId: string, kind: string, payload: Record<string, unknown>): Promise<DeliveryRow> {
      const [row] = await rows()
        .insert({ id: newId('msg'), tenant_id: tenantId, receiver_id: receiverId, kind, payload })
        .returning('*');
      return row as DeliveryRow;
    },
    async get(id: string): Promise<DeliveryRow | undefined> {
      return rows().where({ id }).first();
    },
    /** Newest first, by creation time (ids are random, not ordered); `before`: the last row of the page before (timeIdCursor). */
    async list(tenantId: string, receiverId: string, limit: number, before?: { at: string; id: string }): Promise<DeliveryRow[]> {
      const q = rows().where({ tenant_id: tenantId, receiver_id: receiverId });
      if (before) q.andWhereRaw(`(date_trunc('milliseconds', created_at), id) < (?::timestamptz, ?)`, [before.at, before.id]);
      return q.orderByRaw(`date_trunc('milliseconds', created_at) DESC, id DESC`).limit(limit);
    },
    /**
     * Pending deliveries whose next attempt is over `graceMs` late (its first attempt never made, or
     * a retry past its time): the attempt's job was lost (Redis down or restarted empty), oldest first.
     */
    async overdue(graceMs: number, limit: number): Promise<Array<Pick<DeliveryRow, 'id' | 'attempts'>>> {
      const before = db.raw(`now() - ? * interval '1 millisecond'`, [graceMs]);
      return rows()
        .select('id', 'attempts')
        .where({ status: 'pending' })
        .andWhere((w) => w.where('next_attempt_at', '<', before).orWhere((f) => f.whereNull('next_attempt_at').andWhere('created_at', '<', before)))
        .orderBy('created_at')
        .limit(limit);
    },
    /**
     * Takes attempt `attempt` before it is sent: one caller gets the row, any other run of the same
     * attempt (a stalled job re-run on another worker while the first still sends) gets nothing and
     * sends nothing. `nextAt`: when the next attempt is due should this one never report (its worker
     * died mid-send); requeue-deliveries queues it then.
     */
    async claim(id: string, attempt: number, nextAt: Date): Promise<DeliveryRow | undefined> {
      const [row] = await rows()
        .where({ id, status: 'pending' })
        .andWhere('attempts', '<', attempt)
        .update({ attempts: attempt, next_attempt_at: nextAt })
        .returning('*');
      return row as DeliveryRow | undefined;
    },
    /** Records the outcome of attempt `attempt`, claimed before (a delivery already finished changes nothing). */
    async attempted(
      id: string,
      attempt: number,
      r: { status: number | null; error: string | null; final: DeliveryRow['status'] | null; nextAt: Date | null },
    ): Promise<boolean> {
      const n = await rows()
        .where({ id, status: 'pending', attempts: attempt })
        .update({
          attempts: attempt,
          last_status_code: r.status,
          last_error: r.error,
          next_attempt_at: r.nextAt,
          ...(r.final ? { status: r.final, finished_at: db.fn.now() as never } : {}),
        });
      return n > 0;
    },
  };
}
