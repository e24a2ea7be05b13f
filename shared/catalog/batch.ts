import type { Redis } from 'ioredis';
import type { Config } from '../platform/config.js';
import type { Notices } from '../platform/notices.js';
import type { Queues } from '../platform/queue/queues.js';
import type { LexicalEngine } from '../engines/lexical/port.js';
import type { productsRepo } from './products.repo.js';
import type { StartJobDeps } from '../jobs/index.js';
import { startSyncCleanup } from './sync-cleanup.js';
import { ProductIn } from './product.schema.js';
import { canonicalJson, newId } from '../platform/ids.js';
import { charLength, invalidText, textProblem } from '../text/valid-text.js';
import { canonicalProduct, toStored, type CanonicalProduct } from './canonical.js';
import { wellFormedProduct } from './well-formed.js';
import { INDEX_JOB_MAX_IDS, indexProductsJob } from './catalog.jobs.js';
import { tenantPriority } from '../platform/queue/fairness.js';
import { isDependencyDown, withDeadline } from '../platform/dependency-errors.js';
import type { Logger } from '../platform/logger.js';

export const MAX_BATCH_ITEMS = 1000;

/**
 * sweep-unindexed re-queues products left unindexed for longer than this with no live index
 * job (an enqueue lost to a dead process or to Redis); shorter waits belong to their batch.
 */
export const SWEEP_GRACE_MS = 10_000;

/** Seconds within which the sweep indexes a stored product whose enqueue was lost (counted from Redis answering). */
export function sweepBoundS(config: { sweepEveryMs: number }): number {
  return Math.ceil((config.sweepEveryMs + SWEEP_GRACE_MS) / 1000);
}

export interface BatchDeps {
  config: Pick<Config, 'queuePrefix' | 'visibleWithinS' | 'sweepEveryMs' | 'redisCommandTimeoutMs' | 'retention'>;
  logger: Logger;
  redis: Redis;
  queues: Queues;
  engine: Pick<LexicalEngine, 'remove'>;
  notices: Pick<Notices, 'publish'>;
  repos: { products: ReturnType<typeof productsRepo> } & StartJobDeps['repos'];
  /** The tenant's plan limit on stored products (null: none); absent: not enforced. */
  productsLimit?(tenantId: string): Promise<number | null>;
}

export interface ItemError {
  id: string | null;
  index: number;
  code: string;
  message: string;
}

export interface BatchRequest {
  upsert?: unknown[];
  delete?: unknown[];
  replace_all: boolean;
  sync_id?: string | null;
  sync_complete: boolean;
}

/**
 * Validates items one by one: bad items become ItemErrors, never a failure of the call. `texts[i]`
 * is the canonical JSON of upsert item i when it is stored (undefined for a refused item).
 */
export function validateItems(body: BatchRequest) {
  const errors: ItemError[] = [];
  const upserts: CanonicalProduct[] = [];
  const texts: Array<string | undefined> = [];
  const seen = new Set<string>();
  (body.upsert ?? []).forEach((raw, index) => {
    // The common well-formed product skips the text walk, zod and the sorted copy; anything else takes the checks below.
    const fast = wellFormedProduct(raw);
    if (fast) {
      if (seen.has(fast.id)) {
        errors.push({ id: fast.id, index, code: 'duplicate_id', message: 'the same id appears earlier in this batch' });
        return;
      }
      seen.add(fast.id);
      const product = canonicalProduct(fast);
      upserts.push(product);
      texts[index] = product.json;
      return;
    }
    const rawId = raw && typeof raw === 'object' && typeof (raw as { id?: unknown }).id === 'string' ? (raw as { id: string }).id : null;
    const [badText] = invalidText(raw, { max: 1 });
    if (badText) {
      errors.push({ id: rawId && !textProblem(rawId) ? rawId : null, index, code: 'invalid_text', message: `${badText.field}: ${badText.message}` });
      return;
    }
    const parsed = ProductIn.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const field = issue.path.join('.') || '(item)';
      const code = issue.code === 'unrecognized_keys' ? 'unknown_field' : 'invalid_product';
      errors.push({ id: rawId, index, code, message: `${field}: ${issue.message}` });
      return;
    }
    if (seen.has(parsed.data.id)) {
      errors.push({ id: parsed.data.id, index, code: 'duplicate_id', message: 'the same id appears earlier in this batch' });
      return;
    }
    seen.add(parsed.data.id);
    const product = canonicalProduct(toStored(parsed.data));
    upserts.push(product);
    texts[index] = product.json;
  });
  const deletes: string[] = [];
  const deleting = new Set<string>();
  const offset = body.upsert?.length ?? 0;
  (body.delete ?? []).forEach((raw, i) => {
    const index = offset + i;
    if (typeof raw !== 'string' || raw.length < 1 || (raw.length > 128 && charLength(raw) > 128)) {
      errors.push({ id: null, index, code: 'invalid_id', message: 'a product id is a string of 1 to 128 characters' });
    } else if (textProblem(raw)) {
      errors.push({ id: null, index, code: 'invalid_text', message: `the id ${textProblem(raw)}` });
    } else if (seen.has(raw)) {
      const message = deleting.has(raw) ? 'the same id appears earlier in delete' : 'the same id is upserted in this batch';
      errors.push({ id: raw, index, code: 'duplicate_id', message });
    } else {
      seen.add(raw);
      deleting.add(raw);
      deletes.push(raw);
    }
  });
  return { errors, upserts, deletes, texts };
}

