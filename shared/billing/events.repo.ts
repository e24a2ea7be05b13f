import type { Knex } from 'knex';
import type { BillingEvent } from '../engines/payments/port.js';
import type { ProviderName } from './states.js';

export interface EventRow {
  provider: ProviderName;
  event_id: string;
  type: string;
  tenant_id: string | null;
  occurred_at: Date;
  payload: BillingEvent;
  received_at: Date;
  applied_at: Date | null;
  outcome: string | null;
}

/** Provider webhook events, unique per (provider, event id): a redelivery is stored once. `db`: the pool or a transaction. */
export function billingEventsRepo(db: Knex) {
  return {
    /** True when the event is new; false for a duplicate delivery. */
    async insert(provider: ProviderName, event: BillingEvent): Promise<boolean> {
      const rows = await db('billing_events')
        .insert({ provider, event_id: event.id, type: event.type, tenant_id: event.tenantId, occurred_at: event.occurredAt, payload: JSON.stringify(event) })
        .onConflict(['provider', 'event_id'])
        .ignore()
        .returning('event_id');
      return rows.length === 1;
    },
    async get(provider: ProviderName, eventId: string): Promise<EventRow | undefined> {
      return db<EventRow>('billing_events').where({ provider, event_id: eventId }).first();
    },
    /**
     * The event row, locked until the caller's transaction (`db` must be one) ends: a second worker
     * applying the same event waits here, then finds it applied.
     */
    async lock(provider: ProviderName, eventId: string): Promise<EventRow | undefined> {
      return db<EventRow>('billing_events').where({ provider, event_id: eventId }).forUpdate().first();
    },
    /** Marks an event applied once; false when another run already did. */
    async markApplied(provider: string, eventId: string, outcome: string): Promise<boolean> {
      const n = await db('billing_events').where({ provider, event_id: eventId }).whereNull('applied_at').update({ applied_at: db.fn.now(), outcome });
      return n === 1;
    },
    /** Notes why an event is not applied yet; it stays unapplied (reconcile-billing queues it again). */
    async markOutcome(provider: string, eventId: string, outcome: string): Promise<void> {
      await db('billing_events').where({ provider, event_id: eventId }).whereNull('applied_at').update({ outcome });
    },
    /** Events not applied after `olderThanMs`; `untried`: only those never tried (their enqueue was lost), not those left for later (plan_unknown). */
    async unapplied(olderThanMs: number, limit = 500, untried = false): Promise<EventRow[]> {
      return db<EventRow>('billing_events')
        .whereNull('applied_at')
        .modify((q) => (untried ? q.whereNull('outcome') : q))
        .andWhere('received_at', '<', new Date(Date.now() - olderThanMs))
        .orderBy('received_at')
        .limit(limit);
    },
    async count(tenantId: string): Promise<number> {
      const [{ n }] = await db('billing_events').where({ tenant_id: tenantId }).count({ n: '*' });
      return Number(n);
    },
  };
}
