import t from 'tap';
import { setup } from '../helpers/harness.js';
import { newId } from '../../shared/platform/ids.js';

const h = await setup();
t.teardown(() => h.close());
const { id: tenantId, key } = await h.tenant();
const call = (method: string, path: string, body?: unknown) => h.api.call(method, path, { key, body });

/** Independent of the service's code: Φ by Simpson's rule on the normal density (not an erf approximation). */
function phi(z: number): number {
  const a = Math.abs(z);
  const n = 2000;
  const step = a / n;
  const f = (x: number) => Math.exp((-x * x) / 2) / Math.sqrt(2 * Math.PI);
  let s = f(0) + f(a);
  for (let i = 1; i < n; i++) s += f(i * step) * (i % 2 ? 4 : 2);
  const half = (s * step) / 3;
  return z >= 0 ? 0.5 + half : 0.5 - half;
}
function zTest(x1: number, n1: number, x2: number, n2: number) {
  const p1 = x1 / n1;
  const p2 = x2 / n2;
  const p = (x1 + x2) / (n1 + n2);
  const z = (p2 - p1) / Math.sqrt(p * (1 - p) * (1 / n1 + 1 / n2));
  const se = Math.sqrt((p1 * (1 - p1)) / n1 + (p2 * (1 - p2)) / n2);
  return { z, p: 2 * (1 - phi(Math.abs(z))), low: p2 - p1 - 1.959964 * se, high: p2 - p1 + 1.959964 * se };
}
function bh(ps: number[]): number[] {
  const m = ps.length;
  return ps.map((p) => {
    // min over every q >= p of q * m / rank(q)
    const sorted = [...ps].sort((a, b) => a - b);
    let best = 1;
    sorted.forEach((q, i) => {
      if (q >= p) best = Math.min(best, (q * m) / (i + 1));
    });
    return Math.min(1, best);
  });
}

/** Synthetic traffic: `n` searches of a variant, the first `clicks` clicked, the first `carts` carted, the first `buys` bought for `value` each. */
async function traffic(experimentId: string, variant: string, n: number, clicks: number, carts: number, buys: number, value = 10) {
  const logs = [];
  const events: Array<Record<string, unknown>> = [];
  for (let i = 0; i < n; i++) {
    const id = newId('srch');
    const session = `${variant}-${i}`;
    logs.push({
      id,
      tenant_id: tenantId,
      session,
      query: 'q',
      normalized: 'q',
      lang: 'en',
      filters: {},
      sort: 'relevance',
      total: 5,
      page: 1,
      took_ms: 1,
      zero_result: false,
      experiment_id: experimentId,
      variant,
    });
    const ev = (type: string, extra: Record<string, unknown> = {}) =>
      events.push({
        id: newId('evt'),
        tenant_id: tenantId,
        client_event_id: null,
        type,
        session,
        search_id: id,
        product_id: 'p',
        position: 1,
        quantity: 1,
        value: null,
        currency: null,
        occurred_at: new Date().toISOString(),
        ...extra,
      });
    if (i < clicks) {
      ev('search_click');
      ev('search_click');
    }
    if (i < carts) ev('add_to_cart', { value: 5, currency: 'USD' });
    if (i < buys) ev('purchase', { value, currency: 'USD' });
  }
  await h.api.deps.repos.searchLog.insertMany(logs);
  for (let i = 0; i < events.length; i += 1000) await h.api.deps.repos.events.insertMany(events.slice(i, i + 1000) as never);
}

