import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { startFakeOpenAi } from '../helpers/openai-fake.js';
import { waitFor } from '../helpers/wait.js';
import { translationCostMicros } from '../../shared/translation/index.js';
import { backfill, caller } from './helpers.js';

// A translate-fields attempt that fails after the provider answered is retried by BullMQ: the
// retry must not pay for the same answer again, and the recorded cost must be what the provider charged.
const fake = await startFakeOpenAi();
t.teardown(() => fake.close());
const { h } = await setupWithWorkers({
  OPENAI_BASE_URL: fake.url,
  OPENAI_API_KEY: 'sk-test',
  // One call per text, two in flight: a chunk of two texts makes two provider calls at once.
  TRANSLATION_BATCH_FIELDS: '1',
  TRANSLATION_PARALLEL_CALLS: '2',
  // The client does not retry inside a call: a provider error fails the attempt at once.
  TRANSLATION_MAX_RETRIES: '0',
  VOCAB_DEBOUNCE_MS: '200',
});
const { db } = h.api.deps;
const price = h.config.translation.price;

/** What the provider charged for the answers it sent since `from`, as the adapter prices tokens. */
function charged(from: number) {
  const answers = fake.answered.slice(from);
  return {
    calls: answers.length,
    input_tokens: answers.reduce((n, a) => n + a.prompt_tokens, 0),
    output_tokens: answers.reduce((n, a) => n + a.completion_tokens, 0),
    cost_micros: answers.reduce((n, a) => n + Math.round(a.prompt_tokens * price.input + a.completion_tokens * price.output), 0),
  };
}

/** The store's recorded translation usage (all months and locales). */
async function recorded(tenantId: string) {
  const [r] = await db('translation_usage_costs')
    .where({ tenant_id: tenantId })
    .sum({ calls: 'calls', input_tokens: 'input_tokens', output_tokens: 'output_tokens', cost_micros: 'cost_micros' });
  return {
    calls: Number(r.calls ?? 0),
    input_tokens: Number(r.input_tokens ?? 0),
    output_tokens: Number(r.output_tokens ?? 0),
    cost_micros: Number(r.cost_micros ?? 0),
  };
}

/** The chunk's translate-fields BullMQ job (kept an hour after it completes). */
async function translateAttempts(tenantId: string, jobRowId: string): Promise<number> {
  const job = await h.api.deps.queues.get('translation-provider').getJob(`translate-fields-${tenantId}-${jobRowId}-0`);
  return job?.attemptsMade ?? 0;
}

async function shopWith(ids: string[]) {
  const shop = await h.tenant();
  const call = caller(h, shop.key);
  await loadProducts(
    h,
    shop.key,
    shop.id,
    ids.map((id, n) => ({ id, name: { en: `Black leather strap ${n + 1}` }, price: 1, currency: 'USD' })),
  );
  return { shop, call };
}

t.test('the cost write fails once after the provider answered: the retry reuses the kept answer and records its cost once', async (t) => {
  const { shop, call } = await shopWith(['c1']);
  // A real failure of the write that follows the answer: a trigger that raises the first time only
  // (a sequence is not rolled back with the failed transaction).
  await db.raw(`CREATE SEQUENCE fault_cost_write`);
  await db.raw(`CREATE FUNCTION fault_cost_write() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN IF nextval('fault_cost_write') = 1 THEN RAISE EXCEPTION 'injected: the cost write fails once'; END IF; RETURN NEW; END $$`);
  await db.raw(`CREATE TRIGGER fault_cost_write BEFORE INSERT OR UPDATE ON translation_usage_costs FOR EACH ROW
    WHEN (NEW.tenant_id = '${shop.id.replace(/'/g, "''")}') EXECUTE FUNCTION fault_cost_write()`);
  t.teardown(() => db.raw(`DROP TRIGGER fault_cost_write ON translation_usage_costs; DROP FUNCTION fault_cost_write(); DROP SEQUENCE fault_cost_write`));
  const from = fake.answered.length;
  const { job } = await backfill(call, { target_locale: 'ar', fields: ['name'] });
  t.equal(job!.status, 'succeeded', job!.error ?? '');
  t.match(job!.result, { translated: 1 });
  t.equal(await translateAttempts(shop.id, job!.id), 2, 'the first attempt failed on the cost write and was retried');
  t.equal(fake.answered.length - from, 1, 'the provider was asked once');
  t.same(await recorded(shop.id), charged(from), 'recorded usage = what the provider charged');
  t.equal(await translationCostMicros(db, shop.id), charged(from).cost_micros, 'ai_cost_micros_usd');
  const [item] = await db('translation_items').where({ tenant_id: shop.id });
  t.equal(Number(item.cost_micros), charged(from).cost_micros, "the item's cost is the one answer's");
  t.equal((await db('translation_answers').where({ tenant_id: shop.id })).length, 0, 'the finished chunk dropped its kept answers');
  // Kept answers serve the retries of one job only: a new backfill asks (and pays) again.
  await backfill(call, { target_locale: 'ar', fields: ['name'], scope: 'all' });
  t.equal(fake.answered.length - from, 2, 'a later run asks the provider again');
  t.same(await recorded(shop.id), charged(from));
});

