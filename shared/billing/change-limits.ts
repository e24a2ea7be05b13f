import type { Knex } from 'knex';
import { isProviderUnreachable } from '../engines/payments/index.js';
import { AppError } from '../platform/errors.js';
import { subscriptionsRepo, type SubscriptionRow } from './subscriptions.repo.js';

/** Seconds a client should wait before retrying a billing change refused as busy or in progress. */
const RETRY_AFTER_S = 1;
/** Seconds before retrying a change whose provider did not answer. */
const PROVIDER_RETRY_AFTER_S = 5;

/**
 * A per-process limit on billing changes running at once: each holds a pooled connection (and
 * its store's lock) through the provider's call, so without it a burst of changes takes the whole
 * pool and every other request of the process waits. Places are given first come, first served;
 * a change that finds none free within `waitMs` is refused with 503 `billing_busy` (Retry-After),
 * before it has read or written anything.
 */
export function changeSlots(size: number, waitMs: number) {
  let active = 0;
  const waiting: Array<() => void> = [];

  const enter = (): Promise<void> => {
    if (active < size) {
      active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const take = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        waiting.splice(waiting.indexOf(take), 1);
        reject(
          new AppError('billing_busy', 503, 'too many billing changes are running on this server; retry shortly', undefined, {
            'Retry-After': String(RETRY_AFTER_S),
          }),
        );
      }, waitMs);
      waiting.push(take);
    });
  };

  // A leaving change hands its place to the first waiting one (`active` stays), else frees it.
  const leave = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };

  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      await enter();
      try {
        return await work();
      } finally {
        leave();
      }
    },
  };
}

/**
 * The store's subscription locked in `trx` (subscriptionsRepo.lock), waiting at most `waitMs` for
 * another change of the store to end (`lock_timeout`, this transaction only): past it, 409
 * `billing_change_in_progress` (Retry-After), nothing read or written. Only the API's changes
 * wait so little; provider events and the billing stages wait their turn.
 */
export async function lockStoreWithin(trx: Knex.Transaction, tenantId: string, waitMs: number): Promise<SubscriptionRow | undefined> {
  // lock_timeout 0 would mean no bound at all.
  await trx.raw(`SELECT set_config('lock_timeout', ?, true)`, [`${Math.max(1, waitMs)}ms`]);
  try {
    const row = await subscriptionsRepo(trx).lock(tenantId);
    // Only this wait is short: the change's later statements (its add-on rows, an event's) wait as any other.
    await trx.raw('SET LOCAL lock_timeout TO DEFAULT');
    return row;
  } catch (err) {
    // 55P03 lock_not_available: the wait passed lock_timeout.
    if ((err as { code?: unknown }).code !== '55P03') throw err;
    throw new AppError('billing_change_in_progress', 409, 'another billing change of this store is in progress; retry once it has finished', undefined, {
      'Retry-After': String(RETRY_AFTER_S),
    });
  }
}

/**
 * Rethrows a change's failure; one because the provider did not answer (its request timed out or
 * could not connect: the change rolled back) as 503 `payment_provider_unavailable` (Retry-After).
 * The provider may still have made the change: its webhook or the client's retry with the same
 * Idempotency-Key settles it, as after any failure past the provider's call.
 */
export function providerUnanswered(err: unknown): never {
  if (!isProviderUnreachable(err)) throw err;
  throw new AppError('payment_provider_unavailable', 503, 'the payment provider did not answer in time; nothing was recorded here; retry shortly', undefined, {
    'Retry-After': String(PROVIDER_RETRY_AFTER_S),
  });
}
