import { z } from 'zod';
import { EVENT_TYPES } from '../../../shared/events/events.repo.js';

export const MAX_EVENTS = 1000;
export const MAX_FUTURE_MS = 5 * 60_000;
export const MAX_AGE_MS = 7 * 24 * 3600_000;

const Id = (max: number) => z.string().min(1).max(max);

/** Fields each event type must carry (beyond type and session). */
const REQUIRED: Record<(typeof EVENT_TYPES)[number], Array<'search_id' | 'product_id' | 'position'>> = {
  search_click: ['search_id', 'product_id', 'position'],
  view: ['product_id'],
  add_to_cart: ['product_id'],
  purchase: [],
};

/** One shopper event. Type-specific rules and the time window are checked here so errors point at `events.<i>.<field>`. */
export const EventIn = z
  .strictObject({
    type: z.enum(EVENT_TYPES),
    session: Id(64).describe(
      "opaque shopper session id (the one sent with searches); no personal data. Click learning counts a session's search_clicks on a product for a query once per 24 hours",
    ),
    event_id: Id(64).nullish().describe('client id of this event; a resent event with the same id is stored once'),
    search_id: Id(64).nullish().describe('search_id of the search response the event follows; required for search_click'),
    product_id: Id(128).nullish().describe('required for search_click, view and add_to_cart'),
    position: z.number().int().min(1).max(10_000).nullish().describe('1-based rank of the clicked product across pages; required for search_click'),
    quantity: z.number().int().min(1).max(1_000_000).nullish(),
    value: z.number().finite().min(0).nullish().describe('monetary value (add_to_cart, purchase); needs currency'),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/, 'an ISO 4217 code such as "USD"')
      .nullish(),
    timestamp: z.iso.datetime({ offset: true }).nullish().describe('when it happened; default now; at most 5 minutes ahead and 7 days back'),
  })
  .superRefine((e, ctx) => {
    for (const field of REQUIRED[e.type]) {
      if (e[field] === undefined || e[field] === null) {
        ctx.addIssue({
          code: 'invalid_type',
          expected: field === 'position' ? 'number' : 'string',
          input: undefined,
          path: [field],
          message: `required for ${e.type} events`,
        });
      }
    }
    if (e.value != null && !e.currency) {
      ctx.addIssue({ code: 'invalid_type', expected: 'string', input: undefined, path: ['currency'], message: 'required when value is given' });
    }
    if (e.timestamp) {
      const at = Date.parse(e.timestamp);
      const now = Date.now();
      if (at > now + MAX_FUTURE_MS) {
        ctx.addIssue({
          code: 'too_big',
          origin: 'date',
          maximum: now + MAX_FUTURE_MS,
          inclusive: true,
          input: e.timestamp,
          path: ['timestamp'],
          message: 'more than 5 minutes in the future',
        });
      } else if (at < now - MAX_AGE_MS) {
        ctx.addIssue({
          code: 'too_small',
          origin: 'date',
          minimum: now - MAX_AGE_MS,
          inclusive: true,
          input: e.timestamp,
          path: ['timestamp'],
          message: 'older than 7 days',
        });
      }
    }
  });
export type EventInput = z.output<typeof EventIn>;

export const EventsBody = z.strictObject({
  events: z.array(EventIn).min(1).max(MAX_EVENTS).describe('1 to 1,000 events; one invalid event rejects the whole call (400, details at events.<i>.<field>)'),
});

export const EventsAccepted = z.object({
  accepted: z
    .number()
    .int()
    .describe(
      "events taken for storage; duplicates by event_id are dropped when written; repeats without one are stored, and learning counts a session's repeats once",
    ),
});