t.test('handing on fails once after the cost was recorded: the retry neither calls the provider nor records the cost again', async (t) => {
  const { shop, call } = await shopWith(['h1']);
  const { redis, queues } = h.api.deps;
  let held = '';
  // Just before the provider answers, the restore job's key is taken by a plain string: BullMQ's add
  // of that job id then fails (WRONGTYPE), a real Redis error on the hand-on. It goes once the attempt failed.
  fake.onAnswer = async () => {
    fake.onAnswer = undefined;
    const [active] = await queues.get('translation-provider').getActive();
    held = queues.get('translation').toKey(active.id!.replace(/^translate-fields-/, 'restore-fields-'));
    await redis.set(held, 'fault');
    void waitFor(async () => (await queues.get('translation-provider').getJob(active.id!))!.attemptsMade >= 1, 20_000, 'first attempt failed', 20).then(() =>
      redis.del(held),
    );
  };
  t.teardown(() => {
    fake.onAnswer = undefined;
  });
  const from = fake.answered.length;
  const { job } = await backfill(call, { target_locale: 'ar', fields: ['name'] });
  t.ok(held, 'the fault was set');
  t.equal(job!.status, 'succeeded', job!.error ?? '');
  t.match(job!.result, { translated: 1 });
  t.ok((await translateAttempts(shop.id, job!.id)) >= 2, 'the first attempt failed handing on and was retried');
  t.equal(fake.answered.length - from, 1, 'the provider was asked once');
  t.same(await recorded(shop.id), charged(from), 'recorded usage = what the provider charged, once');
});

t.test('one of two calls in flight fails: the answer that came back is kept and paid once, the retry asks only for the other', async (t) => {
  const { shop, call } = await shopWith(['p1', 'p2']);
  const requests = fake.requests.length;
  const from = fake.answered.length;
  fake.failNext = 1;
  const { job } = await backfill(call, { target_locale: 'ar', fields: ['name'] });
  t.equal(job!.status, 'succeeded', job!.error ?? '');
  t.match(job!.result, { translated: 2 });
  t.equal(fake.requests.length - requests, 3, 'two calls, then one again for the text that failed');
  t.equal(fake.answered.length - from, 2, 'two answers charged');
  t.same(await recorded(shop.id), charged(from), 'recorded usage = what the provider charged');
});

t.test('answers kept twice for one batch (a stalled job run twice at once): both calls are paid, each cost is recorded once', async (t) => {
  const shop = await h.tenant();
  const answers = h.api.deps.repos.translationAnswers;
  const store = answers.forJob({ tenantId: shop.id, runId: 'run1', chunk: 0, target: 'ar' });
  const first = await store.keep('k', { texts: { '0': 'أول' }, inputTokens: 100, outputTokens: 10, costMicros: 21 });
  t.match(first, { texts: { '0': 'أول' }, costRecorded: false });
  const second = await store.keep('k', { texts: { '0': 'ثان' }, inputTokens: 90, outputTokens: 20, costMicros: 25 });
  t.match(second, { texts: { '0': 'أول' }, costRecorded: false }, 'the answer kept first stays');
  t.same(await recorded(shop.id), { calls: 1, input_tokens: 90, output_tokens: 20, cost_micros: 25 }, "the second call's cost is recorded at once");
  await store.recordCost('k');
  await store.recordCost('k');
  t.same(await recorded(shop.id), { calls: 2, input_tokens: 190, output_tokens: 30, cost_micros: 46 }, "the kept answer's cost is recorded once");
  const found = await store.find(['k', 'other']);
  t.same([...found.keys()], ['k']);
  t.equal(found.get('k')!.costRecorded, true);
  const other = await h.tenant();
  t.equal((await answers.forJob({ tenantId: other.id, runId: 'run1', chunk: 0, target: 'ar' }).find(['k'])).size, 0, "another tenant's job sees none");
  t.equal(await answers.forget(shop.id, 'run1', 0), 1);
});
