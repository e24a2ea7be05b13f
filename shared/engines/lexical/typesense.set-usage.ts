import type { Redis } from 'ioredis';

/**
 * When each synonym set of alternatives was last written or used, shared by every process of a
 * deployment: Typesense keeps no time on a set, so the sweep (AlternativeSets.sweep) reads it here.
 * One sorted set per deployment, member the set's name, score the time in ms.
 */

/** A process that keeps using a set it wrote marks it again at most this often: the sweep's retention must be longer. */
export const REFRESH_MS = 3_600_000;
/** Marks wait this long and go to Redis together: one ZADD per second at most per process, however many searches. */
export const FLUSH_MS = 1_000;
const CHUNK = 1_000;

export class SetUsage {
  private due = new Map<string, number>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private redis: Redis,
    private key: string,
    /** The time marks carry; a test moves it to show a refresh without waiting an hour. */
    readonly now: () => number = Date.now,
  ) {}

  /** Marks `name` used now, on the next flush (not awaited: a search never waits on Redis for this). */
  mark(name: string): void {
    this.due.set(name, this.now());
    this.timer ??= setTimeout(() => void this.flush(), FLUSH_MS).unref();
  }

  /** Writes the waiting marks in one command; kept for the next flush when Redis fails (a set left unmarked would be swept and written again). */
  async flush(): Promise<void> {
    this.timer = null;
    if (!this.due.size) return;
    const marks = this.due;
    this.due = new Map();
    // GT: a process whose clock is behind never moves a mark back.
    const args = [...marks].flatMap(([name, at]) => [at, name]);
    try {
      await this.redis.zadd(this.key, 'GT', ...args);
    } catch {
      for (const [name, at] of marks) if (!this.due.has(name)) this.due.set(name, at);
    }
  }

  /** Sends the waiting marks now (a process stopping): marks left for the timer would be lost with it. */
  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
  }

  /** Each name's last mark (ms), null when it has none, in the order given. */
  async lastUsed(names: string[]): Promise<Array<number | null>> {
    const out: Array<number | null> = [];
    for (let i = 0; i < names.length; i += CHUNK) {
      const scores = await this.redis.zmscore(this.key, ...names.slice(i, i + CHUNK));
      out.push(...scores.map((s) => (s === null ? null : Number(s))));
    }
    return out;
  }

  /** Marks `names` at `at` where they have no mark yet (NX: a mark a process sent meanwhile stays). */
  async markFirstSeen(names: string[], at: number): Promise<void> {
    for (let i = 0; i < names.length; i += CHUNK) {
      await this.redis.zadd(this.key, 'NX', ...names.slice(i, i + CHUNK).flatMap((name) => [at, name]));
    }
  }

  /**
   * Forgets every mark older than `cutoff`: the swept sets' and those of sets gone otherwise (a
   * process's own eviction, a dropped tenant). One by score, so a mark renewed meanwhile stays.
   */
  async forgetBefore(cutoff: number): Promise<void> {
    await this.redis.zremrangebyscore(this.key, '-inf', `(${cutoff}`);
  }
}
