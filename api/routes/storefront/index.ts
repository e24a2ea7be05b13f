import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { queryRoutes } from './queries.routes.js';
import { insightsRoutes } from './insights.routes.js';
import { widgetRoutes } from './widget.routes.js';

/** Storefront: the Algolia search protocol (search, suggestions, Insights events), the drop-in widget and its demo page. */
export const routes = (deps: Deps): RouteSpec[] => [...queryRoutes(deps), ...insightsRoutes(deps), ...widgetRoutes()];
