import { readFile, writeFile } from 'node:fs/promises';
import { readJsonl } from '../catalog/read-jsonl.js';
import { mapperFor, type CatalogKind } from '../catalog/mappers.js';
import { apiClient } from '../client/client.js';

export interface LoadOptions {
  url: string;
  key: string;
  file: string;
  kind: CatalogKind;
  batchSize?: number;
  inFlight?: number;
  limit?: number;
  /** Rewrites each product before sending (bench replication: ids, prices). */
  transform?: (p: Record<string, unknown>, index: number) => Record<string, unknown>;
  /** Checkpoint file: batches already acknowledged are skipped on the next run. */
  checkpoint?: string;
  progress?: boolean;
  /** Part of every Idempotency-Key, so a retried batch is safe and a new run is a new write. */
  runId?: string;
  /** Stops reading and cancels the batches in flight (npm run demo on Ctrl-C, so the API can close its connections). */
  signal?: AbortSignal;
}

export interface LoadResult {
  sent: number;
  upserted: number;
  unchanged: number;
  errors: Array<{ id: string | null; code: string; message: string }>;
  seconds: number;
}

/** Streams a catalog file through the public batch API, a few batches in flight, with a progress line. */
export async function loadCatalog(opts: LoadOptions): Promise<LoadResult> {
  const started = Date.now();
  const size = opts.batchSize ?? 1000;
  const done = new Set<number>(opts.checkpoint ? await readCheckpoint(opts.checkpoint) : []);
  const mapper = mapperFor(opts.kind);
  const result: LoadResult = { sent: 0, upserted: 0, unchanged: 0, errors: [], seconds: 0 };
  const running = new Set<Promise<void>>();
  // The first failed batch, thrown to the caller: a settled batch leaves `running`, so awaiting the set alone could miss it.
  let failed: { error: unknown } | null = null;
  let batch: Record<string, unknown>[] = [];
  let batchNo = 0;
  let index = 0;
  const send = async (no: number, items: Record<string, unknown>[]) => {
    const body = await postBatch(opts, items, no);
    result.sent += items.length;
    result.upserted += body.upserted;
    result.unchanged += body.unchanged;
    result.errors.push(...body.errors);
    done.add(no);
    if (opts.checkpoint) await writeFile(opts.checkpoint, JSON.stringify([...done]));
    if (opts.progress)
      process.stderr.write(
        `\rsent ${result.sent} products (${Math.round(result.sent / ((Date.now() - started) / 1000))}/s), errors ${result.errors.length}   `,
      );
  };
  const flush = async () => {
    const no = batchNo++;
    const items = batch;
    batch = [];
    if (done.has(no)) return;
    const p: Promise<void> = send(no, items)
      .catch((error: unknown) => {
        failed ??= { error };
      })
      .finally(() => running.delete(p));
    running.add(p);
    if (running.size >= (opts.inFlight ?? 3)) await Promise.race(running);
  };
  const throwIfFailed = () => {
    if (failed) throw failed.error;
  };
  for await (const raw of readJsonl(opts.file)) {
    opts.signal?.throwIfAborted();
    throwIfFailed();
    if (opts.limit !== undefined && index >= opts.limit) break;
    const mapped = mapper(raw as never);
    if (!mapped) continue;
    batch.push(opts.transform ? opts.transform(mapped as unknown as Record<string, unknown>, index) : (mapped as unknown as Record<string, unknown>));
    index++;
    if (batch.length >= size) await flush();
  }
  if (batch.length) await flush();
  await Promise.all(running);
  throwIfFailed();
  if (opts.progress) process.stderr.write('\n');
  result.seconds = (Date.now() - started) / 1000;
  return result;
}

function postBatch(opts: LoadOptions, items: Record<string, unknown>[], no: number) {
  return postBatchBody(opts.url, opts.key, `load-${opts.runId ?? 'run'}-${no}`, JSON.stringify({ upsert: items }), opts.signal);
}

/**
 * POSTs one prepared batch body through the typed client (the body is serialized once, before
 * the call: the benches prepare theirs ahead of the clock), retrying 429, 409 (same key in
 * flight) and 5xx with backoff.
 */
export async function postBatchBody(url: string, key: string, idempotencyKey: string, body: string, signal?: AbortSignal) {
  const api = apiClient(url, key);
  for (let attempt = 0; ; attempt++) {
    signal?.throwIfAborted();
    const { data, error, response } = await api.POST('/v1/products/batch', {
      params: { header: { 'Idempotency-Key': idempotencyKey } },
      body: {} as never,
      bodySerializer: () => body,
      signal,
    });
    if (data && response.ok) return { upserted: data.upserted, unchanged: data.unchanged, errors: data.errors as LoadResult['errors'] };
    if ((response.status === 429 || response.status >= 500 || response.status === 409) && attempt < 8) {
      await new Promise((r) => setTimeout(r, Number(response.headers.get('retry-after') ?? 0) * 1000 || 200 * 2 ** attempt));
      continue;
    }
    throw new Error(`batch ${idempotencyKey} failed: ${response.status} ${JSON.stringify(error)}`);
  }
}

async function readCheckpoint(path: string): Promise<number[]> {
  try {
    return JSON.parse(await readFile(path, 'utf8'));
  } catch {
    return [];
  }
}
