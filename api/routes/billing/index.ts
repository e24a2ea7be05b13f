import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { planRoutes } from './plans.routes.js';
import { subscriptionRoutes } from './subscription.routes.js';
import { webhookRoutes } from './webhooks.routes.js';
import { mockPageRoutes } from './mock-pages.routes.js';

/** Billing (spec 4.4): plans, add-ons, subscription, checkout, plan change, invoices, portal, provider webhooks, the mock provider's pages. */
export const routes = (deps: Deps): RouteSpec[] => [...planRoutes(), ...subscriptionRoutes(deps), ...webhookRoutes(deps), ...mockPageRoutes(deps)];
