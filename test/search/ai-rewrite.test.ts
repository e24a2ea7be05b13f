import t from 'tap';
import { eventually } from '../helpers/workers.js';
import { setup } from '../helpers/harness.js';
import { MAPPING } from './fixtures.js';
import { rewriteAnswer } from './openai-fake.js';
import { aiRewriteStore } from './ai-store.js';

const { fake, h, tenantId, key } = await aiRewriteStore();

const search = async (body: Record<string, unknown>) => {
  const res = await h.api.call('POST', '/v1/search', { key, body: { debug: true, ...body } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  return res.body;
};
const step = (body: { debug: { steps: Array<Record<string, any>> } }, name: string) => body.debug.steps.find((s) => s.step === name)!;
const budget = h.api.deps.rewriter.budget;
const mappingVersion = async () => (await h.api.deps.contexts.get(tenantId))?.mappingVersion;

t.test('a good rewrite is applied: text, filters checked against the store, request schema sent', async (t) => {
  fake.next.push({ json: rewriteAnswer('smartphone', { brand: ['samsung'], price_max: 3000, attributes: [{ name: 'color', value: 'black' }] }) });
  const before = fake.calls.length;
  const spent = await budget.spent(tenantId);
  const res = await search({ q: 'i am looking for a phone to call my mom, not too pricey' });
  t.equal(fake.calls.length, before + 1);
  const sent = fake.calls[before].body;
  t.equal(sent.model, 'gpt-4o-mini');
  t.match(sent.response_format, { type: 'json_schema', json_schema: { name: 'query_rewrite', strict: true } });
  t.equal(fake.calls[before].query, 'i am looking for a phone to call my mom, not too pricey');
  t.match(res.query, { ai_used: true, ai_cached: false, rewritten: 'smartphone', filters: { brand: ['Samsung'], price: { lte: 3000 }, color: ['Black'] } });
  t.same(res.ids, ['ph1'], 'the black Samsung smartphone under 3000');
  t.match(step(res, 'rewrite'), { decision: 'applied', reasons: ['long_query', 'conversational'], dropped: [] });
  t.equal((await budget.spent(tenantId)) - spent, 1000 * 0.15 + 50 * 0.6, "the call's cost is counted in ai_cost_micros_usd");
});

t.test('an unknown brand and an impossible price are dropped; the rest applies', async (t) => {
  fake.next.push({ json: rewriteAnswer('headset', { brand: ['Nokia'], price_max: 1, category: ['Audio'] }) });
  const res = await search({ q: 'wireless thing for music on the go please' });
  t.match(res.query, { ai_used: true, rewritten: 'headset' });
  t.same(res.query.filters, { category: ['lvl:electronics>audio'] }, "the category is the store's level key");
  t.same(res.ids, ['h1']);
  t.same(step(res, 'rewrite').dropped, [
    { field: 'brand', value: 'Nokia', why: 'unknown_brand' },
    { field: 'price', value: { gte: null, lte: 1 }, why: 'below_catalog_prices' },
  ]);
});

t.test("request filters and sort win over the model's", async (t) => {
  fake.next.push({ json: rewriteAnswer('smartphone', { brand: ['Samsung'] }, 'price_asc') });
  const res = await search({ q: 'which phone should i buy for my dad', filters: { brand: ['Apple'] }, sort: 'price_desc' });
  t.same(res.ids, ['ph2']);
  t.match(step(res, 'rewrite').dropped, [{ field: 'brand', why: 'request_filter_wins' }]);
});

t.test('a slow provider: the plain search answers within the timeout', async (t) => {
  fake.next.push({ delayMs: 6000, json: rewriteAnswer('smartphone') });
  const before = fake.calls.length;
  const res = await search({ q: 'tell me which laptop is good for students please', ai: 'on' });
  t.equal(fake.calls.length, before + 1);
  t.notOk(fake.calls[before].answered, 'the search answered before the provider did');
  t.match(res.query, { ai_used: false, ai_cached: false });
  t.equal(step(res, 'rewrite').decision, 'timeout');
  t.ok(res.ids.length > 0, 'plain search results (any word of the query)');
});

t.test('a 429 is retried within the timeout; an error falls back', async (t) => {
  fake.next.push({ status: 429, error: 'Rate limit reached', type: 'rate_limit_error' }, { json: rewriteAnswer('tablet') });
  const before = fake.calls.length;
  const res = await search({ q: 'something to read books on in bed', ai: 'on' });
  t.equal(fake.calls.length, before + 2);
  t.match(res.query, { ai_used: true, rewritten: 'tablet' });
  t.same(res.ids, ['t1']);
  fake.next.push({ status: 400, error: 'bad request', type: 'invalid_request_error' });
  const bad = await search({ q: 'blue cotton shirt', ai: 'on' });
  t.match(step(bad, 'rewrite'), { decision: 'error' });
  t.same(bad.ids, ['ar2'], 'the plain search');
});

t.test('the same query again comes from the AI cache without a provider call', async (t) => {
  const q = 'i need a speaker for the beach party with friends';
  fake.next.push({ json: rewriteAnswer('speaker', { brand: ['JBL'] }) });
  const first = await search({ q });
  const calls = fake.calls.length;
  const second = await search({ q });
  t.equal(fake.calls.length, calls, 'no provider call');
  t.match(second.query, { ai_used: true, ai_cached: true, rewritten: 'speaker' });
  t.same(second.ids, first.ids);
  const api2 = await h.startApi();
  t.teardown(() => api2.close());
  const other = await api2.call('POST', '/v1/search', { key, body: { q } });
  t.match(other.body.query, { ai_used: true, ai_cached: true }, 'shared by every API process');
  t.equal(fake.calls.length, calls);
});

t.test('auto asks only when it helps; zero results ask once; ai=off never; suggest never', async (t) => {
  const before = fake.calls.length;
  const plain = await search({ q: 'laptop' });
  t.match(step(plain, 'rewrite'), { decision: 'not_needed', reasons: [] });
  t.equal(fake.calls.length, before, 'a plain catalog query: no call');
  fake.next.push({ json: rewriteAnswer('laptop', { brand: ['Apple'] }) });
  const zero = await search({ q: 'samsung notebook' });
  t.equal(fake.calls.length, before + 1);
  t.match(step(zero, 'rewrite-retry'), { decision: 'applied', used: true, reasons: ['zero_results'] });
  t.same(zero.ids, ['lap3'], 'the query ran again with the rewrite');
  const off = [];
  for (const q of ['i am looking for a phone to call my mom, not too pricey', 'cheap affordable tablet', 'zzqx blorf', 'samsung notebook'])
    off.push(await search({ q, ai: 'off' }));
  t.equal(fake.calls.length, before + 1, 'ai=off never calls');
  t.ok(off.every((r) => r.query.ai_used === false && step(r, 'rewrite').decision === 'off'));
  await h.api.call('GET', '/v1/suggest?q=i%20am%20looking%20for%20a%20phone', { key });
  t.equal(fake.calls.length, before + 1, 'suggest never calls');
});

t.test('a value_map change: a rewrite cached under the old values is not used (the facet names stay)', async (t) => {
  const q = 'a red dress to wear at a wedding';
  fake.next.push({ json: rewriteAnswer('dress', { attributes: [{ name: 'color', value: 'red' }] }) });
  t.match((await search({ q, ai: 'on' })).query, { ai_cached: false, filters: { color: ['Red'] } });
  t.match((await search({ q, ai: 'on' })).query, { ai_cached: true, filters: { color: ['Red'] } }, 'cached while the mapping stands');
  const renamed = [{ ...MAPPING[0], value_map: { red: 'Scarlet' } }];
  const version = await mappingVersion();
  t.equal((await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: renamed } })).status, 200);
  const scarlet = async () => (await h.api.call('POST', '/v1/search', { key, body: { q: 'dress', filters: { color: ['Scarlet'] } } })).body;
  await eventually(async () => (await scarlet()).total === 1);
  // The search context follows the index swap's notice in the background: the rewrite cache key
  // holds its mapping fingerprint, so wait until this process has the new one too.
  await eventually(async () => (await mappingVersion()) !== version);
  const calls = fake.calls.length;
  fake.next.push({ json: rewriteAnswer('dress', { attributes: [{ name: 'color', value: 'scarlet' }] }) });
  const after = await search({ q, ai: 'on' });
  t.equal(fake.calls.length, calls + 1, 'the model is asked again under the new mapping');
  t.match(after.query, { ai_cached: false, filters: { color: ['Scarlet'] } });
  t.same(after.ids, ['ar1'], 'the red dress under its new value, not an empty page');
  t.equal((await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: MAPPING } })).status, 200);
  await eventually(async () => (await h.api.call('POST', '/v1/search', { key, body: { q: 'dress', filters: { color: ['Red'] } } })).body.total === 1);
  await eventually(async () => (await mappingVersion()) === version);
});

