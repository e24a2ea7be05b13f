import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { startFakeOpenAi } from '../helpers/openai-fake.js';
import { translatedProducts, translationCostMicros, usageMonth } from '../../shared/translation/index.js';
import { backfill, caller, itemsByStatus, jobDone } from './helpers.js';
import { waitFor } from '../helpers/wait.js';
import { reconcileJobs } from '../../pipelines/jobs/reconcile-jobs.stage.js';

const fake = await startFakeOpenAi();
t.teardown(() => fake.close());
const { h } = await setupWithWorkers({
  OPENAI_BASE_URL: fake.url,
  OPENAI_API_KEY: 'sk-test',
  VOCAB_DEBOUNCE_MS: '200',
  TRANSLATION_CHUNK_FIELDS: '3',
  TRANSLATION_BATCH_FIELDS: '2',
});
const shop = await h.tenant();
const call = caller(h, shop.key);
const products = Array.from({ length: 6 }, (_, i) => ({
  id: `p${i}`,
  name: { en: `Black leather strap ${i + 1}` },
  description: { en: `Classic black strap, ${20 + i} mm wide` },
  brand: 'Casio',
  price: 10,
  currency: 'USD',
  popularity: i,
  categories: [{ id: 'c9', path: [{ en: 'Watches' }, { en: 'Straps' }] }],
}));
await loadProducts(h, shop.key, shop.id, products);

t.test('a dry run counts fields and estimates the cost without a job or any item', async (t) => {
  const res = await call('POST', '/v1/translate/backfill', { dry_run: true });
  t.equal(res.status, 202);
  t.match(res.body, { products: 6, fields: 18, job: null, provider: 'openai:gpt-4o-mini' });
  t.match(res.body.estimated_cost_usd, /^0\.\d{6}$/);
  t.ok(Number(res.body.estimated_cost_usd) > 0);
  t.equal((await call('GET', '/v1/translate/status')).body.total_fields, 0);
  t.equal(fake.requests.length, 0, 'the provider was not called');
});

t.test('a backfill translates every field through the whole pipeline, in chunks, with progress and usage', async (t) => {
  const { estimate, job } = await backfill(call, { target_locale: 'ar', review_top_n: 1 });
  t.match(estimate, { products: 6, fields: 18, job: { kind: 'translate_backfill' } });
  t.equal(job!.status, 'succeeded', job!.error ?? '');
  t.equal(job!.progress, 1);
  t.match(job!.result, { chunks: 6, fields: 18, translated: 18, machine: 15, review: 3 });
  // Six name texts, six descriptions and one category label (identical texts go once per chunk).
  const sent = fake.requests.flatMap((r) => JSON.parse(r.messages[1].content).items);
  t.ok(
    sent.every((i: { text: string }) => !i.text.includes('Casio') && !/\d+ mm/.test(i.text)),
    'brand and numbers with units are masked',
  );
  const machine = await itemsByStatus(call, 'machine');
  t.equal(machine.length, 15);
  const name = machine.find((i) => i.product_id === 'p0' && i.field === 'name')!;
  t.match(name, {
    source_locale: 'en',
    target_locale: 'ar',
    source_text: 'Black leather strap 1',
    ai_translated: true,
    human_edited: false,
    quality_score: 1,
    provider: 'openai:gpt-4o-mini',
  });
  t.match(name.translated_text, /أسود جلد حزام 1/);
  const review = await itemsByStatus(call, 'review');
  t.same([...new Set(review.map((i) => i.product_id))], ['p5'], 'review_top_n: the most popular product goes to review whatever its score');
  t.equal(review[0].quality_score, 1);
  const status = (await call('GET', '/v1/translate/status')).body;
  t.match(status, {
    target_locale: 'ar',
    total_fields: 18,
    human_edited: 0,
    watch_enabled: false,
    running_job: null,
    provider: { configured: true, message: null },
  });
  t.match(status.by_status, { pending: 0, machine: 15, review: 3, approved: 0, rejected: 0, human_edited: 0, stale: 0 });
  t.ok(Number(status.cost_month_usd) > 0, 'cost_month_usd');
  t.equal(await translatedProducts(h.api.deps.db, shop.id, usageMonth()), 6, 'translated_product');
  t.equal(
    await h.api.deps.usage.dayCount(shop.id, new Date().toISOString().slice(0, 10), 'translated_product'),
    6,
    "the day's translated_product usage counter",
  );
  t.ok((await translationCostMicros(h.api.deps.db, shop.id)) > 0, 'ai_cost_micros_usd');
});

t.test('scope missing skips what is translated; a product counts once a month', async (t) => {
  const calls = fake.requests.length;
  const { estimate, job } = await backfill(call, { target_locale: 'ar' });
  t.match(estimate, { products: 0, fields: 0 });
  t.match(job!.result, { fields: 0, chunks: 0 });
  t.equal(fake.requests.length, calls);
  await backfill(call, { target_locale: 'ar', scope: 'all', product_ids: ['p0'] });
  t.equal(await translatedProducts(h.api.deps.db, shop.id, usageMonth()), 6, 'p0 translated again this month counts once');
});

