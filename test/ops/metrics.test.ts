import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadProducts } from '../helpers/catalog.js';
import { waitSearchable } from '../../scripts/lib/wait-searchable.js';
import { serveMetrics } from '../../shared/platform/metrics-server.js';

const TOKEN = 'metrics-token-for-tests-0123456789';
// A short vocabulary window: loadProducts waits for the vocabulary (the 30 s default outlasts its wait).
const { h } = await setupWithWorkers({ METRICS_TOKEN: TOKEN, SEARCH_CACHE_TTL_MS: '60000', VOCAB_DEBOUNCE_MS: '200' });
const { id: tenantId, key } = await h.tenant();

/** `name{labels} value` lines of a scrape, as [name, labels, value]. */
function series(text: string): Array<{ name: string; labels: Record<string, string>; value: number }> {
  return text
    .split('\n')
    .filter((l) => l && !l.startsWith('#'))
    .map((l) => {
      const m = /^([a-zA-Z_:][\w:]*)(\{(.*)\})? (\S+)$/.exec(l)!;
      const labels: Record<string, string> = {};
      for (const [, k, v] of (m[3] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[k] = v;
      return { name: m[1], labels, value: Number(m[4]) };
    });
}
const find = (all: ReturnType<typeof series>, name: string, labels: Record<string, string> = {}) =>
  all.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));

t.test('/metrics is refused without the token', async (t) => {
  t.equal((await fetch(`${h.api.url}/metrics`)).status, 401);
  t.equal((await fetch(`${h.api.url}/metrics`, { headers: { authorization: 'Bearer wrong-token-wrong-token-xx' } })).status, 401);
  t.equal((await fetch(`${h.api.url}/metrics`, { headers: { authorization: `Bearer ${key}` } })).status, 401, 'an API key is not the metrics token');
});

t.test('after real traffic and jobs the named series are there', async (t) => {
  const products = Array.from({ length: 30 }, (_, i) => ({ id: `m${i}`, name: { en: `Metric phone ${i}` }, price: 10 + i, currency: 'USD' }));
  await loadProducts(h, key, tenantId, products);
  await waitSearchable(h.api.deps, tenantId);
  for (let i = 0; i < 3; i++) t.equal((await h.api.call('GET', '/v1/search?q=phone', { key })).status, 200);
  t.equal((await h.api.call('GET', '/v1/suggest?q=pho', { key })).status, 200);
  t.equal((await h.api.call('GET', '/v1/jobs/job_nope', { key })).status, 404);

  const res = await fetch(`${h.api.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
  t.equal(res.status, 200);
  t.match(res.headers.get('content-type'), /text\/plain/);
  const all = series(await res.text());

  const searches = find(all, 'pss_http_requests_total', { method: 'GET', route: '/v1/search', status: '200' });
  t.equal(searches[0]?.value, 3, 'requests counted per route pattern and status');
  t.equal(find(all, 'pss_http_requests_total', { route: '/v1/jobs/:job_id', status: '404' })[0]?.value, 1, 'ids do not make series');
  t.ok(find(all, 'pss_http_request_duration_seconds_count', { route: '/v1/products/batch', status: '200' })[0]?.value >= 1);
  t.equal(find(all, 'pss_search_duration_seconds_count', { kind: 'search', part: 'engine' })[0]?.value, 3);
  t.equal(find(all, 'pss_search_duration_seconds_count', { kind: 'search', part: 'service' })[0]?.value, 3);
  t.equal(find(all, 'pss_search_duration_seconds_count', { kind: 'suggest', part: 'engine' })[0]?.value, 1);
  t.ok(find(all, 'pss_search_duration_seconds_sum', { kind: 'search', part: 'engine' })[0]?.value > 0, 'the first search ran the engine');
  t.ok(find(all, 'pss_engine_call_duration_seconds_count', { engine: 'postgres', op: 'search' })[0]?.value >= 1);
  // A catalog notice arriving between the searches may drop the cache once: count, do not assume.
  const lookups = (result: string) => find(all, 'pss_cache_lookups_total', { cache: 'search', result })[0]?.value ?? 0;
  t.equal(lookups('hit') + lookups('stale') + lookups('miss'), 3, 'every search looked in the cache once');
  t.ok(lookups('miss') >= 1 && lookups('hit') + lookups('stale') >= 1, 'the first missed, a repeat was answered from it');
  t.ok(Math.abs(find(all, 'pss_cache_hit_ratio', { cache: 'search' })[0]?.value - (3 - lookups('miss')) / 3) < 1e-9, 'the ratio gauge matches the counters');
  t.ok(
    find(all, 'pss_job_duration_seconds_count', { queue: 'catalog', stage: 'index-products', outcome: 'succeeded' })[0]?.value >= 1,
    'job durations per queue and stage',
  );
  for (const state of ['waiting', 'active', 'failed', 'delayed'])
    t.equal(find(all, 'pss_queue_jobs', { queue: 'catalog', state }).length, 1, `queue ${state} count`);
  t.equal(find(all, 'pss_queue_depth', { queue: 'catalog' }).length, 1);
  t.ok(find(all, 'pss_usage_total', { what: 'searches' })[0]?.value >= 3, 'usage counters');
  t.ok(
    find(all, 'pss_process_resident_memory_bytes').length ||
      find(all, 'pss_process_heap_size_total_bytes').length ||
      find(all, 'pss_process_nodejs_heap_size_total_bytes').length,
  );
});

t.test('the admin listener (METRICS_PORT, WORKER_METRICS_PORT) serves the same without a token', async (t) => {
  const server = await serveMetrics(0, '127.0.0.1');
  t.teardown(() => server.close());
  const port = (server.address() as { port: number }).port;
  const res = await fetch(`http://127.0.0.1:${port}/metrics`);
  t.equal(res.status, 200);
  t.match(await res.text(), /pss_job_duration_seconds_bucket\{[^}]*stage="index-products"/);
  t.equal((await fetch(`http://127.0.0.1:${port}/other`)).status, 404);
});
