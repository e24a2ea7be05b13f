import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { PRODUCTS, MAPPING } from './fixtures.js';
import { FakeOpenAi } from './openai-fake.js';

/**
 * The fake model, a harness with workers asking it (`env` adds to or overrides the settings), and a
 * store with AI rewriting on (ai=auto then asks when it helps), the fixtures' mapping and products.
 */
export async function aiRewriteStore(env: Record<string, string> = {}) {
  const fake = await new FakeOpenAi().start();
  t.teardown(() => fake.close());
  const { h } = await setupWithWorkers({
    VOCAB_DEBOUNCE_MS: '200',
    OPENAI_BASE_URL: fake.url,
    OPENAI_API_KEY: 'sk-test',
    LLM_TIMEOUT_MS: '1500',
    AI_BUDGET_MICROS_USD: '100000',
    ...env,
  });
  const { id: tenantId, key } = await h.tenant();
  await h.api.deps
    .db('tenants')
    .where({ id: tenantId })
    .update({ settings: { ranking: { ai_rewrite: true } } });
  await h.api.call('PUT', '/v1/attributes/mapping', { key, body: { items: MAPPING } });
  await loadProducts(h, key, tenantId, PRODUCTS);
  return { fake, h, tenantId, key };
}
