import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { waitFor } from '../helpers/wait.js';
import { sweepAlternatives } from '../../pipelines/maintenance/sweep-alternatives.stage.js';
import { TypesenseEngine } from '../../shared/engines/lexical/typesense.engine.js';
import { REFRESH_MS, SetUsage } from '../../shared/engines/lexical/typesense.set-usage.js';
import type { EngineQuery, IndexSettings, SearchDoc } from '../../shared/engines/lexical/port.js';
import { typesenseChecker } from './typesense-checker.js';
import { FakeTypesense } from './typesense-fake.js';

/**
 * The maintenance sweep of synonym sets of alternatives: every process marks the sets it writes (and,
 * once an hour, those it keeps using) in Redis; the `sweep-alternatives` stage, on a real worker,
 * deletes this deployment's sets marked longer ago than the retention, and no other synonym set. A
 * set it finds without a mark is marked then and goes only once the retention has passed unused. The API process's engine still holding a swept set writes it again on its next search.
 */

const fake = await new FakeTypesense('test-key', { matchText: true }).start();
const { h } = await setupWithWorkers({ SEARCH_ENGINE: 'typesense', TYPESENSE_URL: fake.url, TYPESENSE_API_KEY: 'test-key' });
t.teardown(() => fake.close());

const prefix = h.config.queuePrefix;
const marksKey = `${prefix}:alt-sets`;
const { engine, redis, queues } = h.api.deps;
const DAY = 24 * 3_600_000;

const SETTINGS: IndexSettings = { facetFields: [], locales: ['en'] };
function doc(id: string, name: string): SearchDoc {
  const card = {
    id,
    name: { en: name },
    url: null,
    image_url: null,
    price: '10',
    sale_price: null,
    currency: 'USD',
    in_stock: true,
    brand: null,
    category: null,
  };
  const text = { nameNorm: name, nameStem: name, brandNorm: '', categoryText: '', attributeText: '', descriptionNorm: '' };
  return {
    id,
    name: { en: name },
    brand: null,
    codes: [],
    categoryIds: [],
    categoryPaths: [],
    facets: {},
    price: 10,
    inStock: true,
    visible: true,
    popularity: 1,
    margin: null,
    createdAt: 0,
    card,
    ...text,
  };
}
await engine.upsert('shop', [doc('shirt', 'shirt cotton'), doc('bag', 'bag leather'), doc('hat', 'hat straw')], SETTINGS);

/** The typed word with `word` as its alternative (a synonym): the typed word alone finds nothing. */
const alt = (typed: string, word: string): EngineQuery => ({
  tenantId: 'shop',
  tokens: [typed],
  terms: [{ alternatives: [[typed], [word]] }],
  offset: 0,
  limit: 10,
});

/** Searches with `on` and returns the ids found and the synonym set the search named. */
async function search(typed: string, word: string, on = engine) {
  const mark = fake.requests.length;
  const res = await on.search(alt(typed, word));
  const set =
    fake
      .since(mark)
      .find((r) => r.query.get('synonym_sets'))
      ?.query.get('synonym_sets') ?? '';
  return { ids: res.hits.map((hit) => hit.id), set };
}

const markOf = async (name: string) => {
  const score = await redis.zscore(marksKey, name);
  return score === null ? null : Number(score);
};
/** Whether every name gets a mark (the process flushes its marks in the background); false rather than a throw, so the test goes on. */
const marked = (names: string[], at?: number) =>
  waitFor(async () => (await Promise.all(names.map(markOf))).every((m) => m !== null && (at === undefined || m === at)), 10_000).catch(() => false);

/** Queues a sweep and waits for the harness's worker to finish it. */
async function sweep(run: string) {
  const jobId = await queues.enqueue(sweepAlternatives, { run });
  return waitFor(
    async () => {
      const job = await queues.get('maintenance').getJob(jobId);
      if (job?.failedReason) throw new Error(job.failedReason);
      return job?.finishedOn ? job.returnvalue : null;
    },
    30_000,
    'sweep-alternatives finished',
  );
}

const items = [{ id: 'i', root: 'tee', synonyms: ['shirt'] }];
const hex = '0123456789abcdef';

