import type { Knex } from 'knex';
import type { Config } from './platform/config.js';
import { tenantsRepo } from './access/tenants.repo.js';
import { keysRepo } from './access/keys.repo.js';
import { sessionsRepo } from './access/sessions.repo.js';
import { jobsRepo } from './jobs/jobs.repo.js';
import { idempotencyRepo } from './platform/db/idempotency.repo.js';
import { productsRepo } from './catalog/products.repo.js';
import { mappingsRepo } from './catalog/mappings.repo.js';
import { vocabularyRepo } from './search/vocabulary.repo.js';
import { searchLogRepo } from './search/search-log.repo.js';
import { synonymsRepo } from './synonyms/synonyms.repo.js';
import { eventsRepo } from './events/events.repo.js';
import { suggestionsRepo } from './synonyms/suggestions.repo.js';

/** All repositories over one knex pool. */
export function createRepos(db: Knex, config: Config) {
  return {
    tenants: tenantsRepo(db),
    keys: keysRepo(db),
    sessions: sessionsRepo(db),
    jobs: jobsRepo(db),
    idempotency: idempotencyRepo(db, config.idempotencyTtlHours),
    products: productsRepo(db),
    mappings: mappingsRepo(db),
    vocabulary: vocabularyRepo(db),
    searchLog: searchLogRepo(db),
    synonyms: synonymsRepo(db),
    events: eventsRepo(db),
    suggestions: suggestionsRepo(db),
  };
}
export type Repos = ReturnType<typeof createRepos>;
