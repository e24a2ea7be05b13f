import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { startFakeOpenAi } from '../helpers/openai-fake.js';
import { backfill, caller, itemsByStatus } from './helpers.js';

const fake = await startFakeOpenAi();
t.teardown(() => fake.close());
const { h } = await setupWithWorkers({
  OPENAI_BASE_URL: fake.url,
  OPENAI_API_KEY: 'sk-test',
  TRANSLATION_TIMEOUT_MS: '300',
  TRANSLATION_MAX_RETRIES: '1',
  VOCAB_DEBOUNCE_MS: '200',
});
const shop = await h.tenant();
const call = caller(h, shop.key);
await call('POST', '/v1/translate/glossary', { source_locale: 'en', target_locale: 'ar', source_term: 'water resistant', target_term: 'مقاوم للماء' });
await loadProducts(h, shop.key, shop.id, [
  { id: 'm1', name: { en: 'Casio sport watch 3 pack 500 ml' }, brand: 'Casio', price: 1, currency: 'USD' },
  { id: 'm2', name: { en: 'Seiko diver watch, water resistant to 200 m' }, model: 'SKX007', brand: 'Seiko', price: 1, currency: 'USD' },
  { id: 'm3', name: { en: 'Plain steel bottle for 2 people' }, price: 1, currency: 'USD' },
]);

t.test('a provider that mangles brands and digits and drops placeholders: every case is caught and goes to review', async (t) => {
  fake.mode = 'mangle';
  const { job } = await backfill(call, { target_locale: 'ar', fields: ['name'] });
  t.equal(job!.status, 'succeeded');
  t.match(job!.result, { review: 3 });
  const items: Record<string, Record<string, any>> = Object.fromEntries((await itemsByStatus(call, 'review')).map((i) => [i.product_id, i]));
  t.same(Object.keys(items).sort(), ['m1', 'm2', 'm3']);
  const m1 = items.m1.quality_notes;
  t.match(m1.placeholders_restored, { result: 'error', detail: /lost P0, P1/ }, 'placeholders for Casio and "500 ml" dropped');
  t.match(m1.brand_kept, { result: 'error', detail: 'missing: Casio' });
  t.match(m1.numbers_kept, { result: 'error', detail: /missing: 3, 500/ }, 'a changed bare digit and a dropped number with unit');
  t.match(items.m2.quality_notes.glossary_obeyed, { result: 'error', detail: /water resistant/ }, 'forced glossary term lost');
  t.match(items.m2.quality_notes.brand_kept, { result: 'error', detail: 'missing: Seiko' });
  t.match(items.m3.quality_notes.numbers_kept, { result: 'error', detail: 'missing: 2' });
  for (const i of Object.values(items)) t.ok(i.quality_score < 1, `${i.product_id} score ${i.quality_score}`);
  t.equal((await itemsByStatus(call, 'machine')).length, 0, 'nothing mangled is served as machine text');
});

t.test('a provider that echoes the source: untranslated text goes to review', async (t) => {
  fake.mode = 'echo';
  await backfill(call, { target_locale: 'ar', fields: ['name'], scope: 'all', product_ids: ['m3'] });
  const m3 = (await itemsByStatus(call, 'review')).find((i) => i.product_id === 'm3')!;
  t.match(m3.quality_notes, { not_identical: { result: 'error' }, target_script: { result: 'error' } });
});

t.test('a provider that answers 429 first: the client backs off and the backfill succeeds', async (t) => {
  fake.mode = 'rate_limit';
  const before = fake.requests.length;
  const { job } = await backfill(call, { target_locale: 'ar', fields: ['name'], scope: 'all' });
  t.equal(job!.status, 'succeeded', job!.error ?? '');
  t.equal(fake.rateLimitedCount, 2, 'two 429 answers');
  t.ok(fake.requests.length - before >= 3, 'retried after the 429s');
  const machine = await itemsByStatus(call, 'machine');
  t.same(machine.map((i) => i.product_id).sort(), ['m1', 'm2', 'm3']);
});

t.test('a provider that never answers: calls time out, the job fails with a clear error, items are not touched', async (t) => {
  fake.mode = 'hang';
  const before = await itemsByStatus(call, 'machine');
  const { job } = await backfill(call, { target_locale: 'ar', fields: ['name'], scope: 'all' });
  t.equal(job!.status, 'failed');
  t.match(job!.error, /timed out/);
  t.same(await itemsByStatus(call, 'machine'), before, 'the machine texts stay as they were');
  fake.mode = 'translate';
  const again = await backfill(call, { target_locale: 'ar', fields: ['name'], scope: 'all' });
  t.equal(again.job!.status, 'succeeded', 'a later backfill runs');
});
