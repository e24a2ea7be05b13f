import { healthRoutes } from './health.routes.js';

/** Health: liveness and readiness. */
export const routes = healthRoutes;
