/**
 * In-memory sliding-window counters for throttling (sign-in failures, anonymous forms). PocketBase's
 * own limiter sees only the gateway's IP, so limits per client live here. One gateway process per
 * church is the deployment model; a multi-process deployment would move this to a shared store.
 */
export class RateLimiter {
  private readonly hits = new Map<string, number[]>();
  private lastSweep: number;

  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;

    // From the injected clock, not Date.now(): a clock behind the real one would never sweep.
    this.lastSweep = now();
  }

  /** Seconds until `key` is allowed again, or 0 if it is allowed now. Does not count a hit. */
  retryAfter(key: string, limit: number, windowMs: number): number {
    const recent = this.recent(key, windowMs);
    if (recent.length < limit) return 0;
    const oldest = recent[recent.length - limit]!;
    return Math.max(1, Math.ceil((oldest + windowMs - this.now()) / 1000));
  }

  /** How many more hits `key` may have in the window now. */
  remaining(key: string, limit: number, windowMs: number): number {
    return Math.max(0, limit - this.recent(key, windowMs).length);
  }

  /**
   * Seconds until the oldest hit counted for `key` leaves the window (and the allowance grows by one),
   * 0 when none is counted: the sliding window's "reset", counting down as time passes.
   */
  resetAfter(key: string, windowMs: number): number {
    const oldest = this.recent(key, windowMs)[0];
    return oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + windowMs - this.now()) / 1000));
  }

  /** Count one hit for `key`. */
  hit(key: string, windowMs: number): void {
    const recent = this.recent(key, windowMs);
    recent.push(this.now());
    this.hits.set(key, recent);
    this.sweep(windowMs);
  }

  /** Forget `key` (for example after a successful sign-in). */
  reset(key: string): void {
    this.hits.delete(key);
  }

  private recent(key: string, windowMs: number): number[] {
    const since = this.now() - windowMs;
    return (this.hits.get(key) ?? []).filter((t) => t > since);
  }

  /** Drop stale keys now and then so memory stays bounded by recent activity. */
  private sweep(windowMs: number): void {
    if (this.now() - this.lastSweep < windowMs) return;
    this.lastSweep = this.now();
    for (const key of [...this.hits.keys()]) {
      if (this.recent(key, windowMs).length === 0) this.hits.delete(key);
    }
  }
}
