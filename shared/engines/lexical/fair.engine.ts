import type { EngineQuery, LexicalEngine } from './port.js';
import { isBackground } from '../../platform/background.js';

/** How long background work waits behind shoppers' searches at most. */
export const BACKGROUND_WAIT_MS = 1000;

/**
 * At most `concurrency` engine searches of one process at a time; the others wait in a queue per
 * store, and a freed place goes to the stores in turn (round robin), each store's own searches in
 * the order they came. Without it every search went straight to the engine, which shares its
 * cores among all of them: a 2,000-product store's 2 ms search waited as long as the 100k store's
 * (p50 340 ms for both in bench/traffic), and one store's burst slowed every other store. With it
 * a search waits at most about one search of each other busy store, and the engine runs a few
 * statements at full speed instead of many slowly (the same throughput: it was CPU-bound).
 *
 * Background work (a cache refreshing an entry it still answers: `inBackground`) waits until no
 * shopper's search does, and leaves one place free for them; after BACKGROUND_WAIT_MS it goes
 * first anyway (a shopper may be waiting for it too: a request for an entry being refreshed joins
 * that refresh).
 */
export class FairGate {
  private running = 0;
  /** Waiting searches per store; the Map's order is the turn order (a store served goes last). */
  private queues = new Map<string, Array<() => void>>();
  private waiting = 0;
  /** Background searches waiting, in order, with when each came. */
  private later: Array<{ wake: () => void; at: number }> = [];

  constructor(readonly concurrency: number) {}

  /** Searches waiting for a place now (all stores, background work too). */
  get queued(): number {
    return this.waiting + this.later.length;
  }

  /** Runs `call` when a place is free and it is this store's turn (background work: when no one else waits). */
  run<T>(tenantId: string, call: () => Promise<T>): Promise<T> {
    if (isBackground()) {
      if (this.waiting === 0 && this.running < this.backgroundPlaces()) {
        this.running++;
        return this.settle(call);
      }
      return new Promise<void>((resolve) => this.later.push({ wake: resolve, at: performance.now() })).then(() => this.settle(call));
    }
    if (this.running < this.concurrency) {
      this.running++;
      return this.settle(call);
    }
    return new Promise<void>((resolve) => {
      const queue = this.queues.get(tenantId);
      if (queue) queue.push(resolve);
      else this.queues.set(tenantId, [resolve]);
      this.waiting++;
    }).then(() => this.settle(call));
  }

  private async settle<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } finally {
      this.running--;
      this.next();
    }
  }

  /** Gives free places to the waiting searches, one store after another. */
  private next(): void {
    if (this.later.length) {
      const overdue = performance.now() - BACKGROUND_WAIT_MS;
      while (this.running < this.concurrency && this.later.length && this.later[0].at <= overdue) {
        this.running++;
        this.later.shift()!.wake();
      }
    }
    while (this.running < this.concurrency && this.waiting > 0) {
      const [tenantId, queue] = this.queues.entries().next().value as [string, Array<() => void>];
      const wake = queue.shift()!;
      // This store goes to the back of the turn order (or leaves it, with nothing left waiting).
      this.queues.delete(tenantId);
      if (queue.length) this.queues.set(tenantId, queue);
      this.waiting--;
      this.running++;
      wake();
    }
    while (this.waiting === 0 && this.later.length && this.running < this.backgroundPlaces()) {
      this.running++;
      this.later.shift()!.wake();
    }
  }

  /** Places background work may fill: all but one (a shopper's search never waits for it alone). */
  private backgroundPlaces(): number {
    return Math.max(1, this.concurrency - 1);
  }
}

/** The same engine with its searches taken through `gate` (writes and the rest as they are). */
export function fairEngine(engine: LexicalEngine, gate: FairGate): LexicalEngine {
  return {
    get name() {
      return engine.name;
    },
    upsert: (t, docs, settings) => engine.upsert(t, docs, settings),
    remove: (t, ids) => engine.remove(t, ids),
    beginGeneration: (t, settings) => engine.beginGeneration(t, settings),
    writeGeneration: (t, g, docs) => engine.writeGeneration(t, g, docs),
    swapGeneration: (t, g) => engine.swapGeneration(t, g),
    dropGeneration: (t, g) => engine.dropGeneration(t, g),
    search: (q: EngineQuery) => gate.run(q.tenantId, () => engine.search(q)),
    dropTenant: (t) => engine.dropTenant(t),
    changed: (t) => engine.changed?.(t),
  };
}
