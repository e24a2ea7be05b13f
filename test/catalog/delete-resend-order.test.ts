import t from 'tap';
import { setup } from '../helpers/harness.js';
import { searchIds } from '../helpers/catalog.js';
import { FakeTypesense } from '../engines/typesense-fake.js';
import { indexProducts } from '../../pipelines/catalog/index-products.stage.js';
import type { LexicalEngine } from '../../shared/engines/lexical/port.js';
import type { Deps } from '../../shared/deps.js';

/**
 * A product deleted and then sent again: the two batches' index jobs can run out of order (several
 * workers, retries). The delete's job running last must not take the stored product out of search.
 * The stage runs here by itself with each batch's job data, in the order under test, on both engines.
 */

const fake = await new FakeTypesense('test-key', { matchText: true }).start();
t.teardown(() => fake.close());
const engines: Record<string, Record<string, string>> = {
  postgres: { SEARCH_CACHE_TTL_MS: '0' },
  typesense: { SEARCH_CACHE_TTL_MS: '0', SEARCH_ENGINE: 'typesense', TYPESENSE_URL: fake.url, TYPESENSE_API_KEY: 'test-key' },
};

for (const [name, env] of Object.entries(engines)) {
  t.test(name, async (t) => {
    const h = await setup(env);
    t.teardown(() => h.close());
    const deps = h.api.deps;
    const { id: tenantId, key } = await h.tenant();
    const kettles = ['k0', 'k1', 'k2'].map((id) => ({ id, name: { en: `Copper kettle ${id}` }, price: 10, currency: 'USD' }));
    const search = searchIds(h, key);
    const send = async (items: unknown[]) => {
      const res = await h.api.call('POST', '/v1/products/batch', { key, body: { upsert: items } });
      if (res.status !== 200) throw new Error(`batch answered ${res.status}`);
    };
    const index = (batchId: string, ids: string[], deletes: string[], d: Deps = deps) =>
      indexProducts.run({ data: { tenantId, batchId, ids, deletes }, deps: d, progress: async () => undefined } as never);
    await send(kettles);
    await index('load', ['k0', 'k1', 'k2'], []);
    t.same((await search('kettle')).sort(), ['k0', 'k1', 'k2'], 'loaded');

    t.test("the delete's job runs after the new batch's", async (t) => {
      t.equal((await h.api.call('DELETE', '/v1/products/k1', { key })).status, 200);
      t.notOk((await search('kettle')).includes('k1'), 'the delete leaves search at once');
      await send([kettles[1]]);
      await index('again-upsert', ['k1'], []);
      t.ok((await search('kettle')).includes('k1'), 'searchable again');
      await index('again-delete', [], ['k1']);
      t.ok((await search('kettle')).includes('k1'), "still searchable after the delete's job");
      // A later delete still takes it out, at once and after its own job.
      t.equal((await h.api.call('DELETE', '/v1/products/k1', { key })).status, 200);
      t.notOk((await search('kettle')).includes('k1'), 'deleted again: gone at once');
      await index('last-delete', [], ['k1']);
      t.same((await search('kettle')).sort(), ['k0', 'k2'], 'gone after its job');
    });

    t.test("sent again between the delete's job's check and its removal", async (t) => {
      t.equal((await h.api.call('POST', '/v1/products/batch', { key, body: { delete: ['k2'] } })).status, 200);
      t.notOk((await search('kettle')).includes('k2'), 'the delete leaves search at once');
      // The delete's job found k2 not stored; before its removal reaches the engine, k2 is sent again and its batch indexed.
      const engine: LexicalEngine = deps.engine;
      const late = Object.assign(Object.create(engine) as LexicalEngine, {
        async remove(tenant: string, ids: string[]) {
          await send([kettles[2]]);
          await index('between-upsert', ['k2'], []);
          t.ok((await search('kettle')).includes('k2'), 'searchable again');
          await engine.remove(tenant, ids);
        },
      });
      await index('between-delete', [], ['k2'], { ...deps, engine: late });
      t.ok((await search('kettle')).includes('k2'), "still searchable after the delete's job");
    });

    t.test('deleted while its batch is indexed', async (t) => {
      await send([{ ...kettles[0], name: { en: 'Copper kettle k0 large' } }]);
      // The batch's job read k0; before its write reaches the engine, k0 is deleted and its delete's job runs.
      const engine: LexicalEngine = deps.engine;
      const late = Object.assign(Object.create(engine) as LexicalEngine, {
        async upsert(...args: Parameters<LexicalEngine['upsert']>) {
          t.equal((await h.api.call('DELETE', '/v1/products/k0', { key })).status, 200);
          await index('during-delete', [], ['k0']);
          t.notOk((await search('kettle')).includes('k0'), 'the delete leaves search at once');
          await engine.upsert(...args);
        },
      });
      await index('during-upsert', ['k0'], [], { ...deps, engine: late });
      t.notOk((await search('kettle')).includes('k0'), 'not searchable after the batch job');
      t.ok((await search('kettle')).includes('k2'), 'the others stay');
    });
  });
}