t.test('glossary terms reach the provider masked and come back as the glossary says', async (t) => {
  await call('POST', '/v1/translate/glossary', { source_locale: 'en', target_locale: 'ar', source_term: 'leather strap', target_term: 'سوار جلدي' });
  await call('POST', '/v1/translate/glossary', {
    source_locale: 'en',
    target_locale: 'ar',
    source_term: 'Classic',
    do_not_translate: true,
    case_sensitive: true,
  });
  const sent = fake.requests.length;
  await backfill(call, { target_locale: 'ar', scope: 'all', product_ids: ['p1'] });
  const texts = fake.requests.slice(sent).flatMap((r) => JSON.parse(r.messages[1].content).items.map((i: { text: string }) => i.text));
  t.ok(
    texts.every((x: string) => !/leather strap|Classic/.test(x)),
    JSON.stringify(texts),
  );
  const p1 = (await itemsByStatus(call, 'machine')).filter((i) => i.product_id === 'p1');
  const name = p1.find((i) => i.field === 'name')!;
  const description = p1.find((i) => i.field === 'description')!;
  t.match(name.translated_text, /أسود سوار جلدي 2/);
  t.match(description.translated_text, /^Classic /, 'case-sensitive do-not-translate kept verbatim');
  t.match(name.quality_notes.glossary_obeyed, { result: 'pass' });
});

t.test('auto-approve: a store policy sends clean machine translations straight to approved', async (t) => {
  const put = await call('PUT', '/v1/translate/settings', { target_locale: 'ar', auto_approve: true, auto_approve_min_score: 0.95 });
  t.match(put.body, { target_locale: 'ar', auto_approve: true, auto_approve_min_score: 0.95, watch_enabled: false });
  t.match((await call('GET', '/v1/translate/settings?target_locale=ar')).body, { auto_approve: true });
  await loadProducts(h, shop.key, shop.id, [{ id: 'p9', name: { en: 'Red dress' }, price: 5, currency: 'USD' }]);
  await backfill(call, { target_locale: 'ar', fields: ['name'], product_ids: ['p9'] });
  const approved = await itemsByStatus(call, 'approved');
  t.same(
    approved.map((i) => [i.product_id, i.translated_text]),
    [['p9', 'أحمر فستان']],
  );
  t.ok(approved[0].approved_at);
  await call('PUT', '/v1/translate/settings', { target_locale: 'ar', auto_approve: false });
});

t.test('a second backfill while one is live returns the live job', async (t) => {
  fake.latencyMs = 1500;
  const first = await call('POST', '/v1/translate/backfill', { target_locale: 'ar', scope: 'all', fields: ['name'] });
  const second = await call('POST', '/v1/translate/backfill', { target_locale: 'ar', scope: 'all', fields: ['name'] });
  t.equal(second.status, 202);
  t.equal(second.body.job.id, first.body.job.id, 'joined');
  t.equal((await call('GET', '/v1/translate/status')).body.running_job.id, first.body.job.id);
  const other = await call('POST', '/v1/translate/backfill', { target_locale: 'ar', scope: 'all', fields: ['name'], dry_run: true });
  t.equal(other.body.job, null, 'a dry run never starts or joins a job');
  fake.latencyMs = 0;
  t.equal((await jobDone(call, first.body.job.id)).status, 'succeeded');
});

t.test('a backfill whose queued work was lost (Redis restarted empty) starts over from collect and succeeds; a live one is left alone', async (t) => {
  const { deps } = h.api;
  const reconcile = async (run: string) => {
    const jobId = await deps.queues.enqueue(reconcileJobs, { graceMs: 0, run });
    return waitFor(
      async () => {
        const j = await deps.queues.get('maintenance').getJob(jobId);
        return j?.finishedOn ? j.returnvalue : null;
      },
      20_000,
      'reconcile-jobs',
    );
  };
  await loadProducts(h, shop.key, shop.id, [{ id: 'lost1', name: { en: 'Blue bag' }, price: 1, currency: 'USD' }]);
  // The row written, its collect job never queued.
  const { job } = await deps.repos.jobs.create(
    shop.id,
    'translate_backfill',
    { target_locale: 'ar', fields: ['name'], scope: 'missing', product_ids: ['lost1'], review_top_n: 0 },
    'translate_backfill-ar',
  );
  t.match(await reconcile('lost-backfill'), { restarted: 1, failed: 0 });
  const done = await jobDone(call, job.id);
  t.equal(done.status, 'succeeded', done.error ?? '');
  t.match(done.result, { fields: 1, translated: 1 });
  fake.latencyMs = 1500;
  const live = await call('POST', '/v1/translate/backfill', { target_locale: 'ar', scope: 'all', fields: ['name'], product_ids: ['lost1'] });
  await waitFor(async () => (await deps.repos.jobs.get(live.body.job.id))?.status === 'running', 10_000, 'backfill running');
  t.match(await reconcile('live-backfill'), { restarted: 0, failed: 0 }, 'chunks at work keep their row');
  fake.latencyMs = 0;
  t.equal((await jobDone(call, live.body.job.id)).status, 'succeeded');
});
