import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { webhookRoutes } from './webhooks.routes.js';

/** Notifications: outbound notification receivers (/v1/webhooks). */
export const routes = (deps: Deps): RouteSpec[] => webhookRoutes(deps);
