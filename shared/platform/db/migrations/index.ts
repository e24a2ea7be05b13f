import type { Knex } from 'knex';
import * as m001 from './001-foundation.js';
import * as m002 from './002-catalog.js';
import * as m003 from './003-search.js';
import * as m004 from './004-synonyms-events.js';
import * as m005 from './005-vocab-in-memory.js';
import * as m006 from './006-index-state.js';
import * as m007 from './007-category-profiles.js';
import * as m008 from './008-mark-products-indexed.js';
import * as m009 from './009-access-session-parents.js';
import * as m010 from './010-translation.js';
import * as m012 from './012-merchandising.js';
import * as m013 from './013-billing.js';
import * as m014 from './014-vectors.js';
import * as m015 from './015-operations.js';
import * as m016 from './016-relevance.js';
import * as m017 from './017-search-speed.js';
import * as m018 from './018-facet-index.js';
import * as m019 from './019-similar-lists.js';
import * as m021 from './021-similar-state.js';
import * as m022 from './022-click-impressions.js';
import * as m023 from './023-browse-order.js';
import * as m024 from './024-name-openings.js';
import * as m025 from './025-spelling-variants.js';
import * as m026 from './026-search-cards.js';
import * as m027 from './027-pending-deliveries.js';
import * as m028 from './028-billing-checkouts.js';
import * as m029 from './029-translation-answers.js';
import * as m030 from './030-catalog-builds.js';
import * as m031 from './031-catalog-sync-expiry.js';
import * as m032 from './032-catalog-sync-cleanup.js';
import * as m033 from './033-catalog-sync-cancel.js';
import * as m034 from './034-catalog-sync-restarts.js';
import * as m035 from './035-synonyms-fingerprint-index.js';
import * as m036 from './036-tenant-data-engine-rows.js';
import * as m037 from './037-description-words.js';

interface Migration {
  up(knex: Knex): Promise<void>;
  down(knex: Knex): Promise<void>;
}

/** Every migration in order; listed here so they run the same under tsx and from dist/. */
const MIGRATIONS: Array<[string, Migration]> = [
  ['001-foundation', m001],
  ['002-catalog', m002],
  ['003-search', m003],
  ['004-synonyms-events', m004],
  ['005-vocab-in-memory', m005],
  ['006-index-state', m006],
  ['007-category-profiles', m007],
  ['008-mark-products-indexed', m008],
  ['009-access-session-parents', m009],
  ['010-translation', m010],
  ['012-merchandising', m012],
  ['013-billing', m013],
  ['014-vectors', m014],
  ['015-operations', m015],
  ['016-relevance', m016],
  ['017-search-speed', m017],
  ['018-facet-index', m018],
  ['019-similar-lists', m019],
  ['021-similar-state', m021],
  ['022-click-impressions', m022],
  ['023-browse-order', m023],
  ['024-name-openings', m024],
  ['025-spelling-variants', m025],
  ['026-search-cards', m026],
  ['027-pending-deliveries', m027],
  ['028-billing-checkouts', m028],
  ['029-translation-answers', m029],
  ['030-catalog-builds', m030],
  ['031-catalog-sync-expiry', m031],
  ['032-catalog-sync-cleanup', m032],
  ['033-catalog-sync-cancel', m033],
  ['034-catalog-sync-restarts', m034],
  ['035-synonyms-fingerprint-index', m035],
  ['036-tenant-data-engine-rows', m036],
  ['037-description-words', m037],
];

export const migrationSource: Knex.MigrationSource<[string, Migration]> = {
  getMigrations: async () => MIGRATIONS,
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};
