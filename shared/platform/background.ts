import { AsyncLocalStorage } from 'node:async_hooks';

const background = new AsyncLocalStorage<true>();

/**
 * Runs `work` as background work: no one is waiting for its answer (a cache refreshing an entry
 * it still answers). The engine's gate (EngineGate) lets a search waiting for a shopper go first.
 */
export function inBackground<T>(work: () => Promise<T>): Promise<T> {
  return background.run(true, work);
}

/** Whether the caller runs inside inBackground. */
export function isBackground(): boolean {
  return background.getStore() === true;
}
