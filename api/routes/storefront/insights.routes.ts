import { z } from 'zod';
import { defineRoute, type RouteSpec } from '../../http/route.js';
import type { Deps } from '../../../shared/deps.js';
import { ALGOLIA_PREFIX, InsightsBody, toEventRows } from '../../../shared/storefront/index.js';
import { algoliaAuth, algoliaErrorBody, checkApplication } from './algolia.js';
import { AlgoliaQuery } from './queries.schema.js';
import { takeEvents } from '../../../shared/events/index.js';

const InsightsAccepted = z.object({ status: z.literal(200), message: z.literal('OK') });

/** Algolia Insights events (search-insights) onto the events table. */
export function insightsRoutes(deps: Deps): RouteSpec[] {
  return [
    /**
     * Validates every event (one bad event: 400, nothing stored), maps each to event rows
     * (storefront/insights.ts) and buffers them for the events writer. 200, as search-insights
     * counts only 200 as sent. Stored as sent (Insights events carry no id); click learning counts a
     * userToken's repeated clicks once (shared/recommend/click-stats.sql.ts).
     */
    defineRoute({
      method: 'post',
      path: `${ALGOLIA_PREFIX}/1/events`,
      tag: 'storefront',
      summary: 'Algolia Insights: click, conversion and view events (search-insights)',
      auth: algoliaAuth('events'),
      errorBody: algoliaErrorBody,
      query: AlgoliaQuery,
      body: InsightsBody,
      responses: { 200: { description: 'taken for storage', schema: InsightsAccepted } },
      async handle(ctx, { body }) {
        const tenantId = checkApplication(ctx);
        const receivedAt = new Date().toISOString();
        takeEvents(
          deps.events,
          body.events.flatMap((e) => toEventRows(tenantId, e, receivedAt)),
        );
        ctx.body = { status: 200, message: 'OK' };
      },
    }),
  ];
}
