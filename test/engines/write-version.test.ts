import t, { type Test } from 'tap';
import type { LexicalEngine, SearchDoc } from '../../shared/engines/lexical/port.js';
import { TypesenseEngine } from '../../shared/engines/lexical/typesense.engine.js';
import { PLAIN_SETTINGS as SETTINGS, engineStore, searchDoc } from '../helpers/engine-store.js';
import { typesenseChecker as checker } from './typesense-checker.js';
import { FakeTypesense } from './typesense-fake.js';

// Index jobs of the same product can land out of order (several workers, retries): whichever engine
// serves, a document never goes back to an older product version, in the serving generation and in
// one being built. The same writes and the same assertions against each engine.
const tenantId = 'ten_version';

const doc = (id: string, version: number | undefined): SearchDoc =>
  searchDoc(id, `lamp ${id}`, {
    version,
    card: {
      id,
      name: { en: `${id} v${version}` },
      url: null,
      image_url: null,
      price: '10',
      sale_price: null,
      currency: 'USD',
      in_stock: true,
      brand: null,
      category: null,
    },
  });

/** What a search shows of each product: the name its card carries (which version was written). */
async function shown(engine: LexicalEngine): Promise<Record<string, string | undefined>> {
  const res = await engine.search({ tenantId, tokens: [], offset: 0, limit: 50 });
  return Object.fromEntries(res.hits.map((h) => [h.id, h.card.name.en]));
}

// Ids with a comma and a backtick: a filter lists the first quoted, the second cannot be written in one.
const IDS = ['a', 'x,y', 'q`t', 'b'];

async function outOfOrder(t: Test, engine: LexicalEngine): Promise<void> {
  await engine.upsert(tenantId, [doc('a', 5), doc('x,y', 5), doc('q`t', 5), doc('b', 1)], SETTINGS);
  // Older versions arrive late, beside a newer one and a product first written now.
  await engine.upsert(tenantId, [doc('a', 3), doc('x,y', 4), doc('q`t', 2), doc('b', 2), doc('c', 1)], SETTINGS);
  t.same(await shown(engine), { a: 'a v5', 'x,y': 'x,y v5', 'q`t': 'q`t v5', b: 'b v2', c: 'c v1' }, 'late older versions are not written');

  await engine.upsert(tenantId, [doc('a', 5), doc('x,y', 6)], SETTINGS);
  t.same(await shown(engine), { a: 'a v5', 'x,y': 'x,y v6', 'q`t': 'q`t v5', b: 'b v2', c: 'c v1' }, 'the same or a newer version is written');

  const generation = await engine.beginGeneration(tenantId, SETTINGS);
  await engine.writeGeneration(
    tenantId,
    generation,
    IDS.map((id) => doc(id, 7)),
  );
  // A catalog write of older versions while the generation is built: the serving one takes them where they are newer.
  await engine.upsert(
    tenantId,
    IDS.map((id) => doc(id, 6)),
    SETTINGS,
  );
  t.same(await shown(engine), { a: 'a v6', 'x,y': 'x,y v6', 'q`t': 'q`t v6', b: 'b v6', c: 'c v1' }, 'the serving generation');
  await engine.swapGeneration(tenantId, generation);
  t.same(await shown(engine), { a: 'a v7', 'x,y': 'x,y v7', 'q`t': 'q`t v7', b: 'b v7' }, 'the built generation kept its newer versions');

  await engine.upsert(tenantId, [doc('a', undefined)], SETTINGS);
  t.same((await shown(engine)).a, 'a vundefined', 'a document without a version is written');
}

t.test('typesense adapter', async (t) => {
  const fake = await new FakeTypesense('test-key').start();
  t.teardown(() => fake.close());
  const engine = new TypesenseEngine({ url: fake.url, apiKey: 'test-key', collectionPrefix: 'ps' });
  await outOfOrder(t, engine);
  t.same(
    fake.requests.flatMap((r) => checker.problems(r)),
    [],
    'every request conforms to the Typesense OpenAPI document',
  );
  const operations = new Set(fake.requests.map((r) => checker.operationId(r)));
  t.ok(operations.has('exportDocuments') && operations.has('getDocument'), 'versions read by export and by id');
});

t.test('postgres engine', async (t) => {
  const { engine } = await engineStore(t, tenantId);
  await outOfOrder(t, engine);
});
