import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LoadResult } from './load-result.js';

const WRK = '/usr/bin/wrk';
/** Distinct requests prepared for wrk (cycled when it sends more): enough that a recommendation bench's products rarely repeat. */
const PREPARED = 40_000;

/**
 * The load generator the HTTP benches use: wrk (a C load generator, Debian's `wrk` package) when
 * installed, else undici in the bench's own process. On this 2-core machine the generator shares
 * the cores with the service: undici spent 150-210 µs of CPU per request (more than the API's own
 * 165-290 µs), wrk about 40, so with undici a third or more of the machine measured the generator.
 * BENCH_LOADGEN=undici|wrk chooses.
 */
export function loadGenerator(): 'wrk' | 'undici' {
  const asked = process.env.BENCH_LOADGEN;
  if (asked === 'undici' || asked === 'wrk') return asked;
  return existsSync(WRK) ? 'wrk' : 'undici';
}

type Req = { path: string; method?: 'GET' | 'POST'; body?: string; headers?: Record<string, string>; group?: string };

/**
 * The same closed loop as httpLoad (`concurrency` keep-alive connections, each sending its next
 * request when one answers) run by wrk with one thread, over PREPARED requests made by `next`.
 * Null when wrk cannot send them as given (a POST, a body, a group, text that is not ASCII).
 */
export async function wrkLoad(opts: { origin: string; concurrency: number; durationMs: number; next: (i: number) => Req }): Promise<LoadResult | null> {
  const reqs: Req[] = [];
  for (let i = 0; i < PREPARED; i++) {
    const r = opts.next(i);
    if ((r.method ?? 'GET') !== 'GET' || r.body !== undefined || r.group !== undefined) return null;
    reqs.push(r);
  }
  const ascii = (s: string) => /^[\x20-\x7e]*$/.test(s);
  const headerSets = new Map<string, number>();
  const lines = ['local H = {}', 'local R = {}'];
  for (const r of reqs) {
    const h = JSON.stringify(r.headers ?? {});
    if (!ascii(r.path) || !ascii(h)) return null;
    if (!headerSets.has(h)) {
      headerSets.set(h, headerSets.size + 1);
      const fields = Object.entries(r.headers ?? {}).map(([k, v]) => `[${JSON.stringify(k)}]=${JSON.stringify(v)}`);
      lines.push(`H[${headerSets.size}] = {${fields.join(',')}}`);
    }
  }
  lines.push('local P = {');
  for (const r of reqs) lines.push(`{${JSON.stringify(r.path)},${headerSets.get(JSON.stringify(r.headers ?? {}))}},`);
  lines.push('}');
  lines.push(
    'init = function(args) for i, p in ipairs(P) do R[i] = wrk.format("GET", p[1], H[p[2]]) end end',
    'local n = 0',
    'request = function() n = n + 1; return R[(n - 1) % #R + 1] end',
    'done = function(s, latency, requests)',
    '  local e = s.errors',
    '  io.write(string.format("WRKJSON %d %d %d %d %d %d %d %d %d\\n", s.requests, s.duration, e.status, e.connect, e.read, e.write, e.timeout, latency:percentile(50), latency:percentile(99)))',
    'end',
  );
  const dir = mkdtempSync(join(tmpdir(), 'wrk-'));
  const script = join(dir, 'load.lua');
  writeFileSync(script, lines.join('\n'));
  try {
    const seconds = Math.max(1, Math.round(opts.durationMs / 1000));
    const out = await new Promise<string>((resolve, reject) =>
      execFile(
        WRK,
        ['-t1', `-c${opts.concurrency}`, `-d${seconds}s`, '--timeout', '30s', '-s', script, `${opts.origin}/`],
        { maxBuffer: 1 << 20 },
        (err, stdout) => (err ? reject(err) : resolve(stdout)),
      ),
    );
    const m = /WRKJSON ((?:\d+ ?){9})/.exec(out);
    if (!m) throw new Error(`wrk printed no summary: ${out.slice(0, 500)}`);
    const [requests, durationUs, status, connect, read, write, timeout, p50, p99] = m[1].trim().split(' ').map(Number);
    return { requests, errors: status + connect + read + write + timeout, rps: requests / (durationUs / 1e6), p50: p50 / 1000, p99: p99 / 1000 };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
