import t from 'tap';
import { rewriteAnswer, type FakeCall, type FakeReply } from './openai-fake.js';
import { aiRewriteStore } from './ai-store.js';

/**
 * AI rewriting when the model fails for good for a query (it refuses the request with a 400, or
 * answers JSON that is not a rewrite): the failure is remembered for that query (AI_FAILURE_TTL_S),
 * so a repeat answers with the plain search without asking the model again. Transient failures
 * (server errors, no answer in time) are not remembered: a repeat asks again. The fake model
 * counts the calls.
 */

const { fake, h, tenantId, key } = await aiRewriteStore({ LLM_TIMEOUT_MS: '300', AI_FAILURE_TTL_S: '120' });
const deps = h.api.deps;
const healthy = fake.reply;

const search = async (q: string) => {
  const asked = fake.calls.length;
  const res = await h.api.call('POST', '/v1/search', { key, body: { q, ai: 'on', debug: true } });
  if (res.status !== 200) throw new Error(JSON.stringify(res.body));
  const rewrite = res.body.debug.steps.find((s: { step: string }) => s.step === 'rewrite');
  return { calls: fake.calls.length - asked, decision: rewrite.decision as string, used: res.body.query.ai_used as boolean, ids: res.body.ids as string[] };
};

/** The seconds left on each AI-cache entry of the store (rewrites and remembered failures). */
async function aiCacheTtls(): Promise<number[]> {
  const keys: string[] = [];
  let cursor = '0';
  do {
    const [next, found] = await deps.redis.scan(cursor, 'MATCH', `${h.config.queuePrefix}:ai-rewrite:${tenantId}:*`, 'COUNT', 1000);
    cursor = next;
    keys.push(...found);
  } while (cursor !== '0');
  return Promise.all(keys.map((k) => deps.redis.ttl(k)));
}

const permanent: Array<[string, string, (call: FakeCall) => FakeReply]> = [
  ['a 400 from the model', 'blue cotton shirt', () => ({ status: 400, error: 'Invalid schema for response_format', type: 'invalid_request_error' })],
  ['a reply that is not a rewrite', 'black leather boots', () => ({ json: { answer: 'boots' } })],
];
for (const [what, q, reply] of permanent) {
  t.test(`${what}: remembered for the query, a repeat does not ask the model`, async (t) => {
    fake.reply = reply;
    try {
      const first = await search(q);
      t.equal(first.calls, 1, 'asked once');
      t.equal(first.decision, 'error');
      t.notOk(first.used);
      const repeat = await search(q);
      t.equal(repeat.calls, 0, 'the repeat does not ask');
      t.equal(repeat.decision, 'failed_recently');
      t.notOk(repeat.used);
      t.same(repeat.ids, first.ids, 'the same plain search');
      t.equal((await search(q)).calls, 0, 'nor does the next');
    } finally {
      fake.reply = healthy;
    }
    t.equal((await search(q)).calls, 0, 'the model answering again does not matter within the memory');
  });
}

t.test('a remembered failure lasts AI_FAILURE_TTL_S, not the rewrite cache life', async (t) => {
  fake.next.push({ json: rewriteAnswer('speaker') });
  await search('a speaker for the beach party');
  const ttls = await aiCacheTtls();
  t.equal(ttls.length, 3, 'two remembered failures and one rewrite');
  t.equal(ttls.filter((s) => s > 0 && s <= 120).length, 2, `the failures expire within 120 s: ${ttls}`);
  t.equal(ttls.filter((s) => s > 120).length, 1, `the rewrite keeps AI_CACHE_TTL_S: ${ttls}`);
});

const transient: Array<[string, string, FakeReply]> = [
  ['server errors', 'red running shoes', { status: 503, error: 'The engine is currently overloaded', type: 'server_error' }],
  ['no answer in time', 'white desk lamp', { json: rewriteAnswer('lamp'), delayMs: 1500 }],
  ['a 429', 'green winter jacket', { status: 429, error: 'Rate limit reached', type: 'rate_limit_error' }],
];
for (const [what, q, reply] of transient) {
  t.test(`${what}: not remembered, a repeat asks again`, async (t) => {
    fake.reply = () => reply;
    let first;
    try {
      first = await search(q);
    } finally {
      fake.reply = healthy;
    }
    t.ok(first.calls > 0, 'asked');
    t.match(first.decision, /^(error|timeout)$/);
    fake.next.push({ json: rewriteAnswer('jacket') });
    const repeat = await search(q);
    t.equal(repeat.calls, 1, 'the repeat asks again');
    t.equal(repeat.decision, 'applied');
  });
}
