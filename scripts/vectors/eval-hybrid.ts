import { apiClient, must } from '../client/client.js';
import { mean, ndcgAt } from '../eval/metrics.js';
import { evalStore } from './eval-store.js';
import { numberOption, parseCli, usageError } from '../lib/cli.js';

/**
 * npm run eval:hybrid: each judged dev collection (raw) with hybrid search off and on, side by
 * side on the same store in the same run: nDCG@10 per query and mean, and the zero-result
 * queries of each. With --similar N, also N Chorus products and their five `similar` results.
 *   --collection chorus|crowdflower   only one collection
 */
const USAGE = 'usage: npm run eval:hybrid [-- [--collection chorus|crowdflower] [--similar N]]';
const { values } = parseCli(USAGE, { options: { collection: { type: 'string' }, similar: { type: 'string' } } });
if (values.collection && !['chorus', 'crowdflower'].includes(values.collection))
  usageError(USAGE, `--collection must be chorus or crowdflower (got ${values.collection})`);
numberOption(USAGE, 'similar', values.similar, { min: 0 });
const names = values.collection ? [values.collection as 'chorus' | 'crowdflower'] : (['chorus', 'crowdflower'] as const);

for (const name of names) {
  const store = await evalStore(name);
  try {
    const api = apiClient(store.app.url, store.key);
    const run = async (hybrid: boolean) => {
      await store.ranking({ hybrid_search: hybrid });
      const out = new Map<string, { ndcg: number; total: number }>();
      for (const [query, judged] of store.judgments) {
        if (![...judged.values()].some((g) => g > 0)) continue;
        const r = must(`search ${query}`, await api.GET('/v1/search', { params: { query: { q: query, per_page: 10, lang: 'en' } } }));
        out.set(query, { ndcg: ndcgAt(10, r.ids, judged), total: r.total });
      }
      return out;
    };
    const off = await run(false);
    const on = await run(true);
    process.stdout.write(`\n[${name}] query                           off      on   delta  total off/on\n`);
    for (const q of [...off.keys()].sort()) {
      const a = off.get(q)!;
      const b = on.get(q)!;
      const d = b.ndcg - a.ndcg;
      process.stdout.write(
        `${q.slice(0, 34).padEnd(34)}${a.ndcg.toFixed(3).padStart(8)}${b.ndcg.toFixed(3).padStart(8)}${(d >= 0 ? '+' : '') + d.toFixed(3).padStart(7)}  ${a.total}/${b.total}\n`,
      );
    }
    const m = (x: Map<string, { ndcg: number }>) => mean([...x.values()].map((v) => v.ndcg));
    const zero = (x: Map<string, { total: number }>) => [...x].filter(([, v]) => v.total === 0).map(([q]) => q);
    process.stdout.write(`[${name}] nDCG@10 hybrid off ${m(off).toFixed(4)}  on ${m(on).toFixed(4)}  (${off.size} queries)\n`);
    process.stdout.write(`[${name}] zero-result queries off ${zero(off).length} [${zero(off).join(', ')}]  on ${zero(on).length} [${zero(on).join(', ')}]\n`);
    if (name === 'chorus' && values.similar) {
      const n = Number(values.similar);
      const step = Math.floor(store.products.length / n);
      for (let i = 0; i < n; i++) {
        const p = store.products[i * step];
        const r = must('recommend', await api.GET('/v1/recommend', { params: { query: { type: 'similar', product_id: p.id, limit: 5 } } }));
        process.stdout.write(
          `\n${p.id} ${Object.values(p.name)[0]}  (source ${r.source})\n${r.products.map((c) => `   ${c.id} ${Object.values(c.name)[0]}`).join('\n')}\n`,
        );
      }
    }
  } finally {
    await store.stop();
  }
}
