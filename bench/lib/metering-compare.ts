import { formatLoad, httpLoad, type LoadResult } from './http-load.js';

/**
 * BENCH_METERING=1: cache-warm search (the cheapest pipeline, so metering's share is largest)
 * against two API processes on the same database and Redis, one with usage metering and quota
 * checks on, one with USAGE_METERING=off. Each run loads both at once (the same concurrency each),
 * so whatever else the machine does falls on both alike; the figure is the median of the per-run
 * ratios. Prints every run.
 */
export async function meteringComparison(opts: {
  on: string;
  off: string;
  key: string;
  mix: string[];
  seconds: number;
  runs?: number;
  concurrency?: number;
}): Promise<string[]> {
  const runs = opts.runs ?? 5;
  const c = opts.concurrency ?? 8;
  const headers = { authorization: `Bearer ${opts.key}` };
  const load = (origin: string, durationMs: number) =>
    httpLoad({ origin, concurrency: c, durationMs, next: (i) => ({ path: `/v1/search?q=${opts.mix[i % opts.mix.length]}`, headers }) });
  // Each process warms its own result cache, the same way (the first API was warmed before too).
  await load(opts.off, 8000);
  await Promise.all([load(opts.on, 4000), load(opts.off, 4000)]);
  const lines: string[] = [];
  const ratios: number[] = [];
  const on: LoadResult[] = [];
  const off: LoadResult[] = [];
  for (let r = 0; r < runs; r++) {
    const [a, b] = await Promise.all([load(opts.on, opts.seconds * 1000), load(opts.off, opts.seconds * 1000)]);
    on.push(a);
    off.push(b);
    ratios.push(a.rps / b.rps);
    lines.push(formatLoad(`run ${r + 1} metering on  c=${c}`, a), formatLoad(`run ${r + 1} metering off c=${c}`, b));
  }
  const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  lines.push(
    `per-run on/off throughput: ${ratios.map((x) => x.toFixed(3)).join(', ')}; median ${median(ratios).toFixed(3)} (metering on ${((1 - median(ratios)) * 100).toFixed(1)} % below off; target <= 5 %)`,
  );
  lines.push(
    `median searches/s on ${median(on.map((x) => x.rps)).toFixed(0)}, off ${median(off.map((x) => x.rps)).toFixed(0)}; median p50 ms on ${median(on.map((x) => x.p50)).toFixed(2)}, off ${median(off.map((x) => x.p50)).toFixed(2)}; median p99 ms on ${median(on.map((x) => x.p99)).toFixed(2)}, off ${median(off.map((x) => x.p99)).toFixed(2)}`,
  );
  return lines;
}
