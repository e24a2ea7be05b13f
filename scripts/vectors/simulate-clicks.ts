import { apiClient, must } from '../client/client.js';
import { mean, ndcgAt } from '../eval/metrics.js';
import { learnEvents } from '../../pipelines/vectors/learn-events.stage.js';
import { evalStore } from './eval-store.js';
import { numberOption, parseCli } from '../lib/cli.js';

/**
 * npm run simulate:clicks: shoppers on the Chorus dev queries. Each session searches a query and
 * looks down the first page, examining position p with probability 1/p (position bias), and
 * clicks an examined product with a probability set by its judged grade (0: 5 %, 1: 25 %,
 * 2: 60 %, 3: 90 %; unjudged as 0). Searches and clicks go through GET /v1/search and
 * POST /v1/events; then the learn-events stage runs, and nDCG@10 is printed before and after.
 *   --sessions N   sessions per query (default 200)     --seed N   random seed (default 1)
 *   --rounds N     learn-events runs N times, after each Nth of the sessions (default 1: once, at
 *                  the end); a live store's schedule runs it every 15 minutes while shoppers search
 */
const USAGE = 'usage: npm run simulate:clicks [-- [--sessions 200] [--seed 1] [--rounds 1]]';
const { values } = parseCli(USAGE, { options: { sessions: { type: 'string' }, seed: { type: 'string' }, rounds: { type: 'string' } } });
const SESSIONS = numberOption(USAGE, 'sessions', values.sessions, { min: 1 }) ?? 200;
const ROUNDS = numberOption(USAGE, 'rounds', values.rounds, { min: 1 }) ?? 1;
const CLICK = [0.05, 0.25, 0.6, 0.9];
let seed = (numberOption(USAGE, 'seed', values.seed, { min: 0 }) ?? 1) >>> 0;
const rnd = () => {
  seed = (seed + 0x6d2b79f5) >>> 0;
  let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

const store = await evalStore('chorus', { vectors: false });
try {
  const api = apiClient(store.app.url, store.key);
  const queries = [...store.judgments].filter(([, j]) => [...j.values()].some((g) => g > 0));
  const pages = new Map<string, string[]>();
  const score = async () => {
    const out = new Map<string, number>();
    for (const [q, judged] of queries) {
      const r = must(q, await api.GET('/v1/search', { params: { query: { q, per_page: 10, lang: 'en' } } }));
      out.set(q, ndcgAt(10, r.ids, judged));
      if (!pages.has(q)) pages.set(q, r.ids);
    }
    return out;
  };
  const before = await score();
  // The most learning from page-1 clicks can give: the first page shown, sorted by judged grade.
  const bound = mean(
    queries.map(([q, judged]) =>
      ndcgAt(
        10,
        [...pages.get(q)!].sort((x, y) => (judged.get(y) ?? 0) - (judged.get(x) ?? 0)),
        judged,
      ),
    ),
  );
  const started = Date.now();
  let clicks = 0;
  const learn = async () => {
    await store.deps.events.flush();
    await store.deps.searchLog.flush();
    const jobId = await store.deps.queues.enqueue(learnEvents, { tenantId: store.tenantId, bucket: Date.now() });
    const queue = store.deps.queues.get('embeddings');
    // The stage runs in this process: while its similar lists block the event loop, a poll can
    // time out (ioredis commandTimeout); that is not the job's end, so poll again.
    const finished = () =>
      queue.getJob(jobId).then(
        (j) => !!j?.finishedOn,
        () => false,
      );
    while (!(await finished())) await new Promise((r) => setTimeout(r, 200));
    // Let the API's statistics reload (signals notice) before the next searches.
    await new Promise((r) => setTimeout(r, 500));
  };
  for (let round = 0; round < ROUNDS; round++) {
    for (const [q, judged] of queries) {
      const events: Array<Record<string, unknown>> = [];
      for (let s = Math.floor((round * SESSIONS) / ROUNDS); s < Math.floor(((round + 1) * SESSIONS) / ROUNDS); s++) {
        const session = `sim-${s}-${q.replace(/[^a-z0-9]/gi, '')}`.slice(0, 64);
        const r = must(q, await api.GET('/v1/search', { params: { query: { q, per_page: 10, lang: 'en', session } } }));
        r.ids.forEach((id, i) => {
          if (rnd() >= 1 / (i + 1)) return;
          if (rnd() >= CLICK[judged.get(id) ?? 0]) return;
          events.push({ type: 'search_click', session, search_id: r.search_id, product_id: id, position: i + 1 });
        });
      }
      for (let i = 0; i < events.length; i += 1000) must('events', await api.POST('/v1/events', { body: { events: events.slice(i, i + 1000) } as never }));
      clicks += events.length;
    }
    await learn();
  }
  process.stderr.write(
    `${queries.length} queries x ${SESSIONS} sessions, ${clicks} clicks, learned in ${ROUNDS} round(s), simulated and learned in ${((Date.now() - started) / 1000).toFixed(0)} s\n`,
  );
  const after = await score();
  process.stdout.write('query                               before   after   delta\n');
  for (const [q] of queries) {
    const d = after.get(q)! - before.get(q)!;
    process.stdout.write(
      `${q.slice(0, 34).padEnd(34)}${before.get(q)!.toFixed(3).padStart(8)}${after.get(q)!.toFixed(3).padStart(8)}${((d >= 0 ? '+' : '') + d.toFixed(3)).padStart(8)}\n`,
    );
  }
  const deltas = queries.map(([q]) => after.get(q)! - before.get(q)!);
  process.stdout.write(
    `nDCG@10 before ${mean([...before.values()]).toFixed(4)} after ${mean([...after.values()]).toFixed(4)} (delta ${mean(deltas) >= 0 ? '+' : ''}${mean(deltas).toFixed(4)}); worst query ${Math.min(...deltas).toFixed(3)}; ${queries.length} queries, ${SESSIONS} sessions each, learned in ${ROUNDS} round(s); page 1 sorted by grade (the bound of reordering what is shown) ${bound.toFixed(4)}\n`,
  );
  await store.ranking({ click_learning: false });
  const off = await score();
  process.stdout.write(`click_learning off again: nDCG@10 ${mean([...off.values()]).toFixed(4)}\n`);
} finally {
  await store.stop();
}
