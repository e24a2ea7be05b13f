import type { Deps } from '../../../shared/deps.js';
import type { RouteSpec } from '../../http/route.js';
import { productRoutes } from './products.routes.js';
import { attributeRoutes } from './attributes.routes.js';
import { reindexRoutes } from './reindex.routes.js';

/** Catalog: products, attributes and their mapping, reindex. */
export const routes = (deps: Deps): RouteSpec[] => [...productRoutes(deps), ...attributeRoutes(deps), ...reindexRoutes(deps)];
