import type { Redis } from 'ioredis';
import type { Logger } from '../platform/logger.js';

interface Window {
  /** Which window (now / windowMs, floored). */
  slot: number;
  /** Events counted by all processes, as Redis last told us. */
  global: number;
  /** Events this process counted and has not yet added to Redis. */
  pending: number;
  /** Events on their way to Redis (a sync in flight), still counted until Redis answers. */
  sending: number;
}

/**
 * Counts events per id in fixed windows (a second for request rates, a minute for failed
 * logins), shared through Redis without a round trip per event: each process decides locally
 * from the last known global count plus its own unsynced events, and adds its counts to Redis
 * every `syncMs`. Across processes a limit can be overshot by at most what they admit within
 * one sync interval.
 */
export class RateLimiter {
  private windows = new Map<string, Window>();
  private timer?: NodeJS.Timeout;

  constructor(
    private redis: Redis,
    private prefix: string,
    private logger: Logger,
    private syncMs = 100,
    private windowMs = 1000,
    /** Redis key part, so several counters share a prefix. */
    private name = 'rl',
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.sync().catch((err) => this.logger.warn('rate limit sync failed', { err, counter: this.name })), this.syncMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Counts one request; returns 0 when allowed, else the seconds to wait. */
  take(id: string, limit: number, now = Date.now()): number {
    const wait = this.over(id, limit, now);
    if (wait === 0) this.add(id, now);
    return wait;
  }

  /** 0 while `id` has counted fewer than `limit` events in the current window, else the seconds until the window ends. */
  over(id: string, limit: number, now = Date.now()): number {
    const w = this.windows.get(id);
    const slot = Math.floor(now / this.windowMs);
    if (!w || w.slot !== slot || w.global + w.sending + w.pending < limit) return 0;
    return Math.max(1, Math.ceil(((slot + 1) * this.windowMs - now) / 1000));
  }

  /** Counts one event for `id`. */
  add(id: string, now = Date.now()): void {
    const slot = Math.floor(now / this.windowMs);
    let w = this.windows.get(id);
    if (!w || w.slot !== slot) {
      w = { slot, global: 0, pending: 0, sending: 0 };
      this.windows.set(id, w);
    }
    w.pending++;
  }

  /** Pushes pending counts to Redis and learns the global totals; drops old windows. */
  async sync(now = Date.now()): Promise<void> {
    const slot = Math.floor(now / this.windowMs);
    const dirty: Array<[string, Window]> = [];
    for (const [id, w] of this.windows) {
      if (w.slot < slot - 1) this.windows.delete(id);
      else if (w.pending > 0) dirty.push([id, w]);
    }
    if (dirty.length === 0) return;
    const ttlS = Math.ceil((this.windowMs * 3) / 1000);
    const pipeline = this.redis.pipeline();
    for (const [id, w] of dirty) {
      const key = `${this.prefix}:${this.name}:${id}:${w.slot}`;
      pipeline.incrby(key, w.pending).expire(key, ttlS);
    }
    const sent = dirty.map(([, w]) => w.pending);
    dirty.forEach(([, w], i) => {
      w.sending += sent[i];
      w.pending = 0;
    });
    let results: Awaited<ReturnType<typeof pipeline.exec>>;
    try {
      results = await pipeline.exec();
    } catch (err) {
      dirty.forEach(([, w], i) => ((w.sending -= sent[i]), (w.pending += sent[i])));
      throw err;
    }
    dirty.forEach(([, w], i) => {
      const [err, total] = results?.[i * 2] ?? [new Error('no answer')];
      w.sending -= sent[i];
      if (err) w.pending += sent[i];
      else w.global = Math.max(w.global, Number(total));
    });
  }
}
