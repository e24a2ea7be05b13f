import type { Deps } from '../../shared/deps.js';
import { normalizeText, tokenize } from '../../shared/text/normalize.js';
import { assignVariant } from '../../shared/experiments/index.js';
import { formatLoad, httpLoad, type LoadResult } from './http-load.js';

interface Store {
  tenantId: string;
  key: string;
}

interface Ctx {
  deps: Deps;
  /** Two stores with the same catalog: `merch` gets the rules and the experiment, `plain` nothing. */
  plain: Store;
  merch: Store;
  /** Cached API and the API with the result cache off. */
  origin: string;
  nocache: string;
  /** URL-encoded queries (with their filter parameters) of the search bench. */
  mix: string[];
  seconds: number;
}

const SESSIONS = 500;
const ROUNDS = 5;

/**
 * 200 enabled rules as a store might have them: 50 whose patterns meet the bench's own queries
 * (`is` on a query, `contains` on one of its words, every fourth with a time window) with banners,
 * pins, hides, boosts and buries, and 150 on other words; plus 5 disabled rules the experiment's
 * second variant switches on.
 */
async function makeRules(c: Ctx): Promise<Array<Record<string, unknown>>> {
  const sample = await c.deps.engine.search({ tenantId: c.merch.tenantId, tokens: [], offset: 0, limit: 60, facets: ['brand'] });
  const ids = sample.hits.map((h) => h.id);
  const brands = ((sample.facets.brand as Array<{ value: string }>) ?? []).map((b) => b.value);
  const queries = [...new Set(c.mix.map((m) => decodeURIComponent(m.split('&')[0])))];
  const words = [...new Set(queries.flatMap((q) => tokenize(normalizeText(q))).filter((w) => w.length > 3))];
  const day = 86_400_000;
  const consequence = (i: number) =>
    [
      { banners: [{ html: `<b>Offer ${i}</b>`, link_url: `https://shop.example/o/${i}` }] },
      {
        pins: [
          { product_id: ids[i % ids.length], position: 1 },
          { product_id: ids[(i + 7) % ids.length], position: 3 },
        ],
      },
      { hides: [ids[(i + 3) % ids.length], ids[(i + 11) % ids.length]] },
      { boosts: [{ filters: { brand: [brands[i % brands.length]] }, weight: 2 }] },
      { buries: [{ filters: { in_stock: false }, weight: 3 }], banners: [{ image_url: `https://cdn.example/${i}.png` }] },
    ][i % 5];
  const rules: Array<Record<string, unknown>> = [];
  for (let i = 0; i < 200; i++) {
    const pattern =
      i < 25
        ? { match: 'is', text: queries[i % queries.length] }
        : i < 50
          ? { match: 'contains', text: words[i % words.length] }
          : { match: i % 2 ? 'starts_with' : 'contains', text: `campaign${i} promo` };
    const windowed = i % 4 === 0 ? { active_from: new Date(Date.now() - day).toISOString(), active_until: new Date(Date.now() + day).toISOString() } : {};
    rules.push({ id: `bench-${i}`, name: `bench ${i}`, priority: i % 3, conditions: { patterns: [pattern], ...windowed }, consequences: consequence(i) });
  }
  for (let i = 0; i < 5; i++)
    rules.push({
      id: `bench-off-${i}`,
      name: `variant ${i}`,
      enabled: false,
      conditions: { patterns: [{ match: 'contains', text: words[i] }] },
      consequences: consequence(i),
    });
  return rules;
}

