import type { Translator } from '../engines/translator/index.js';
import type { ChunkItem } from './translation.jobs.js';

export interface BatchOptions {
  batchFields: number;
  batchChars: number;
  parallelCalls: number;
  signal?: AbortSignal;
}

export interface BatchCost {
  micros: number;
  inputTokens: number;
  outputTokens: number;
  calls: number;
}

/** Runs `fn` over `tasks` with at most `limit` at a time. */
async function pool<T>(tasks: T[], limit: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await fn(tasks[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
}

/**
 * Translates a chunk's masked texts: identical texts once, several texts per provider call (by
 * count and characters), a few calls in flight. Sets each item's `output` (or `skipped: left_out`
 * when the provider left it out) and returns what the calls cost. A failing call fails the whole chunk (retried).
 */
export async function translateItems(
  translator: Translator,
  target: string,
  items: ChunkItem[],
  opts: BatchOptions,
): Promise<{ items: ChunkItem[]; cost: BatchCost }> {
  const unique = new Map<string, { sourceLocale: string; text: string }>();
  const keyOf = (i: ChunkItem) => `${i.sourceLocale}\u0000${i.masked ?? i.text}`;
  for (const i of items) unique.set(keyOf(i), { sourceLocale: i.sourceLocale, text: i.masked ?? i.text });
  const batches: Array<{ sourceLocale: string; keys: string[] }> = [];
  let current: { sourceLocale: string; keys: string[]; chars: number } | null = null;
  for (const [key, u] of unique) {
    if (!current || current.sourceLocale !== u.sourceLocale || current.keys.length >= opts.batchFields || current.chars + u.text.length > opts.batchChars) {
      current = { sourceLocale: u.sourceLocale, keys: [], chars: 0 };
      batches.push(current);
    }
    current.keys.push(key);
    current.chars += u.text.length;
  }
  const results = new Map<string, string>();
  const cost: BatchCost = { micros: 0, inputTokens: 0, outputTokens: 0, calls: 0 };
  await pool(batches, opts.parallelCalls, async (batch) => {
    const texts = batch.keys.map((key, n) => ({ id: String(n), text: unique.get(key)!.text }));
    const res = await translator.translate({ sourceLocale: batch.sourceLocale, targetLocale: target, texts, signal: opts.signal });
    batch.keys.forEach((key, n) => {
      const out = res.texts.get(String(n));
      if (out !== undefined) results.set(key, out);
    });
    cost.micros += res.costMicros;
    cost.inputTokens += res.inputTokens;
    cost.outputTokens += res.outputTokens;
    cost.calls++;
  });
  return {
    items: items.map((i) => {
      const output = results.get(keyOf(i));
      return output === undefined ? { ...i, skipped: 'left_out' as const } : { ...i, output };
    }),
    cost,
  };
}
