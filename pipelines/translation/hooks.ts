import type { Deps } from '../../shared/deps.js';
import type { HookDeps } from '../../shared/translation/index.js';

/** What the catalog and search stages pass to translation's hooks (stale marking, watch mode, served locale text). */
export const translationHooks = (deps: Deps): HookDeps => ({
  queues: deps.queues,
  items: deps.repos.translationItems,
  settings: deps.repos.translationSettings,
  tenants: deps.repos.tenants,
});
