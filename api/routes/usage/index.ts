import { usageRoutes } from './usage.routes.js';

/** Usage: GET /v1/usage. */
export const routes = usageRoutes;
