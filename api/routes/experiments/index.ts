import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { experimentRoutes } from './experiments.routes.js';

/** Experiments: A/B tests of ranking settings and rule sets. */
export const routes = (deps: Deps): RouteSpec[] => experimentRoutes(deps);
