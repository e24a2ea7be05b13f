import type { Deps } from '../../shared/deps.js';
import { normalizeText, tokenize } from '../../shared/text/normalize.js';
import { formatLoad, httpLoad, type LoadResult } from './http-load.js';

interface Ctx {
  deps: Deps;
  tenantId: string;
  key: string;
  /** Cached API and the API with the result cache off. */
  origin: string;
  nocache: string;
  /** URL-encoded queries (with their filter parameters) of the search bench. */
  mix: string[];
  seconds: number;
}

const SESSIONS = 500;

/**
 * 200 enabled rules as a store might have them: 50 whose patterns meet the bench's own queries
 * (`is` on a query, `contains` on one of its words, some with a time window) with banners, pins,
 * hides, boosts and buries, and 150 on other words; plus 5 disabled rules the experiment's second
 * variant switches on.
 */
async function makeRules(c: Ctx): Promise<unknown[]> {
  const sample = await c.deps.engine.search({ tenantId: c.tenantId, tokens: [], offset: 0, limit: 60, facets: ['brand'] });
  const ids = sample.hits.map((h) => h.id);
  const brands = ((sample.facets.brand as Array<{ value: string }>) ?? []).map((b) => b.value);
  const queries = [...new Set(c.mix.map((m) => decodeURIComponent(m.split('&')[0])))];
  const words = [...new Set(queries.flatMap((q) => tokenize(normalizeText(q))).filter((w) => w.length > 3))];
  const day = 86_400_000;
  const consequence = (i: number) => [
    { banners: [{ html: `<b>Offer ${i}</b>`, link_url: `https://shop.example/o/${i}` }] },
    { pins: [{ product_id: ids[i % ids.length], position: 1 }, { product_id: ids[(i + 7) % ids.length], position: 3 }] },
    { hides: [ids[(i + 3) % ids.length], ids[(i + 11) % ids.length]] },
    { boosts: [{ filters: { brand: [brands[i % brands.length]] }, weight: 2 }] },
    { buries: [{ filters: { in_stock: false }, weight: 3 }], banners: [{ image_url: `https://cdn.example/${i}.png` }] },
  ][i % 5];
  const rules: unknown[] = [];
  for (let i = 0; i < 200; i++) {
    const pattern = i < 25 ? { match: 'is', text: queries[i % queries.length] }
      : i < 50 ? { match: 'contains', text: words[i % words.length] }
        : { match: i % 2 ? 'starts_with' : 'contains', text: `campaign${i} promo` };
    const windowed = i % 4 === 0 ? { active_from: new Date(Date.now() - day).toISOString(), active_until: new Date(Date.now() + day).toISOString() } : {};
    rules.push({ id: `bench-${i}`, name: `bench ${i}`, priority: i % 3, conditions: { patterns: [pattern], ...windowed }, consequences: consequence(i) });
  }
  for (let i = 0; i < 5; i++) rules.push({ id: `bench-off-${i}`, name: `variant ${i}`, enabled: false, conditions: { patterns: [{ match: 'contains', text: words[i] }] }, consequences: consequence(i) });
  return rules;
}