t.test('sets used recently stay; stale ones go; unmarked ones are marked and go a retention later; no other synonym set is touched', async (t) => {
  const shirt = await search('tee', 'shirt');
  const bag = await search('sack', 'bag');
  const hat = await search('cap', 'hat');
  t.same([shirt.ids, bag.ids, hat.ids], [['shirt'], ['bag'], ['hat']], 'each found by its alternative');
  t.ok(await marked([shirt.set, bag.set, hat.set]), 'every set written is marked used in Redis');
  // Last marked two days ago: a process that stopped using it (or stopped) since.
  await redis.zadd(marksKey, Date.now() - 2 * DAY, hat.set);
  const unmarked = `${prefix}_shop_alt_${hex}`; // written before marks were kept
  const others = [`${prefix}_shop`, `${prefix}_shop_synonyms`, `${prefix}_shop_alt_notes`, `${prefix}_alt_${hex}`, `other_shop_alt_${hex}`, 'default'];
  for (const name of [unmarked, ...others]) fake.synonymSets.set(name, items);

  const before = Date.now();
  t.same(await sweep('first'), { deleted: 1, kept: 3, unmarked: 1 });
  t.same([...fake.synonymSets.keys()].sort(), [shirt.set, bag.set, unmarked, ...others].sort(), 'the stale set is gone, nothing else');
  t.equal(await markOf(hat.set), null, "the stale set's mark is forgotten");
  t.ok((await markOf(shirt.set)) && (await markOf(bag.set)), 'the kept sets keep their marks');
  t.ok(((await markOf(unmarked)) ?? 0) >= before, 'the set found without a mark (a deploy, a lost mark) is marked now, not deleted');
  t.same(await sweep('unmarked-again'), { deleted: 0, kept: 3, unmarked: 0 }, 'and kept by the next sweep');
  // The retention passes with nothing using it.
  await redis.zadd(marksKey, Date.now() - 2 * DAY, unmarked);
  t.same(await sweep('unmarked-stale'), { deleted: 1, kept: 2, unmarked: 0 });
  t.notOk(fake.synonymSets.has(unmarked), 'unused for the retention after it was first seen, it goes');

  const mark = fake.requests.length;
  t.same((await search('tee', 'shirt')).ids, ['shirt'], 'a kept set still answers');
  t.same(
    fake.since(mark).map((r) => `${r.method} ${r.path}`),
    [`GET /collections/${prefix}_shop/documents/search`],
    'in one round trip',
  );
  t.same(await sweep('second'), { deleted: 0, kept: 2, unmarked: 0 }, 'a second sweep finds nothing');
});

t.test('a search right after its set was swept answers with its alternatives applied, and marks it again', async (t) => {
  const { set } = await search('tee', 'shirt');
  await redis.zadd(marksKey, Date.now() - 2 * DAY, set);
  const before = Date.now();
  t.match(await sweep('stale-shirt'), { deleted: 1 }, 'one set swept');
  t.notOk(fake.synonymSets.has(set), 'swept while the API process still holds it');

  const alone = await engine.search({ tenantId: 'shop', tokens: ['tee'], offset: 0, limit: 10 });
  t.equal(alone.total, 0, '"tee" alone finds nothing');
  const mark = fake.requests.length;
  const again = await search('tee', 'shirt');
  t.same(again.ids, ['shirt'], 'the alternative still finds the product');
  const search_ = `GET /collections/${prefix}_shop/documents/search`;
  t.same(
    fake.since(mark).map((r) => `${r.method} ${r.path}`),
    [search_, `PUT /synonym_sets/${set}`, search_],
    'found missing, written again, searched again',
  );
  t.ok(fake.synonymSets.has(set), 'the set is at Typesense again');
  t.ok(await waitFor(async () => ((await markOf(set)) ?? 0) >= before).catch(() => false), 'marked used again');
});

t.test('a process that keeps using a set marks it again once an hour, not on every search', async (t) => {
  let now = Date.now();
  const start = now;
  const proc = new TypesenseEngine({ url: fake.url, apiKey: 'test-key', collectionPrefix: prefix, setUsage: new SetUsage(redis, marksKey, () => now) });
  const shirt = await search('tee', 'shirt', proc);
  const bag = await search('sack', 'bag', proc);
  t.ok(await marked([shirt.set, bag.set], start), "marked on the process's first use");

  now = start + REFRESH_MS / 2;
  t.same((await search('tee', 'shirt', proc)).ids, ['shirt']);
  now = start + REFRESH_MS;
  t.same((await search('sack', 'bag', proc)).ids, ['bag']);
  t.ok(await marked([bag.set], now), 'an hour on, the set used is marked again');
  // Marks go to Redis in order: had the search half an hour in marked its set, that mark would be there by now.
  t.equal(await markOf(shirt.set), start, 'the search half an hour in marked nothing');
  t.same((await search('tee', 'shirt', proc)).ids, ['shirt']);
  t.ok(await marked([shirt.set], now), 'and that set too once it is used an hour on');
});

t.test('every request conforms to the Typesense 30.0 OpenAPI document', async (t) => {
  t.same(
    fake.requests.flatMap((r) => typesenseChecker.problems(r)),
    [],
  );
  const operations = new Set(fake.requests.map((r) => typesenseChecker.operationId(r)));
  for (const op of ['retrieveSynonymSets', 'deleteSynonymSet', 'upsertSynonymSet']) t.ok(operations.has(op), `covered: ${op}`);
});

t.test('a process stopping sends the marks it still holds', async (t) => {
  const usage = new SetUsage(redis, marksKey);
  const proc = new TypesenseEngine({ url: fake.url, apiKey: 'test-key', collectionPrefix: prefix, setUsage: usage });
  const set = `${prefix}_shop_alt_fedcba9876543210`;
  usage.mark(set); // as a search writing the set does: the mark waits up to FLUSH_MS for the next batch
  t.equal(await markOf(set), null, 'not sent yet');
  await proc.close();
  t.ok(await markOf(set), 'sent when the process stops, not lost with its timer');
});
