import type { Redis } from 'ioredis';
import type { Logger } from '../platform/logger.js';

interface Window {
  second: number;
  /** Requests counted by all processes, as Redis last told us. */
  global: number;
  /** Requests this process allowed and has not yet added to Redis. */
  pending: number;
}

/**
 * Per-credential requests-per-second limit shared through Redis without a round trip per
 * request: each process decides locally from the last known global count plus its own
 * unsynced requests, and adds its counts to Redis every `syncMs`. Across processes the
 * limit can be overshot by at most what they admit within one sync interval.
 */
export class RateLimiter {
  private windows = new Map<string, Window>();
  private timer?: NodeJS.Timeout;

  constructor(private redis: Redis, private prefix: string, private logger: Logger, private syncMs = 100) {}

  start(): void {
    this.timer = setInterval(() => void this.sync().catch((err) => this.logger.warn('rate limit sync failed', { err })), this.syncMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** Counts one request; returns 0 when allowed, else the seconds to wait. */
  take(id: string, limitPerSecond: number, now = Date.now()): number {
    const second = Math.floor(now / 1000);
    let w = this.windows.get(id);
    if (!w || w.second !== second) {
      w = { second, global: 0, pending: 0 };
      this.windows.set(id, w);
    }
    if (w.global + w.pending >= limitPerSecond) return Math.max(1, Math.ceil(((second + 1) * 1000 - now) / 1000));
    w.pending++;
    return 0;
  }

  /** Pushes pending counts to Redis and learns the global totals; drops old windows. */
  async sync(now = Date.now()): Promise<void> {
    const second = Math.floor(now / 1000);
    const dirty: Array<[string, Window]> = [];
    for (const [id, w] of this.windows) {
      if (w.second < second - 1) this.windows.delete(id);
      else if (w.pending > 0) dirty.push([id, w]);
    }
    if (dirty.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const [id, w] of dirty) {
      const key = `${this.prefix}:rl:${id}:${w.second}`;
      pipeline.incrby(key, w.pending).expire(key, 3);
    }
    const sent = dirty.map(([, w]) => w.pending);
    dirty.forEach(([, w]) => (w.pending = 0));
    const results = (await pipeline.exec()) ?? [];
    dirty.forEach(([, w], i) => {
      const [err, total] = results[i * 2] ?? [];
      if (err) w.pending += sent[i];
      else w.global = Number(total);
    });
  }
}