async function api(c: Ctx, method: string, path: string, body?: unknown) {
  const res = await fetch(c.origin + path, { method, headers: { authorization: `Bearer ${c.key}`, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

/** Cached (after warming every variant's answers) and uncached search at c=32, every request with a shopper session. */
async function measure(c: Ctx): Promise<{ cached: LoadResult; uncached: LoadResult }> {
  const auth = { authorization: `Bearer ${c.key}` };
  const path = (i: number) => `/v1/search?q=${c.mix[i % c.mix.length]}&session=s${Math.floor(i / c.mix.length) % SESSIONS}`;
  await httpLoad({ origin: c.origin, concurrency: 8, durationMs: 6000, next: (i) => ({ path: path(i), headers: auth }) });
  const ms = c.seconds * 1000;
  const cached = await httpLoad({ origin: c.origin, concurrency: 32, durationMs: ms, next: (i) => ({ path: path(i), headers: auth }) });
  const uncached = await httpLoad({ origin: c.nocache, concurrency: 32, durationMs: ms, next: (i) => ({ path: path(i), headers: auth }) });
  return { cached, uncached };
}

/** What the rules did to the query mix (debug traces of one pass): so the comparison is known to exercise them. */
async function coverage(c: Ctx): Promise<string> {
  let matched = 0;
  let pinned = 0;
  let inExperiment = 0;
  let compiled = 0;
  for (let i = 0; i < c.mix.length; i++) {
    const body = await api(c, 'GET', `/v1/search?q=${c.mix[i]}&session=s${i}&debug=true`);
    const step = body.debug.steps.find((s: { step: string }) => s.step === 'merchandise-rules');
    compiled = step.rules;
    if (step.matched.some((m: { applied: boolean }) => m.applied)) matched++;
    if (body.hits.some((h: { pinned: boolean }) => h.pinned)) pinned++;
    if (body.experiment) inExperiment++;
  }
  return `check: ${compiled} rules compiled; of ${c.mix.length} queries ${matched} had a rule applied, ${pinned} showed pins, ${inExperiment} were in the experiment`;
}

const mean = (rs: LoadResult[]): LoadResult => ({
  requests: rs.reduce((a, r) => a + r.requests, 0), errors: rs.reduce((a, r) => a + r.errors, 0),
  rps: rs.reduce((a, r) => a + r.rps, 0) / rs.length, p50: rs.reduce((a, r) => a + r.p50, 0) / rs.length, p99: rs.reduce((a, r) => a + r.p99, 0) / rs.length,
});
const pct = (a: number, b: number) => `${(((b - a) / a) * 100).toFixed(1)} %`;

/**
 * BENCH_MERCH=1: the same search load without and with 200 active rules and a running experiment,
 * alternated twice (plain, merch, plain, merch) in one run so drift on the shared machine falls on
 * both sides; the rules go in and out with one import each, the experiment is started and stopped.
 */
export async function merchComparison(c: Ctx): Promise<string[]> {
  const rules = await makeRules(c);
  const exp = await api(c, 'POST', '/v1/experiments', {
    name: 'bench', variants: [{ key: 'control', traffic_percent: 50 }, { key: 'b', traffic_percent: 50, rule_ids: rules.slice(200).map((r) => (r as { id: string }).id) }],
  }).catch(() => null);
  let check = '';
  const plain: Array<{ cached: LoadResult; uncached: LoadResult }> = [];
  const merch: Array<{ cached: LoadResult; uncached: LoadResult }> = [];
  for (let round = 0; round < 2; round++) {
    await api(c, 'POST', '/v1/rules/import', { mode: 'replace', rules: [] });
    plain.push(await measure(c));
    await api(c, 'POST', '/v1/rules/import', { mode: 'replace', rules });
    if (exp) await api(c, 'POST', `/v1/experiments/${exp.id}/start`);
    if (round === 0) check = await coverage(c);
    merch.push(await measure(c));
    if (exp) await api(c, 'POST', `/v1/experiments/${exp.id}/stop`);
  }
  const [pc, mc, pu, mu] = [mean(plain.map((r) => r.cached)), mean(merch.map((r) => r.cached)), mean(plain.map((r) => r.uncached)), mean(merch.map((r) => r.uncached))];
  return [
    `merchandising comparison (c=32, ${c.seconds} s per run, mean of 2 alternated runs each; every request with a session, ${SESSIONS} sessions):`,
    formatLoad('search cached, no rules', pc), formatLoad('search cached, 200 rules + experiment', mc),
    formatLoad('search uncached, no rules', pu), formatLoad('search uncached, 200 rules + exp.', mu),
    check,
    `change with rules: cached req/s ${pct(pc.rps, mc.rps)}, p50 ${pct(pc.p50, mc.p50)}, p99 ${pct(pc.p99, mc.p99)}; uncached req/s ${pct(pu.rps, mu.rps)}, p50 ${pct(pu.p50, mu.p50)}, p99 ${pct(pu.p99, mu.p99)}`,
    ...plain.map((r, i) => `  round ${i + 1}: plain cached ${r.cached.rps.toFixed(0)} req/s, uncached ${r.uncached.rps.toFixed(0)}; merch cached ${merch[i].cached.rps.toFixed(0)}, uncached ${merch[i].uncached.rps.toFixed(0)}`),
  ];
}
