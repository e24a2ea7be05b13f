import type { Translator } from '../engines/translator/index.js';
import { sha256 } from '../platform/ids.js';
import type { KeptAnswer } from './answers.repo.js';
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

/** Where a job keeps the answers it paid for, by batch key (answersRepo bound to one translate-fields job). */
export interface AnswerStore {
  find(keys: string[]): Promise<Map<string, KeptAnswer>>;
  keep(key: string, answer: Omit<KeptAnswer, 'costRecorded'>): Promise<KeptAnswer>;
  recordCost(key: string): Promise<void>;
}

/**
 * Runs `fn` over `tasks` with at most `limit` at a time. After a failure no new task starts, the
 * ones in flight finish (an answer that arrives is still kept and paid once), then the first error is thrown.
 */
async function pool<T>(tasks: T[], limit: number, fn: (t: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { err: unknown } | undefined;
  const worker = async () => {
    while (!failure && next < tasks.length) {
      try {
        await fn(tasks[next++]);
      } catch (err) {
        failure ??= { err };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, tasks.length) }, worker));
  if (failure) throw failure.err;
}

/** A batch's key: its content (languages and texts in order), the same on every attempt of the job. */
const batchKey = (source: string, target: string, texts: string[]) => sha256(JSON.stringify([source, target, texts]));

/**
 * Translates a chunk's masked texts: identical texts once, several texts per provider call (by
 * count and characters), a few calls in flight. Each answer is kept in `store` as it arrives and its
 * cost recorded once; a batch an earlier attempt kept is reused, not asked again. Sets each item's
 * `output` (or `skipped: left_out` when the provider left it out) and returns what the answers used
 * cost, the calls made now and the answers reused. A failing call fails the whole chunk (retried).
 */
export async function translateItems(
  translator: Translator,
  target: string,
  items: ChunkItem[],
  store: AnswerStore,
  opts: BatchOptions,
): Promise<{ items: ChunkItem[]; cost: BatchCost; called: number; reused: number }> {
  const unique = new Map<string, { sourceLocale: string; text: string }>();
  const keyOf = (i: ChunkItem) => `${i.sourceLocale}\u0000${i.masked ?? i.text}`;
  for (const i of items) unique.set(keyOf(i), { sourceLocale: i.sourceLocale, text: i.masked ?? i.text });
  const batches: Array<{ sourceLocale: string; keys: string[]; chars: number; key?: string }> = [];
  let current: (typeof batches)[number] | null = null;
  for (const [key, u] of unique) {
    if (!current || current.sourceLocale !== u.sourceLocale || current.keys.length >= opts.batchFields || current.chars + u.text.length > opts.batchChars) {
      current = { sourceLocale: u.sourceLocale, keys: [], chars: 0 };
      batches.push(current);
    }
    current.keys.push(key);
    current.chars += u.text.length;
  }
  for (const b of batches)
    b.key = batchKey(
      b.sourceLocale,
      target,
      b.keys.map((k) => unique.get(k)!.text),
    );
  const kept = await store.find(batches.map((b) => b.key!));
  const results = new Map<string, string>();
  const cost: BatchCost = { micros: 0, inputTokens: 0, outputTokens: 0, calls: 0 };
  let called = 0;
  const ask = async (batch: (typeof batches)[number]): Promise<KeptAnswer> => {
    const texts = batch.keys.map((key, n) => ({ id: String(n), text: unique.get(key)!.text }));
    const res = await translator.translate({ sourceLocale: batch.sourceLocale, targetLocale: target, texts, signal: opts.signal });
    called++;
    return store.keep(batch.key!, {
      texts: Object.fromEntries(res.texts),
      inputTokens: res.inputTokens,
      outputTokens: res.outputTokens,
      costMicros: res.costMicros,
    });
  };
  await pool(batches, opts.parallelCalls, async (batch) => {
    const answer = kept.get(batch.key!) ?? (await ask(batch));
    // Also an answer an earlier attempt kept but failed to record: its cost goes in now, once.
    if (!answer.costRecorded) await store.recordCost(batch.key!);
    batch.keys.forEach((key, n) => {
      const out = answer.texts[String(n)];
      if (out !== undefined) results.set(key, out);
    });
    cost.micros += answer.costMicros;
    cost.inputTokens += answer.inputTokens;
    cost.outputTokens += answer.outputTokens;
    cost.calls++;
  });
  return {
    items: items.map((i) => {
      const output = results.get(keyOf(i));
      return output === undefined ? { ...i, skipped: 'left_out' as const } : { ...i, output };
    }),
    cost,
    called,
    reused: batches.length - called,
  };
}
