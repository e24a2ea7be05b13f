import { Agent, request } from 'undici';
import { loadGenerator, wrkLoad } from './wrk-load.js';
import type { LoadResult } from './load-result.js';

export type { LoadResult };

/**
 * Closed-loop HTTP load: `concurrency` keep-alive clients for `durationMs`, each sending the next
 * request as soon as one answers. Sent by wrk when it is installed and can send them (GETs, no
 * groups, nothing observed: wrk-load.ts), else by undici here.
 */
export async function httpLoad(opts: {
  origin: string;
  concurrency: number;
  durationMs: number;
  next: (i: number) => { path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string>; group?: string };
  /** Sees every answer's status and headers (e.g. to count cache hits). */
  observe?: (res: { statusCode: number; headers: Record<string, string | string[] | undefined> }, group: string | undefined) => void;
}): Promise<LoadResult> {
  if (!opts.observe && loadGenerator() === 'wrk') {
    const r = await wrkLoad(opts);
    if (r) return r;
  }
  const agent = new Agent({ connections: opts.concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  const byGroup = new Map<string, { latencies: number[]; errors: number }>();
  let errors = 0;
  let counter = 0;
  const end = Date.now() + opts.durationMs;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (Date.now() < end) {
        const r = opts.next(counter++);
        const t0 = performance.now();
        let failed = false;
        try {
          const res = await request(opts.origin + r.path, { method: r.method ?? 'GET', body: r.body, headers: r.headers, dispatcher: agent });
          await res.body.dump();
          failed = res.statusCode >= 400;
          opts.observe?.(res, r.group);
        } catch {
          failed = true;
        }
        if (failed) errors++;
        latencies.push(performance.now() - t0);
        if (r.group !== undefined) {
          const g = byGroup.get(r.group) ?? { latencies: [], errors: 0 };
          g.latencies.push(performance.now() - t0);
          if (failed) g.errors++;
          byGroup.set(r.group, g);
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  const summary = (list: number[], errs: number): LoadResult => {
    list.sort((a, b) => a - b);
    const q = (p: number) => list[Math.min(list.length - 1, Math.floor(p * list.length))] ?? 0;
    return { requests: list.length, errors: errs, rps: list.length / seconds, p50: q(0.5), p99: q(0.99) };
  };
  const out = summary(latencies, errors);
  if (byGroup.size) out.groups = Object.fromEntries([...byGroup].map(([k, g]) => [k, summary(g.latencies, g.errors)]));
  return out;
}

export function formatLoad(label: string, r: LoadResult): string {
  return `${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms   errors ${r.errors}/${r.requests}`;
}