export type ValidatedItems = ReturnType<typeof validateItems>;

/** A request body's validated items, kept from the idempotency check (batchRequestText) until the handler takes them. */
const validatedBodies = new WeakMap<BatchRequest, ValidatedItems>();

/**
 * The text an Idempotency-Key's request hash covers for a batch: the body's other fields, then
 * each upsert item as the canonical JSON it is stored as (key order, a price as number or string
 * and spelled-out defaults do not matter), or its own canonical JSON when it is refused. The
 * items' canonical forms are the ones the handler writes: computed once, for both.
 */
export function batchRequestText(body: BatchRequest): string {
  // A batch over the limit is refused before any item is checked: no need to check them here.
  if ((body.upsert?.length ?? 0) + (body.delete?.length ?? 0) > MAX_BATCH_ITEMS) return canonicalJson(body);
  let v = validatedBodies.get(body);
  if (!v) {
    v = validateItems(body);
    validatedBodies.set(body, v);
  }
  const { upsert, ...rest } = body;
  const parts = [canonicalJson({ ...rest, upsert: upsert?.length })];
  (upsert ?? []).forEach((raw, i) => {
    const text = v.texts[i];
    // Canonical JSON holds no raw newline: the parts cannot run into each other.
    parts.push(text === undefined ? `r${canonicalJson(raw)}` : `p${text}`);
  });
  return parts.join('\n');
}

function takeValidated(body: BatchRequest): ValidatedItems {
  const v = validatedBodies.get(body);
  if (!v) return validateItems(body);
  validatedBodies.delete(body);
  return v;
}

/**
 * Stores a batch (one transaction), removes deleted products from search at once, and queues
 * the indexing of changed ones. Returns ProductBatchResult; a large store's completing batch
 * also returns `sync_job`, the job deleting what the sync never sent (`deleted` counts only
 * what the batch deleted itself). When Redis is down the job is not started and the call throws
 * (503): sent again, the completing batch starts it.
 */
export async function applyBatch(deps: BatchDeps, tenantId: string, body: BatchRequest) {
  const { errors, upserts: valid, deletes } = takeValidated(body);
  const upserts = await withinProductsLimit(deps, tenantId, body, valid, deletes, errors);
  // A product the sync sent but this batch refused (invalid, or past the plan's limit) was sent all the same:
  // completing the sync must not delete its stored version. An item without a readable id cannot be kept.
  const offset = body.upsert?.length ?? 0;
  const refused = errors.filter((e) => e.id !== null && e.index < offset).map((e) => e.id as string);
  const idleDays = deps.config.retention.syncIdleDays;
  const sync = body.replace_all ? { id: body.sync_id ?? newId('sync'), complete: body.sync_complete, idleDays, refused } : undefined;
  const outcome = await deps.repos.products.writeBatch(tenantId, { upserts, deletes, sync });
  // Every id the batch deletes leaves search, stored or not: the retry of a batch cut off after its
  // commit (its removal from search failed, 503) finds the rows gone, and must still remove their documents.
  const gone = [...new Set([...outcome.deletedIds, ...deletes])];
  if (gone.length) {
    await deps.engine.remove(tenantId, gone);
    await deps.notices.publish('index', tenantId);
  }
  const toIndex = [...outcome.changedIds, ...outcome.staleIds];
  let queued = true;
  if (toIndex.length || gone.length) {
    queued = await queueIndexing(deps, tenantId, toIndex, gone);
  }
  const syncJob = outcome.syncCleanup ? (await startSyncCleanup(deps, tenantId, outcome.syncCleanup)).job : undefined;
  return {
    ...(syncJob && { sync_job: syncJob }),
    upserted: outcome.changedIds.length,
    unchanged: outcome.unchanged,
    deleted: outcome.deletedIds.length,
    errors,
    visible_within_s: !toIndex.length ? 0 : queued ? await visibleWithin(deps) : sweepBoundS(deps.config),
  };
}

