import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { newId } from '../../../shared/platform/ids.js';
import type { EventRow } from '../../../shared/events/events.repo.js';
import { takeEvents } from '../../../shared/events/index.js';
import { EventsAccepted, EventsBody, type EventInput } from './events.schema.js';

function toRow(tenantId: string, e: EventInput, receivedAt: string): EventRow {
  return {
    id: newId('evt'),
    tenant_id: tenantId,
    client_event_id: e.event_id ?? null,
    type: e.type,
    session: e.session,
    search_id: e.search_id ?? null,
    product_id: e.product_id ?? null,
    position: e.position ?? null,
    quantity: e.quantity ?? null,
    value: e.value ?? null,
    currency: e.currency ?? null,
    occurred_at: e.timestamp ? new Date(e.timestamp).toISOString() : receivedAt,
  };
}

/** Shopper events (clicks, views, carts, purchases); not in the spec, shaped like Algolia Insights / GA4 collection calls. */
export function eventRoutes(deps: Deps): RouteSpec[] {
  const writer = deps.events;
  return [
    /**
     * Validates every event (one bad event: 400 for the whole call, nothing stored) and buffers them;
     * they are written within about a second. Stored once per (tenant, event_id).
     */
    defineRoute({
      method: 'post',
      path: '/v1/events',
      tag: 'events',
      summary: 'Send shopper events (public keys allowed)',
      auth: { scope: 'events' },
      body: EventsBody,
      responses: { 202: { description: 'taken for storage', schema: EventsAccepted } },
      async handle(ctx, { body }) {
        const receivedAt = new Date().toISOString();
        const rows = body.events.map((e) => toRow(ctx.state.principal.tenantId, e, receivedAt));
        takeEvents(writer, rows);
        // recently_viewed reads these lists, never the events table; a Redis hiccup only loses the list entry.
        await deps.recentViews.record(rows).catch((err) => deps.logger.warn('recent views not recorded', { error: String(err) }));
        ctx.status = 202;
        ctx.body = { accepted: body.events.length };
      },
    }),
  ];
}
