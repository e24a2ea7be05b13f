import { recommendRoutes } from './recommend.routes.js';

/** Recommend: GET /v1/recommend. */
export const routes = recommendRoutes;
