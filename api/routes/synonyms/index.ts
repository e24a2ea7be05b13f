import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { suggestionRoutes } from './synonym-suggestions.routes.js';
import { synonymRoutes } from './synonyms.routes.js';

/** Synonyms: rules, files, global rules, mined suggestions (suggestions first: their fixed paths are not rule ids). */
export const routes = (deps: Deps): RouteSpec[] => [...suggestionRoutes(deps), ...synonymRoutes(deps)];
