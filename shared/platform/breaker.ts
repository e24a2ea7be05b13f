/** When a breaker opens and how long it stays open (config: PROVIDER_BREAKER_*). */
export interface BreakerOptions {
  /** Consecutive failures (errors, timeouts) that open it. */
  failures: number;
  /** The first cool-down; each failed probe doubles it, up to `maxCoolDownMs`. */
  coolDownMs: number;
  maxCoolDownMs: number;
}

export const BREAKER_DEFAULTS: BreakerOptions = { failures: 5, coolDownMs: 30_000, maxCoolDownMs: 300_000 };

/**
 * A per-process circuit breaker for one outside provider on the search path (the query embedder,
 * the AI rewrite model): after `failures` consecutive failures the provider is not called for a
 * cool-down, so a search does not wait on a provider that is down; then one call is let through as
 * a probe (half-open). The probe's success closes it; its failure opens it again for twice as long
 * (up to the cap). A caller that `allow()` let through reports `success()`, `failure()`, or
 * `release()` (it did not call the provider after all). No timers: `now` is read on each call.
 */
export class Breaker {
  private failed = 0;
  private openUntil = 0;
  private coolDown: number;
  private probing = false;

  constructor(
    private opts: BreakerOptions = BREAKER_DEFAULTS,
    private now: () => number = Date.now,
  ) {
    this.coolDown = opts.coolDownMs;
  }

  /** Whether to call the provider now: closed, or the cool-down is over and no probe is out. */
  allow(): boolean {
    if (this.failed < this.opts.failures) return true;
    if (this.probing || this.now() < this.openUntil) return false;
    this.probing = true;
    return true;
  }

  /** Open: calls are skipped (until the cool-down ends and a probe is let through). */
  get open(): boolean {
    return this.failed >= this.opts.failures;
  }

  success(): void {
    this.failed = 0;
    this.probing = false;
    this.coolDown = this.opts.coolDownMs;
  }

  failure(): void {
    if (this.probing) {
      this.probing = false;
      this.coolDown = Math.min(this.coolDown * 2, this.opts.maxCoolDownMs);
      this.openUntil = this.now() + this.coolDown;
      return;
    }
    // Failures of calls let through before it opened (in flight meanwhile) do not extend the cool-down.
    if (this.open) return;
    if (++this.failed >= this.opts.failures) this.openUntil = this.now() + this.coolDown;
  }

  /** The call `allow()` let through was not made: a probe's place is free again. */
  release(): void {
    this.probing = false;
  }
}
