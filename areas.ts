import type { Deps } from './shared/deps.js';
import type { Config } from './shared/platform/config.js';
import type { Stage } from './shared/platform/queue/define-stage.js';
import type { Schedule } from './shared/platform/queue/schedule.js';
import type { RouteSpec } from './api/http/route.js';
import * as health from './api/routes/health/index.js';
import * as access from './api/routes/access/index.js';
import * as jobs from './api/routes/jobs/index.js';
import * as jobsPipeline from './pipelines/jobs/index.js';
import * as catalog from './api/routes/catalog/index.js';
import * as catalogPipeline from './pipelines/catalog/index.js';
import * as search from './api/routes/search/index.js';
import * as searchPipeline from './pipelines/search/index.js';
import * as events from './api/routes/events/index.js';
import * as synonyms from './api/routes/synonyms/index.js';
import * as synonymsPipeline from './pipelines/synonyms/index.js';
import * as maintenancePipeline from './pipelines/maintenance/index.js';
import * as storefront from './api/routes/storefront/index.js';
import * as merchandising from './api/routes/merchandising/index.js';
import * as experiments from './api/routes/experiments/index.js';
import * as translation from './api/routes/translation/index.js';
import * as translationPipeline from './pipelines/translation/index.js';
import * as billing from './api/routes/billing/index.js';
import * as billingPipeline from './pipelines/billing/index.js';
import * as usage from './api/routes/usage/index.js';
import * as usagePipeline from './pipelines/usage/index.js';
import * as notifications from './api/routes/notifications/index.js';
import * as notificationsPipeline from './pipelines/notifications/index.js';
import * as tenantData from './api/routes/tenant-data/index.js';
import * as tenantDataPipeline from './pipelines/tenant-data/index.js';
import * as recommend from './api/routes/recommend/index.js';
import * as vectorsPipeline from './pipelines/vectors/index.js';

/** One area of the service: the same name in api/routes, pipelines and shared. */
export interface Area {
  name: string;
  /** Its routes (mounted in this order; the OpenAPI document lists them). */
  routes?: (deps: Deps) => RouteSpec[];
  /** Its pipeline stages, and the schedules the workers keep (BullMQ job schedulers). */
  pipeline?: { stages: Stage<any>[]; schedules(config: Config): Schedule[] };
}

/** Every area: the API mounts routes and the workers register stages and schedules from this list alone. */
export const AREAS: Area[] = [
  { name: 'health', routes: health.routes },
  { name: 'access', routes: access.routes },
  { name: 'jobs', routes: jobs.routes, pipeline: jobsPipeline },
  { name: 'catalog', routes: catalog.routes, pipeline: catalogPipeline },
  { name: 'search', routes: search.routes, pipeline: searchPipeline },
  { name: 'events', routes: events.routes },
  { name: 'synonyms', routes: synonyms.routes, pipeline: synonymsPipeline },
  { name: 'translation', routes: translation.routes, pipeline: translationPipeline },
  { name: 'maintenance', pipeline: maintenancePipeline },
  { name: 'storefront', routes: storefront.routes },
  { name: 'merchandising', routes: merchandising.routes },
  { name: 'experiments', routes: experiments.routes },
  { name: 'billing', routes: billing.routes, pipeline: billingPipeline },
  { name: 'usage', routes: usage.routes, pipeline: usagePipeline },
  { name: 'notifications', routes: notifications.routes, pipeline: notificationsPipeline },
  { name: 'tenant-data', routes: tenantData.routes, pipeline: tenantDataPipeline },
  { name: 'vectors', pipeline: vectorsPipeline },
  { name: 'recommend', routes: recommend.routes },
];
