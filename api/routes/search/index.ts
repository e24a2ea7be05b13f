import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { searchRoutes } from './search.routes.js';
import { suggestRoutes } from './suggest.routes.js';

/** Search: search and suggest. */
export const routes = (deps: Deps): RouteSpec[] => [...searchRoutes(deps), ...suggestRoutes(deps)];
