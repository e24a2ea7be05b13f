import { defineRoute, type RouteSpec } from '../../http/route.js';
import { ADDONS, PLANS } from '../../../shared/billing/index.js';
import { AddonOut, PlanOut } from './billing.schema.js';
import { z } from 'zod';

/** The public plan and add-on catalog (no key needed). */
export function planRoutes(): RouteSpec[] {
  return [
    /** Plans as sold now (shared/billing/plans.ts); read-only. */
    defineRoute({
      method: 'get',
      path: '/v1/billing/plans',
      tag: 'billing',
      summary: 'List plans',
      auth: null,
      responses: { 200: { description: 'plans', schema: z.array(PlanOut) } },
      handle(ctx) {
        ctx.body = PLANS;
      },
    }),
    /** Add-ons and the plans that may buy them; read-only. */
    defineRoute({
      method: 'get',
      path: '/v1/billing/addons',
      tag: 'billing',
      summary: 'List add-ons',
      auth: null,
      responses: { 200: { description: 'add-ons', schema: z.array(AddonOut) } },
      handle(ctx) {
        ctx.body = ADDONS;
      },
    }),
  ];
}
