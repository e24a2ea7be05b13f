import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { ruleRoutes } from './rules.routes.js';

/** Merchandising: rules (export and import first: their fixed paths are not rule ids). */
export const routes = (deps: Deps): RouteSpec[] => ruleRoutes(deps);
