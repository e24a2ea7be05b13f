import type { Knex } from 'knex';
import type { Config } from '../../config.js';
import { tenantsRepo } from './tenants.repo.js';
import { keysRepo } from './keys.repo.js';
import { sessionsRepo } from './sessions.repo.js';
import { jobsRepo } from './jobs.repo.js';
import { idempotencyRepo } from './idempotency.repo.js';
import { productsRepo } from './products.repo.js';
import { mappingsRepo } from './mappings.repo.js';
import { vocabularyRepo } from './vocabulary.repo.js';
import { searchLogRepo } from './search-log.repo.js';
import { synonymsRepo } from './synonyms.repo.js';
import { eventsRepo } from './events.repo.js';
import { suggestionsRepo } from './suggestions.repo.js';

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
