import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * The API's V8 flags, as `npm run api` sets them: a 32 MB semi-space (young generation up to 64 MiB)
 * lets a request's short-lived objects die young instead of being promoted; a heap growing factor
 * of 1.5 (`--heap-growing-percent=50`) starts the next full collection when the old generation has
 * grown half over what the last one left live, where V8's own factor (up to 4 for a process that
 * allocates fast) let a busy API process hold 350-440 MiB over 75-80 MiB live (README, Performance).
 * BENCH_API_NODE_FLAGS (space-separated) overrides them.
 */
export const API_NODE_FLAGS = process.env.BENCH_API_NODE_FLAGS?.split(' ').filter(Boolean) ?? ['--max-semi-space-size=32', '--heap-growing-percent=50'];

/** The V8 flags a checkout's own `npm run api` sets (another checkout measured as it runs; BENCH_API_NODE_FLAGS overrides). */
export function apiNodeFlagsOf(dir: string): string[] {
  if (process.env.BENCH_API_NODE_FLAGS) return API_NODE_FLAGS;
  const script = (JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as { scripts?: Record<string, string> }).scripts?.api ?? '';
  return script.split(/\s+/).filter((w) => /^--[a-z-]+=\S+$/.test(w));
}

/**
 * How the benches run the service's processes: `built` (the default), compiled to `dist/` by `tsc`
 * as a deployment runs them (`npm run api:built`, the Dockerfile), or `tsx` (BENCH_RUN=tsx), the
 * sources through the tsx loader as `npm run api` does in development. The loader and its esbuild
 * service cost an API process about 60 MiB of RSS and nothing per request (README, Performance).
 */
const RUN = process.env.BENCH_RUN === 'tsx' ? 'tsx' : 'built';
const built = new Set<string>();

/** Compiles a checkout to its `dist/` once per bench (never a stale build: the sources as they are now). */
function ensureBuilt(dir: string): void {
  if (built.has(dir)) return;
  process.stderr.write(`compiling ${dir} (tsc) for the bench's processes\n`);
  execFileSync(process.execPath, [join(dir, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir, stdio: 'inherit' });
  built.add(dir);
}

/**
 * Starts `node [flags] dist/<script>.js` (or `node [flags] --import tsx <script>` with BENCH_RUN=tsx) with env
 * (in `cwd`: another checkout's code); resolves when `ready()` says so.
 * Stores without a subscription run on the enterprise plan (no caps) unless the env says otherwise: the free plan's
 * 1,000 products and 10,000 searches would turn a bench's load into quota errors.
 */
export async function startProcess(
  script: string,
  env: Record<string, string>,
  ready: () => Promise<boolean>,
  nodeFlags: string[] = [],
  cwd?: string,
): Promise<ChildProcess> {
  const dir = resolve(cwd ?? process.cwd());
  if (RUN === 'built') ensureBuilt(dir);
  const args = RUN === 'built' ? [join('dist', script.replace(/\.ts$/, '.js'))] : ['--import', 'tsx', script];
  const child = spawn(process.execPath, [...nodeFlags, ...args], {
    env: { BILLING_DEFAULT_PLAN: 'enterprise', ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
    cwd,
  });
  const deadline = Date.now() + 60_000;
  while (!(await ready().catch(() => false))) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error(`${script} did not become ready`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return child;
}

/** Peak resident set size of a process in MiB (VmHWM), 0 when unreadable. */
export function peakRssMiB(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  if (child.exitCode === null) child.kill('SIGKILL');
}

/** Resident set size now and at peak (VmRSS, VmHWM) in MiB of a process and each of its children (node:cluster workers), by pid. */
export function rssTree(pid: number | undefined): Array<{ pid: number; rss: number; peak: number }> {
  if (!pid) return [];
  const one = (p: number) => {
    try {
      const status = readFileSync(`/proc/${p}/status`, 'utf8');
      const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) / 1024;
      return { pid: p, rss: kb('VmRSS'), peak: kb('VmHWM') };
    } catch {
      return { pid: p, rss: 0, peak: 0 };
    }
  };
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    children = [];
  }
  return [one(pid), ...children.map(one)];
}
