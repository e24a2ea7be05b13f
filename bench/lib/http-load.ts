import { Agent, request } from 'undici';

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p99: number;
}

/** Closed-loop HTTP load: `concurrency` keep-alive clients for `durationMs`, each sending the next request as soon as one answers. */
export async function httpLoad(opts: {
  origin: string;
  concurrency: number;
  durationMs: number;
  next: (i: number) => { path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string> };
}): Promise<LoadResult> {
  const agent = new Agent({ connections: opts.concurrency, pipelining: 1, keepAliveTimeout: 30_000 });
  const latencies: number[] = [];
  let errors = 0;
  let counter = 0;
  const end = Date.now() + opts.durationMs;
  const started = performance.now();
  await Promise.all(Array.from({ length: opts.concurrency }, async () => {
    while (Date.now() < end) {
      const r = opts.next(counter++);
      const t0 = performance.now();
      try {
        const res = await request(opts.origin + r.path, { method: r.method ?? 'GET', body: r.body, headers: r.headers, dispatcher: agent });
        await res.body.dump();
        if (res.statusCode >= 400) errors++;
      } catch {
        errors++;
      }
      latencies.push(performance.now() - t0);
    }
  }));
  const seconds = (performance.now() - started) / 1000;
  await agent.close();
  latencies.sort((a, b) => a - b);
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))] ?? 0;
  return { requests: latencies.length, errors, rps: latencies.length / seconds, p50: q(0.5), p99: q(0.99) };
}

export function formatLoad(label: string, r: LoadResult): string {
  return `${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)} req/s   p50 ${r.p50.toFixed(2).padStart(7)} ms   p99 ${r.p99.toFixed(2).padStart(7)} ms   errors ${r.errors}/${r.requests}`;
}