t.test('a mapping change: a rewrite cached under the old mapping never filters on an attribute no longer mapped', async (t) => {
  const q = 'show me a red dress for a party';
  const red = { json: rewriteAnswer('dress', { attributes: [{ name: 'color', value: 'red' }] }) };
  fake.next.push(red);
  const first = await search({ q, ai: 'on' });
  t.match(first.query, { ai_used: true, ai_cached: false, rewritten: 'dress', filters: { color: ['Red'] } });
  t.same(first.ids, ['ar1']);
  t.match((await search({ q, ai: 'on' })).query, { ai_cached: true, filters: { color: ['Red'] } }, 'cached while the mapping stands');
  t.equal((await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: [] } })).status, 200);
  await eventually(async () => (await h.api.call('POST', '/v1/search', { key, body: { q: 'dress', filters: { color: ['Red'] } } })).status === 400);
  const calls = fake.calls.length;
  fake.next.push(red);
  const after = await search({ q, ai: 'on' });
  t.same(after.ids, ['ar1'], 'the red dress, not an empty page');
  t.match(after.query, { ai_used: true, ai_cached: false, rewritten: 'dress' }, 'the answer cached under the old mapping is not used');
  t.same(after.query.filters, {}, 'no filter on the unmapped attribute');
  t.equal(fake.calls.length, calls + 1, 'the model is asked again, offered the attributes mapped now');
  t.same(step(after, 'rewrite').dropped, [{ field: 'attributes.color', value: 'red', why: 'unknown_attribute' }]);
  t.match((await search({ q, ai: 'on' })).query, { ai_cached: true, filters: {} }, 'the new answer is cached in turn');
});

t.test('budget exhausted: no call, plain search', async (t) => {
  const redis = h.api.deps.redis;
  await redis.set(budget.key(tenantId), '100000');
  const before = fake.calls.length;
  const res = await search({ q: 'what do you have for my kitchen that is cheap', ai: 'on' });
  t.equal(fake.calls.length, before);
  t.match(step(res, 'rewrite'), { decision: 'budget_exhausted' });
  t.equal(res.query.ai_used, false);
  const auto = await search({ q: 'looking for a present for my sister who loves music' });
  t.equal(fake.calls.length, before, 'auto stops calling too');
  t.equal(step(auto, 'rewrite').decision, 'budget_exhausted');
});

t.test('no provider configured: ai_used stays false and the trace says why', async (t) => {
  const bare = await setup();
  t.teardown(() => bare.close());
  const other = await bare.tenant();
  const res = await bare.api.call('POST', '/v1/search', { key: other.key, body: { q: 'anything', ai: 'on', debug: true } });
  t.equal(res.body.query.ai_used, false);
  t.match(step(res.body, 'rewrite'), { decision: 'no_provider', detail: /OPENAI_BASE_URL/ });
});
