import type { Knex } from 'knex';
import { eventsRepo } from './events.repo.js';

/** Events: shopper events (clicks, views, carts, purchases), buffered and written in batches. */
export function eventsRepos(db: Knex) {
  return { events: eventsRepo(db) };
}

export * from './event-writer.js';
export { EVENT_TYPES, type EventRow } from './events.repo.js';
