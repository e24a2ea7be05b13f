import { evalStore } from './eval-store.js';

/** Times the pieces of a `similar` / `also_viewed` miss on the raw Chorus store, in process (a profiling aid, not a bench). */
const store = await evalStore('chorus');
try {
  const deps = store.deps;
  const ids = store.products.map((p) => String(p.id));
  const time = async (label: string, n: number, fn: (i: number) => Promise<unknown>) => {
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await fn(i);
    process.stdout.write(`${label.padEnd(40)} ${((performance.now() - t0) / n).toFixed(3)} ms\n`);
  };
  const pick = (i: number) => ids[(i * 7919 + 13) % ids.length];
  await deps.vectors.nearest(store.tenantId, (await deps.vectors.vectorsOf(store.tenantId, [ids[0]])).get(ids[0])!, 11);
  await time('vectorsOf', 300, (i) => deps.vectors.vectorsOf(store.tenantId, [pick(i)]));
  const v = (await deps.vectors.vectorsOf(store.tenantId, [ids[1]])).get(ids[1])!;
  await time('nearest 24', 300, () => deps.vectors.nearest(store.tenantId, v, 24, { exclude: [ids[1]] }));
  await time('engine cards by id (10, lean)', 200, (i) =>
    deps.engine.search({ tenantId: store.tenantId, tokens: [], ids: ids.slice(i * 10, i * 10 + 10), offset: 0, limit: 10, noTextRank: true }),
  );
  await time('engine cards by id (10, full)', 200, (i) =>
    deps.engine.search({ tenantId: store.tenantId, tokens: [], ids: ids.slice(5000 + i * 10, 5000 + i * 10 + 10), offset: 0, limit: 10 }),
  );
  await time('recommend similar (miss)', 300, (i) =>
    deps.recommender.recommend(store.tenantId, { type: 'similar', productId: pick(i + 1000), categoryId: null, session: null, limit: 10 }),
  );
  await time('recommend similar (held)', 300, (i) =>
    deps.recommender.recommend(store.tenantId, { type: 'similar', productId: pick(i + 1000), categoryId: null, session: null, limit: 10 }),
  );
  await time('recommend trending', 300, () =>
    deps.recommender.recommend(store.tenantId, { type: 'trending', productId: null, categoryId: null, session: null, limit: 10 }),
  );
} finally {
  await store.stop();
}