async function api(c: Ctx, key: string, method: string, path: string, body?: unknown) {
  const res = await fetch(c.origin + path, {
    method,
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
  return res.json() as Promise<any>;
}

/** What the rules did to the query mix (debug traces of one pass): so the comparison is known to exercise them. */
async function coverage(c: Ctx): Promise<string> {
  let matched = 0;
  let pinned = 0;
  let inExperiment = 0;
  let compiled = 0;
  for (let i = 0; i < c.mix.length; i++) {
    const body = await api(c, c.merch.key, 'GET', `/v1/search?q=${c.mix[i]}&session=s${i}&debug=true`);
    const step = body.debug.steps.find((s: { step: string }) => s.step === 'merchandise-rules');
    compiled = step.rules;
    if (step.matched.some((m: { applied: boolean }) => m.applied)) matched++;
    if (body.hits.some((h: { pinned: boolean }) => h.pinned)) pinned++;
    if (body.experiment) inExperiment++;
  }
  return `check: ${compiled} rules compiled; of ${c.mix.length} queries ${matched} had a rule applied, ${pinned} showed pins, ${inExperiment} were in the experiment`;
}

/**
 * Every answer the cached runs will ask for, once (each query in the plain store; each query in
 * each variant in the merch store: the variant, not the session, is in the cache key), and each
 * query once on the uncached API (tenant state loaded, code warm): so the runs measure steady state.
 */
async function warm(c: Ctx, exp: { id: string; variants: Array<{ key: string; traffic_percent: number }> }) {
  const sessionOf = new Map<string, string>();
  for (let i = 0; sessionOf.size < exp.variants.length; i++) {
    const v = assignVariant(exp.id, `s${i}`, exp.variants).key;
    if (!sessionOf.has(v)) sessionOf.set(v, `s${i}`);
  }
  for (const q of c.mix) {
    await api(c, c.plain.key, 'GET', `/v1/search?q=${q}&session=s0`);
    for (const session of sessionOf.values()) await api(c, c.merch.key, 'GET', `/v1/search?q=${q}&session=${session}`);
    for (const store of [c.plain, c.merch])
      await fetch(`${c.nocache}/v1/search?q=${q}&session=s0`, { headers: { authorization: `Bearer ${store.key}` } }).then((r) => r.arrayBuffer());
  }
}

/** Requests alternate between the two stores, so both see the same machine at the same moments. */
function interleaved(c: Ctx) {
  return (i: number) => {
    const store = i % 2 ? c.merch : c.plain;
    const n = i >> 1;
    return {
      path: `/v1/search?q=${c.mix[n % c.mix.length]}&session=s${Math.floor(n / c.mix.length) % SESSIONS}`,
      headers: { authorization: `Bearer ${store.key}` },
      group: i % 2 ? 'merch' : 'plain',
    };
  };
}

const median = (rs: LoadResult[], f: (r: LoadResult) => number) => [...rs.map(f)].sort((a, b) => a - b)[Math.floor(rs.length / 2)];
const pct = (a: number, b: number) => `${b >= a ? '+' : ''}${(((b - a) / a) * 100).toFixed(1)} %`;

/**
 * BENCH_MERCH=1: search at c=32 on two stores with the same 100k catalog, one with 200 active rules
 * and a running experiment, one without, requests alternating between them within each run (the
 * shared machine's load falls on both alike); cached (after warming every variant's answers) and
 * uncached, ROUNDS runs each, medians compared.
 */
export async function merchComparison(c: Ctx): Promise<string[]> {
  const rules = await makeRules(c);
  await api(c, c.merch.key, 'POST', '/v1/rules/import', { mode: 'replace', rules });
  const exp = await api(c, c.merch.key, 'POST', '/v1/experiments', {
    name: 'bench',
    variants: [
      { key: 'control', traffic_percent: 50 },
      { key: 'b', traffic_percent: 50, rule_ids: rules.slice(200).map((r) => r.id) },
    ],
  });
  await api(c, c.merch.key, 'POST', `/v1/experiments/${exp.id}/start`);
  const check = await coverage(c);
  const next = interleaved(c);
  await warm(c, exp);
  const cached: LoadResult[] = [];
  const uncached: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    cached.push(await httpLoad({ origin: c.origin, concurrency: 32, durationMs: c.seconds * 1000, next }));
    uncached.push(await httpLoad({ origin: c.nocache, concurrency: 32, durationMs: c.seconds * 1000, next }));
  }
  const lines = [
    `merchandising comparison: two stores, same catalog; requests alternate between them (c=32, ${c.seconds} s per run, ${ROUNDS} runs, medians; a session on every request, ${SESSIONS} sessions)`,
    check,
  ];
  for (const [label, runs] of [
    ['cached', cached],
    ['uncached', uncached],
  ] as const) {
    const side = (g: string) => runs.map((r) => r.groups![g]);
    const [p, m] = [side('plain'), side('merch')];
    const row = (name: string, rs: LoadResult[]) =>
      formatLoad(`${label}, ${name}`, {
        requests: rs.reduce((a, r) => a + r.requests, 0),
        errors: rs.reduce((a, r) => a + r.errors, 0),
        rps: median(rs, (r) => r.rps),
        p50: median(rs, (r) => r.p50),
        p99: median(rs, (r) => r.p99),
      });
    // Requests alternate between the stores, so their req/s are equal by construction: latency is the comparison.
    lines.push(row('no rules', p), row('200 rules + experiment', m));
    lines.push(
      `  ${label} with rules: req/s ${pct(
        median(p, (r) => r.rps),
        median(m, (r) => r.rps),
      )}, p50 ${pct(
        median(p, (r) => r.p50),
        median(m, (r) => r.p50),
      )}, p99 ${pct(
        median(p, (r) => r.p99),
        median(m, (r) => r.p99),
      )}` +
        `; per run p50 plain/merch ${p.map((r, i) => `${r.p50.toFixed(1)}/${m[i].p50.toFixed(1)}`).join(', ')} ms` +
        `; p99 ${p.map((r, i) => `${r.p99.toFixed(0)}/${m[i].p99.toFixed(0)}`).join(', ')} ms`,
    );
  }
  return lines;
}
