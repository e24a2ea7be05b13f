import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { backfillRoutes } from './backfill.routes.js';
import { reviewRoutes } from './review.routes.js';
import { feedRoutes } from './feed.routes.js';
import { glossaryRoutes } from './glossary.routes.js';

/** Catalog translation (spec 4.3): backfill, status and policy, review queue, approved feed, exports, glossary. */
export const routes = (deps: Deps): RouteSpec[] => [...backfillRoutes(deps), ...reviewRoutes(deps), ...feedRoutes(deps), ...glossaryRoutes(deps)];
