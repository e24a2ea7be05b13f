import { jobRoutes } from './jobs.routes.js';

/** Jobs: list, read and cancel. */
export const routes = jobRoutes;
