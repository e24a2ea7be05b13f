import type { EngineQuery, LexicalEngine } from './port.js';
import { isBackground } from '../../platform/background.js';
import { requestStartedAt } from '../../platform/metrics.js';

/** How long background work waits behind shoppers' searches at most. */
export const BACKGROUND_WAIT_MS = 1000;

/**
 * At most `concurrency` engine searches of one process at a time; the others wait, and a freed
 * place goes to the search whose request came first (`requestStartedAt`: a search's second
 * statement, its any-word fallback, goes before searches that came after it instead of queueing
 * again). Without it every search went straight to the engine, which shares its two cores among
 * all of them: under load Postgres ran 20 statements at once beside the API processes it starved
 * of CPU, and every statement took 10 times as long.
 *
 * Background work (a cache refreshing an entry it still answers: `inBackground`) waits until no
 * shopper's search does, and leaves one place free for them; after BACKGROUND_WAIT_MS it goes
 * first anyway (a shopper may be waiting for it too: a request for an entry being refreshed joins
 * that refresh).
 */
export class EngineGate {
  private running = 0;
  /** Shoppers' searches waiting, oldest request first. */
  private waiting: Array<{ wake: () => void; at: number }> = [];
  /** Background searches waiting, in order, with when each came. */
  private later: Array<{ wake: () => void; at: number }> = [];

  constructor(readonly concurrency: number) {}

  /** Searches waiting for a place now (background work too). */
  get queued(): number {
    return this.waiting.length + this.later.length;
  }

  /** Runs `call` when a place is free and no search of an older request waits (background work: when no shopper's does). */
  run<T>(call: () => Promise<T>, at = requestStartedAt()): Promise<T> {
    if (isBackground()) {
      if (this.waiting.length === 0 && this.running < this.backgroundPlaces()) {
        this.running++;
        return this.settle(call);
      }
      return new Promise<void>((wake) => this.later.push({ wake, at: performance.now() })).then(() => this.settle(call));
    }
    if (this.running < this.concurrency) {
      this.running++;
      return this.settle(call);
    }
    return new Promise<void>((wake) => {
      // Requests mostly come in order: from the end, the place after the last older one.
      let i = this.waiting.length;
      while (i > 0 && this.waiting[i - 1].at > at) i--;
      this.waiting.splice(i, 0, { wake, at });
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

  /** Gives free places to the waiting searches. */
  private next(): void {
    if (this.later.length) {
      const overdue = performance.now() - BACKGROUND_WAIT_MS;
      while (this.running < this.concurrency && this.later.length && this.later[0].at <= overdue) {
        this.running++;
        this.later.shift()!.wake();
      }
    }
    while (this.running < this.concurrency && this.waiting.length) {
      this.running++;
      this.waiting.shift()!.wake();
    }
    while (this.waiting.length === 0 && this.later.length && this.running < this.backgroundPlaces()) {
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
export function gatedEngine(engine: LexicalEngine, gate: EngineGate): LexicalEngine {
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
    search: (q: EngineQuery) => gate.run(() => engine.search(q)),
    dropTenant: (t) => engine.dropTenant(t),
    changed: (t) => engine.changed?.(t),
  };
}
