// Preloaded into an API process by bench/api-memory.ts (node --import): appends the process's
// memory (RSS, V8 heap spaces, external and array buffers) as one JSON line to MEMORY_PROBE_FILE
// every second, and on SIGUSR2 runs a full garbage collection first (with --expose-gc).
import { appendFileSync } from 'node:fs';
import v8 from 'node:v8';

const file = process.env.MEMORY_PROBE_FILE;
if (file) {
  const sample = (label) => {
    const m = process.memoryUsage();
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, Math.round(s.space_size / 2 ** 20)]));
    const mib = (x) => Math.round(x / 2 ** 20);
    appendFileSync(
      file,
      `${JSON.stringify({ pid: process.pid, at: Date.now(), label, rss: mib(m.rss), heapTotal: mib(m.heapTotal), heapUsed: mib(m.heapUsed), external: mib(m.external), arrayBuffers: mib(m.arrayBuffers), spaces })}\n`,
    );
  };
  setInterval(() => sample('tick'), 1000).unref();
  process.on('SIGUSR2', () => {
    globalThis.gc?.();
    sample('after-gc');
  });
}
