import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { dataRoutes } from './data.routes.js';

/** Tenant data: exports, download links, deleting a store. */
export const routes = (deps: Deps): RouteSpec[] => dataRoutes(deps);
