import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';

let ticksPerSecond = 0;
function clockTicks(): number {
  if (!ticksPerSecond) {
    try {
      ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      ticksPerSecond = 100;
    }
  }
  return ticksPerSecond;
}

/** User + system CPU of one process in ms (0 when it is gone). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks();
  } catch {
    return 0;
  }
}

/** Pids of every process named postgres on this machine (the server and its backends). */
function postgresPids(): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').startsWith('postgres')) out.push(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return out;
}

/**
 * Where the CPU of a load went: the API's processes (`apiPids`) against every Postgres process,
 * read from /proc before and after (a backend that ends during the load loses its share). Only
 * meaningful when nothing else runs Postgres queries meanwhile.
 */
export async function cpuSplit<T>(apiPids: number[], run: () => Promise<T>): Promise<{ result: T; apiMs: number; postgresMs: number }> {
  const pg0 = new Map(postgresPids().map((p) => [p, cpuMs(p)]));
  const api0 = apiPids.map(cpuMs);
  const result = await run();
  const apiMs = apiPids.reduce((sum, p, i) => sum + cpuMs(p) - api0[i], 0);
  let postgresMs = 0;
  for (const p of postgresPids()) postgresMs += cpuMs(p) - (pg0.get(p) ?? 0);
  return { result, apiMs, postgresMs };
}
