import t from 'tap';
import { readFileSync } from 'node:fs';
import { createTestDatabase } from '../helpers/db.js';
import { createDb } from '../../shared/platform/db/knex.js';
import { PostgresVectorStore } from '../../shared/engines/vectors/postgres.vectors.js';
import { QdrantVectorStore } from '../../shared/engines/vectors/qdrant.vectors.js';
import { createOpenApiChecker, type OpenApiDoc } from '../engines/openapi-check.js';
import { storeSuite } from './store-suite.js';
import { startQdrantFake } from './qdrant-fake.js';

const database = await createTestDatabase();
const db = createDb(database.url);
t.teardown(async () => {
  await db.destroy();
  await database.drop();
});
const tenants = async (...ids: string[]) => {
  for (const id of ids) await db('tenants').insert({ id, name: id, locales: ['en'], default_locale: 'en' });
};

t.test('built-in store (Postgres, searched in this process)', async (t) => {
  await tenants('ta', 'tb');
  const store = new PostgresVectorStore(db);
  await storeSuite(t, store, 'ta', 'tb', async (id) => {
    store.changed(id);
    await store.count(id);
    await store.nearest(id, new Float32Array(3), 1).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 200));
  });
});

t.test('Qdrant adapter against a server answering as Qdrant does; requests checked against its OpenAPI document', async (t) => {
  await tenants('qa', 'qb');
  const fake = await startQdrantFake('secret');
  t.teardown(() => fake.close());
  const store = new QdrantVectorStore(db, { url: fake.url, apiKey: 'secret' });
  await storeSuite(t, store, 'qa', 'qb', async () => undefined);
  t.ok(
    fake.requests.some((r) => r.path.endsWith('/points/query')),
    'nearest through points/query',
  );
  t.ok([...fake.aliases.keys()].includes('pss_qb'), 'a store is served through its alias');
  t.notOk(
    [...fake.collections.keys()].some((c) => c.startsWith('pss_qa')),
    'a dropped store leaves no collection',
  );
  const spec = JSON.parse(readFileSync(new URL('../../../shared/spec/vendor/qdrant-openapi.json', import.meta.url), 'utf8')) as OpenApiDoc;
  const checker = createOpenApiChecker(spec, { apiKeyHeader: 'api-key' });
  t.same(
    fake.requests.flatMap((r) => checker.problems(r)),
    [],
    'every request valid for the vendor schema',
  );
});

t.test('Qdrant: a first generation recorded serving before its collection and alias exist reads as empty; other failures still throw', async (t) => {
  await tenants('qn');
  const fake = await startQdrantFake('secret');
  t.teardown(() => fake.close());
  const store = new QdrantVectorStore(db, { url: fake.url, apiKey: 'secret' });
  // What beginGeneration records for a store's first generation, before it makes the collection and the alias.
  await db('vector_generations').insert({ tenant_id: 'qn', active: 1, active_embedder: 'catalog-v1', dims: 3 });
  t.equal(await store.count('qn'), 0);
  t.same(await store.nearest('qn', new Float32Array([1, 0, 0]), 5), []);
  t.same([...(await store.vectorsOf('qn', ['p1']))], []);
  t.same([...(await store.versions('qn', ['p1']))], []);
  t.ok(
    fake.requests.some((r) => r.path.includes('pss_qn')),
    'Qdrant was asked',
  );
  fake.fault.status = 503;
  await t.rejects(store.count('qn'), 'Qdrant failing is not read as empty');
  await t.rejects(store.nearest('qn', new Float32Array([1, 0, 0]), 5));
  fake.fault.status = 0;
});