t.test('two variants: rates, z-test and CI match an independent computation; a winner only past the minimum sample', async (t) => {
  const exp = (
    await call('POST', '/v1/experiments', {
      name: 'two',
      min_sample: 2000,
      variants: [
        { key: 'control', traffic_percent: 50 },
        { key: 'b', traffic_percent: 50 },
      ],
    })
  ).body;
  await traffic(exp.id, 'control', 1500, 150, 45, 15);
  await traffic(exp.id, 'b', 1500, 195, 60, 36, 12);
  let res = (await call('GET', `/v1/experiments/${exp.id}/results`)).body;
  t.equal(res.decision, 'insufficient_sample');
  t.equal(res.winner, null, 'below min_sample no winner is declared');
  const [c, b] = res.variants;
  t.match(c, { key: 'control', control: true, searches: 1500, clicks: 150, add_to_carts: 45, purchases: 15, revenue: 150, vs_control: null });
  t.match(b, { key: 'b', searches: 1500, clicks: 195, purchases: 36, revenue: 432 });
  t.equal(b.ctr, 195 / 1500);
  t.equal(b.revenue_per_search, 432 / 1500);
  for (const [metric, x1, x2] of [
    ['ctr', 150, 195],
    ['add_to_cart_rate', 45, 60],
    ['conversion_rate', 15, 36],
  ] as const) {
    const want = zTest(x1, 1500, x2, 1500);
    const got = b.vs_control[metric];
    t.ok(Math.abs(got.z - want.z) < 1e-9, `${metric} z ${got.z}`);
    t.ok(Math.abs(got.p_value - want.p) < 1e-6, `${metric} p ${got.p_value} vs ${want.p}`);
    t.ok(Math.abs(got.ci_low - want.low) < 1e-6 && Math.abs(got.ci_high - want.high) < 1e-6, `${metric} CI`);
    t.equal(got.p_adjusted, got.p_value, 'two variants: no correction');
  }
  t.equal(res.correction, 'none');
  await traffic(exp.id, 'control', 600, 60, 18, 6);
  await traffic(exp.id, 'b', 600, 78, 24, 14, 12);
  const again = await call('GET', `/v1/experiments/${exp.id}/results`);
  t.equal(again.status, 200, JSON.stringify(again.body).slice(0, 300));
  res = again.body;
  t.equal(res.variants[1].searches, 2100);
  const want = zTest(21, 2100, 50, 2100);
  t.ok(want.p < 0.05, 'the synthetic difference is significant');
  t.equal(res.decision, 'winner');
  t.equal(res.winner, 'b');
});

t.test('three variants: Benjamini-Hochberg over the comparisons; no significant difference, no winner', async (t) => {
  const exp = (
    await call('POST', '/v1/experiments', {
      name: 'three',
      min_sample: 100,
      primary_metric: 'ctr',
      variants: [
        { key: 'a', traffic_percent: 34 },
        { key: 'b', traffic_percent: 33 },
        { key: 'c', traffic_percent: 33 },
      ],
    })
  ).body;
  await traffic(exp.id, 'a', 1000, 100, 0, 0);
  await traffic(exp.id, 'b', 1000, 128, 0, 0);
  await traffic(exp.id, 'c', 1000, 104, 0, 0);
  const res = (await call('GET', `/v1/experiments/${exp.id}/results`)).body;
  t.equal(res.correction, 'benjamini_hochberg');
  const raw = [zTest(100, 1000, 128, 1000).p, zTest(100, 1000, 104, 1000).p];
  const adjusted = bh(raw);
  const [, b, c] = res.variants;
  t.ok(Math.abs(b.vs_control.ctr.p_value - raw[0]) < 1e-6);
  t.ok(Math.abs(b.vs_control.ctr.p_adjusted - adjusted[0]) < 1e-6, `b adjusted ${b.vs_control.ctr.p_adjusted} vs ${adjusted[0]}`);
  t.ok(Math.abs(c.vs_control.ctr.p_adjusted - adjusted[1]) < 1e-6);
  t.ok(raw[0] < 0.05 && adjusted[0] >= 0.05, 'significant alone, not after the correction');
  t.equal(b.vs_control.ctr.significant, false);
  t.equal(res.decision, 'no_significant_difference');
  t.equal(res.winner, null);
  t.equal((await call('GET', '/v1/experiments/exp_nope/results')).status, 404);
});
