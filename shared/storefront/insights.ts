import { z } from 'zod';
import type { EventRow } from '../events/index.js';
import { newId } from '../platform/ids.js';
import { sessionOf } from './response.js';

const MAX_FUTURE_MS = 5 * 60_000;
const MAX_AGE_MS = 7 * 24 * 3600_000;

const Money = z.union([
  z.number().finite().min(0),
  z
    .string()
    .regex(/^\d+(\.\d+)?$/)
    .transform(Number),
]);

/** One Algolia Insights event (click, conversion, view), as search-insights sends it. */
export const InsightsEvent = z
  .object({
    eventType: z.enum(['click', 'conversion', 'view']),
    eventSubtype: z.enum(['addToCart', 'purchase']).optional(),
    eventName: z.string().min(1).max(64),
    index: z.string().min(1).max(200),
    userToken: z.string().min(1).max(129),
    authenticatedUserToken: z.string().min(1).max(129).optional(),
    timestamp: z.number().int().positive().optional().describe('milliseconds since the epoch; default now; at most 5 minutes ahead and 7 days back'),
    queryID: z.string().min(1).max(64).optional().describe("the queryID of the search result (this service's search_id)"),
    objectIDs: z.array(z.string().min(1).max(128)).min(1).max(20).optional(),
    positions: z.array(z.number().int().min(1).max(10_000)).max(20).optional().describe('1-based positions of objectIDs; required with queryID on clicks'),
    filters: z.array(z.string().max(1000)).max(10).optional(),
    objectData: z
      .array(
        z.object({
          queryID: z.string().max(64).optional(),
          price: Money.optional(),
          // The events table's limit (as on POST /v1/events): a larger one failed the whole shared write batch.
          quantity: z.number().int().min(1).max(1_000_000).optional(),
          discount: Money.optional(),
        }),
      )
      .max(20)
      .optional(),
    value: Money.optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
  })
  .superRefine((e, ctx) => {
    if (e.eventType === 'click' && e.queryID && e.objectIDs && e.positions?.length !== e.objectIDs.length) {
      ctx.addIssue({ code: 'custom', path: ['positions'], message: 'a click after a search needs one position per objectID' });
    }
    if (e.objectData && e.objectIDs && e.objectData.length !== e.objectIDs.length) {
      ctx.addIssue({ code: 'custom', path: ['objectData'], message: 'objectData needs one entry per objectID' });
    }
    if (e.timestamp) {
      const now = Date.now();
      if (e.timestamp > now + MAX_FUTURE_MS) ctx.addIssue({ code: 'custom', path: ['timestamp'], message: 'more than 5 minutes in the future' });
      if (e.timestamp < now - MAX_AGE_MS) ctx.addIssue({ code: 'custom', path: ['timestamp'], message: 'older than 7 days' });
    }
  });
export type InsightsEventIn = z.output<typeof InsightsEvent>;

const KNOWN_TYPES = new Set(['click', 'conversion', 'view']);

/**
 * A call of 1 to 1,000 events. Click, conversion and view events are checked (one bad event: 400
 * for the call, details at events.<i>.<field>); events of other types, such as InstantSearch's
 * own `instantsearch` telemetry, are accepted and dropped, as they say nothing about products.
 */
export const InsightsBody = z
  .object({
    events: z
      .array(z.looseObject({ eventType: z.string().max(64) }))
      .min(1)
      .max(1000)
      .describe(
        'Algolia Insights events. click, conversion and view are checked and stored: eventType, eventSubtype (addToCart|purchase), eventName (1-64), index, userToken (1-129), ' +
          'authenticatedUserToken, timestamp (ms), queryID (the search_id), objectIDs (1-20), positions (1-based, one per objectID; required on a click with queryID), ' +
          'filters, objectData [{queryID, price, quantity, discount}], value, currency. Other event types are accepted and dropped. ' +
          "Every event is stored as sent (no id, no dedupe); click learning counts a userToken's clicks on an object for a query once per 24 hours.",
      ),
  })
  .transform((body, ctx) => {
    const events: InsightsEventIn[] = [];
    body.events.forEach((e, i) => {
      if (!KNOWN_TYPES.has(e.eventType)) return;
      const parsed = InsightsEvent.safeParse(e, { reportInput: true });
      if (parsed.success) events.push(parsed.data);
      else for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, path: ['events', i, ...issue.path] } as never);
    });
    return { events, ignored: body.events.length - events.length };
  });

/**
 * Insights events as rows of the events table, one per objectID:
 * - click with queryID -> search_click (search_id = queryID, position from positions); click without -> view
 * - view -> view
 * - conversion addToCart -> add_to_cart; purchase -> purchase; conversion without subtype -> add_to_cart
 * Value per row: objectData price x quantity when given (Algolia's price is the final unit price,
 * discounts included, and the total is price x quantity: `discount` is informational and not taken
 * off again), else the event's value when
 * it names one object; a purchase of several objects without objectData gets its value on an
 * extra product-less purchase row (an order total). Events without objectIDs (filter events)
 * are accepted and not stored. session = userToken (hashed past 64 characters).
 */
export function toEventRows(tenantId: string, e: InsightsEventIn, receivedAt: string): EventRow[] {
  if (!e.objectIDs) return [];
  const type =
    e.eventType === 'click'
      ? e.queryID
        ? 'search_click'
        : 'view'
      : e.eventType === 'view'
        ? 'view'
        : e.eventSubtype === 'purchase'
          ? 'purchase'
          : 'add_to_cart';
  const session = sessionOf(e.userToken);
  const occurredAt = e.timestamp ? new Date(e.timestamp).toISOString() : receivedAt;
  const money = type === 'add_to_cart' || type === 'purchase';
  const rows: EventRow[] = e.objectIDs.map((id, i) => {
    const data = e.objectData?.[i];
    const value = !money ? null : data?.price !== undefined ? data.price * (data.quantity ?? 1) : e.objectIDs!.length === 1 ? (e.value ?? null) : null;
    return {
      id: newId('evt'),
      tenant_id: tenantId,
      client_event_id: null,
      type,
      session,
      search_id: data?.queryID ?? e.queryID ?? null,
      product_id: id,
      position: type === 'search_click' ? e.positions![i] : null,
      quantity: money ? (data?.quantity ?? null) : null,
      value,
      currency: value !== null ? (e.currency ?? null) : null,
      occurred_at: occurredAt,
    };
  });
  if (type === 'purchase' && e.value !== undefined && !e.objectData && e.objectIDs.length > 1) {
    rows.push({ ...rows[0], id: newId('evt'), product_id: null, quantity: null, value: e.value, currency: e.currency ?? null });
  }
  return rows;
}
