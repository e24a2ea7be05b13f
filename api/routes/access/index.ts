import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { keyRoutes } from './keys.routes.js';
import { sessionRoutes } from './sessions.routes.js';

/** Access: API keys and dashboard sessions. */
export const routes = (deps: Deps): RouteSpec[] => [...keyRoutes(deps), ...sessionRoutes(deps)];
