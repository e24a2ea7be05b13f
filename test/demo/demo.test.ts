import t from 'tap';
import { setupWithWorkers } from '../helpers/workers.js';
import { loadCatalog } from '../../scripts/lib/load-catalog.js';
import { waitSearchable } from '../../scripts/lib/wait-searchable.js';
import { SHIPPED_SAMPLES } from '../../scripts/sample/samples.js';
import { SAMPLE_SEARCHES } from '../../scripts/sample/demo-examples.js';

/** The searches npm run demo prints find what they say, once the shipped samples are loaded the way the demo loads them. */

const { h } = await setupWithWorkers({ VOCAB_DEBOUNCE_MS: '100' });
const { id: tenantId, key } = await h.tenant('Demo store');
let sent = 0;

t.test('both samples load through the batch API, as npm run demo loads them', async (t) => {
  for (const [i, s] of SHIPPED_SAMPLES.entries()) {
    const r = await loadCatalog({ url: h.api.url, key, file: s.file, kind: s.kind, runId: `demo-test-${i}` });
    t.same(r.errors, [], `${s.label}: no product rejected`);
    sent += r.sent;
  }
  await waitSearchable(h.api.deps, tenantId, 60_000);
  const [{ n }] = await h.api.deps.db('products').where({ tenant_id: tenantId }).count({ n: '*' });
  t.equal(Number(n), sent, `${sent} products in the demo tenant`);
});

type Hit = { id: string; product: { name: Record<string, string>; brand: string | null; currency: string } };
type Checks = { equal(found: unknown, wanted: unknown, message: string): boolean };
const search = async (t: Checks, path: string) => {
  const res = await h.api.call('GET', path, { key });
  t.equal(res.status, 200, `${path} answers 200`);
  return res.body;
};
const byNote = (re: RegExp) => SAMPLE_SEARCHES.find((s) => re.test(s.note))!.path;

t.test('every printed search finds something', async (t) => {
  for (const { note, path } of SAMPLE_SEARCHES) {
    const body = await search(t, path);
    const found = path.startsWith('/v1/suggest') ? body.suggestions.length : body.total;
    t.ok(found > 0, `${note}: ${found} found`);
  }
});

t.test('the Arabic searches find the Arabic demo store products they name', async (t) => {
  const abaya = await search(t, byNote(/عباية سوداء/));
  t.equal(abaya.query.lang, 'ar', 'the query is read as Arabic');
  const top = abaya.hits.slice(0, 2) as Hit[];
  t.ok(
    top.every((hit) => /عباية/.test(hit.product.name.ar) && /سوداء/.test(hit.product.name.ar)),
    `top hits are black abayas: ${top.map((x) => x.product.name.ar).join(' | ')}`,
  );
  const phone = await search(t, byNote(/جوال سامسونج/));
  const first = phone.hits[0] as Hit;
  t.equal(first.product.brand, 'Samsung', `first hit is a Samsung: ${first.product.name.ar}`);
  t.match(first.product.name.ar, /جوال/, 'and a phone');
  t.equal(first.product.currency, 'SAR', 'from the demo store');
});

t.test('the English search finds Flipkart products', async (t) => {
  const body = await search(t, byNote(/English, Flipkart/));
  const inr = (body.hits as Hit[]).filter((hit) => hit.product.currency === 'INR');
  t.ok(inr.length >= 3, `${inr.length} Flipkart hits in the first page`);
  t.ok(
    inr.every((hit) => /running shoes/i.test(hit.product.name.en)),
    'all of them running shoes',
  );
});

t.test('a load stops when its signal aborts (Ctrl-C in npm run demo), so the API can close', async (t) => {
  const other = await h.tenant('Aborted store');
  const abort = new AbortController();
  const load = loadCatalog({
    url: h.api.url,
    key: other.key,
    file: SHIPPED_SAMPLES[0].file,
    kind: SHIPPED_SAMPLES[0].kind,
    batchSize: 100,
    runId: 'abort',
    signal: abort.signal,
    transform: (p, i) => {
      if (i === 500) abort.abort();
      return p;
    },
  });
  await t.rejects(load, { name: 'AbortError' }, 'the load rejects with the abort');
  const [{ n }] = await h.api.deps.db('products').where({ tenant_id: other.id }).count({ n: '*' });
  t.ok(Number(n) <= 500, `nothing read after the abort was sent (${n} stored)`);
});

t.test('a batch that fails while the file is still being read rejects the load instead of crashing the process', async (t) => {
  // Port 1 refuses at once, so batches fail while the reader is between two awaits of the batches in flight.
  const load = loadCatalog({
    url: 'http://127.0.0.1:1',
    key: 'sk_none',
    file: SHIPPED_SAMPLES[0].file,
    kind: SHIPPED_SAMPLES[0].kind,
    batchSize: 10,
    inFlight: 8,
    limit: 200,
  });
  await t.rejects(load, /fetch failed/, 'the failure reaches the caller');
});
