import type { Knex } from 'knex';
import { tenantsRepo } from './tenants.repo.js';
import { keysRepo } from './keys.repo.js';
import { sessionsRepo } from './sessions.repo.js';

/** Access: tenants, API keys, dashboard sessions, authentication, scopes and rate limits. */
export function accessRepos(db: Knex) {
  return { tenants: tenantsRepo(db), keys: keysRepo(db), sessions: sessionsRepo(db) };
}

export * from './authenticator.js';
export * from './auth-throttle.js';
export * from './key-format.js';
export * from './key-rules.js';
export * from './rate-limiter.js';
export * from './scopes.js';
export * from './tenants.js';
export type { Tenant } from './tenants.repo.js';
export type { ApiKeyRow } from './keys.repo.js';
