import { eventRoutes } from './events.routes.js';

/** Events: shopper events. */
export const routes = eventRoutes;