/**
 * The plan's products_limit: new products (ids not stored yet) past the room left get the
 * per-item error `products_limit_reached`; updates of stored products and the rest of the batch
 * are applied. Deletes in the same batch make room first. Two concurrent batches may together
 * pass the limit by at most one batch (no lock on the count).
 */
async function withinProductsLimit(
  deps: BatchDeps,
  tenantId: string,
  body: BatchRequest,
  upserts: CanonicalProduct[],
  deletes: string[],
  errors: ItemError[],
): Promise<CanonicalProduct[]> {
  const limit = deps.productsLimit ? await deps.productsLimit(tenantId) : null;
  if (limit === null || !upserts.length) return upserts;
  const [stored, known, deleting] = await Promise.all([
    deps.repos.products.count(tenantId),
    deps.repos.products.existingIds(
      tenantId,
      upserts.map((u) => u.id),
    ),
    deps.repos.products.existingIds(tenantId, deletes),
  ]);
  let room = limit - (stored - deleting.size);
  const indexOf = new Map<string, number>();
  (body.upsert ?? []).forEach((raw, i) => {
    const id = (raw as { id?: unknown } | null)?.id;
    if (typeof id === 'string' && !indexOf.has(id)) indexOf.set(id, i);
  });
  const kept: CanonicalProduct[] = [];
  for (const u of upserts) {
    if (known.has(u.id)) kept.push(u);
    else if (room > 0) {
      kept.push(u);
      room--;
    } else {
      errors.push({
        id: u.id,
        index: indexOf.get(u.id) ?? -1,
        code: 'products_limit_reached',
        message: `the plan allows ${limit} products; delete some or change plan`,
      });
    }
  }
  errors.sort((a, b) => a.index - b.index);
  return kept;
}

/**
 * Queues the indexing of a stored batch. When Redis is down or too slow the batch is still
 * committed and acknowledged: sweep-unindexed finds its products (stored version ahead of the
 * indexed one, no live job) once Redis answers, and visible_within_s says so. Returns whether it queued.
 */
export async function queueIndexing(deps: BatchDeps, tenantId: string, ids: string[], deletes: string[]): Promise<boolean> {
  try {
    const priority = await tenantPriority(deps.redis, deps.config.queuePrefix, 'catalog', tenantId);
    // A sync's completion can delete more than one job carries (a single job of them all was refused: 500 after the commit).
    for (let i = 0; i === 0 || i < deletes.length; i += INDEX_JOB_MAX_IDS) {
      const chunk = { tenantId, batchId: newId('b'), ids: i === 0 ? ids : [], deletes: deletes.slice(i, i + INDEX_JOB_MAX_IDS) };
      await deps.queues.enqueue(indexProductsJob, chunk, { priority });
    }
    return true;
  } catch (err) {
    if (!isDependencyDown(err)) throw err;
    deps.logger.warn('index job not queued; the sweep will index the batch', { tenantId, products: ids.length, err });
    return false;
  }
}

/** Honest estimate: the configured target, or longer when the catalog queue has a backlog. */
async function visibleWithin(deps: BatchDeps): Promise<number> {
  const counts = await withDeadline(
    deps.queues.get('catalog').getJobCounts('waiting', 'prioritized', 'active'),
    deps.config.redisCommandTimeoutMs,
    'queue counts',
  ).catch(() => ({ waiting: 0, prioritized: 0, active: 0 }));
  const ahead = (counts.waiting ?? 0) + (counts.prioritized ?? 0) + (counts.active ?? 0);
  // About 0.2 s per queued 1,000-item batch on one worker (bench/ingest), spread over the workers.
  return Math.max(deps.config.visibleWithinS, Math.ceil(ahead * 0.2));
}
