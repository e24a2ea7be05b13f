import type { Knex } from 'knex';
import { createTestDatabase } from './db.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { PostgresEngine } from '../../shared/engines/lexical/postgres.engine.js';
import type { IndexSettings, SearchDoc } from '../../shared/engines/lexical/port.js';

/** Index settings of an English store without facet fields. */
export const PLAIN_SETTINGS: IndexSettings = { facetFields: [], locales: ['en'] };

/** A test database with one store (`tenantId`) and the Postgres engine over it, dropped at teardown. */
export async function engineStore(
  t: { teardown: (fn: () => Promise<void>) => void },
  tenantId: string,
  poolMax = 4,
): Promise<{ db: Knex; engine: PostgresEngine }> {
  const database = await createTestDatabase();
  const db = createDb(database.url, { min: 0, max: poolMax });
  t.teardown(async () => {
    await db.destroy();
    await database.drop();
  });
  await db('tenants').insert({ id: tenantId, name: tenantId, locales: ['en'], default_locale: 'en' });
  return { db, engine: new PostgresEngine(db) };
}

/** A search document named `name`, every other field plain; `over` sets what a test varies. */
export function searchDoc(id: string, name: string, over: Partial<SearchDoc> = {}): SearchDoc {
  return {
    id,
    name: { en: name },
    nameNorm: name,
    nameStem: name,
    brand: null,
    brandNorm: null,
    codes: [],
    categoryIds: [],
    categoryPaths: [],
    categoryText: '',
    attributeText: '',
    descriptionNorm: '',
    facets: {},
    price: 10,
    inStock: true,
    visible: true,
    popularity: 0,
    margin: null,
    createdAt: 1_700_000_000_000,
    version: 1,
    card: { id, name: { en: name }, url: null, image_url: null, price: '1', sale_price: null, currency: 'USD', in_stock: true, brand: null, category: null },
    ...over,
  };
}
