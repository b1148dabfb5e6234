import { RateLimiterMemory, RateLimiterRedis, type RateLimiterRes } from "rate-limiter-flexible";
import { rateLimited } from "../errors.ts";
import { Redis } from "ioredis";

/**
 * Throttling per client (sign-in failures, visitor forms, API tokens). PocketBase's own limiter sees only
 * the gateway's address, so the limits per person and per address live here, behind this one interface:
 * in this process's memory (one gateway, `npm start`), or in Redis when `REDIS_URL` is set, so that
 * gateway replicas share every count (docs/DEPLOYMENT.md, "Several gateway replicas").
 */
export interface RateLimiter {
  /** Seconds until `key` is allowed again, or 0 if it is allowed now. Does not count a hit. */
  retryAfter(key: string, limit: number, windowMs: number): Promise<number>;
  /** Count one hit for `key` (a failed sign-in, a form sent). */
  hit(key: string, windowMs: number): Promise<void>;
  /** Forget `key`'s hits in that window (for example after a successful sign-in). */
  reset(key: string, windowMs: number): Promise<void>;
  /**
   * Count one request for `key` if the window still allows it, in one step (two replicas asking at once
   * cannot both take the last one): whether it was allowed, how many remain, and when the count eases.
   */
  take(key: string, limit: number, windowMs: number): Promise<RateTaken>;
  close(): Promise<void>;
}

export interface RateTaken {
  allowed: boolean;
  /** Seconds to wait when not allowed, else 0. */
  retryAfter: number;
  remaining: number;
  /** Seconds until the allowance grows again (0: nothing counted). */
  resetSeconds: number;
}

/** The limiter for a configuration: shared through Redis when `redisUrl` is set, else this process's. */
export function createRateLimiter(redis: { url: string; keyPrefix: string } | null): RateLimiter {
  return redis ? new RedisRateLimiter(redis.url, redis.keyPrefix) : new MemoryRateLimiter();
}

/** This process's memory: exact sliding windows (SlidingWindows below). */
export class MemoryRateLimiter implements RateLimiter {
  readonly windows: SlidingWindows;
  constructor(now?: () => number) {
    this.windows = new SlidingWindows(now);
  }
  async retryAfter(key: string, limit: number, windowMs: number) {
    return this.windows.retryAfter(key, limit, windowMs);
  }
  async hit(key: string, windowMs: number) {
    this.windows.hit(key, windowMs);
  }
  async reset(key: string) {
    this.windows.reset(key);
  }
  async take(key: string, limit: number, windowMs: number): Promise<RateTaken> {
    const wait = this.windows.retryAfter(key, limit, windowMs);
    if (wait > 0) return { allowed: false, retryAfter: wait, remaining: 0, resetSeconds: wait };
    this.windows.hit(key, windowMs);
    return {
      allowed: true,
      retryAfter: 0,
      remaining: this.windows.remaining(key, limit, windowMs),
      resetSeconds: this.windows.resetAfter(key, windowMs),
    };
  }
  async close() {}
}

/** No count reaches this: the limits are compared here, so one store counter serves every limit. */
const UNBOUNDED = Number.MAX_SAFE_INTEGER;

/**
 * Counts in Redis through rate-limiter-flexible: a fixed window per key that starts with its first hit
 * (Redis expires the key when the window ends), so every replica reads and adds to the same count. If
 * Redis cannot be reached, each replica counts in its own memory meanwhile (the library's insurance
 * limiter) rather than refusing everyone or letting everyone through unbounded.
 */
export class RedisRateLimiter implements RateLimiter {
  private readonly redis: Redis;
  private readonly stores = new Map<number, RateLimiterRedis>();
  private readonly keyPrefix: string;

  constructor(url: string, keyPrefix: string) {
    this.keyPrefix = keyPrefix;
    // No offline queue: while Redis is away a call fails at once and the insurance limiter answers.
    this.redis = new Redis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false });
    // Connection errors are retried by ioredis; the insurance limiter covers the calls meanwhile.
    this.redis.on("error", () => undefined);
  }

  /** One store per window length: its keys expire with the window. */
  private store(windowMs: number): RateLimiterRedis {
    let store = this.stores.get(windowMs);
    if (!store) {
      const duration = Math.max(1, Math.ceil(windowMs / 1000));
      store = new RateLimiterRedis({
        storeClient: this.redis,
        keyPrefix: `${this.keyPrefix}:rate:${windowMs}`,
        points: UNBOUNDED,
        duration,
        insuranceLimiter: new RateLimiterMemory({ points: UNBOUNDED, duration }),
      });
      this.stores.set(windowMs, store);
    }
    return store;
  }

  async retryAfter(key: string, limit: number, windowMs: number) {
    const counted = await this.store(windowMs).get(key);
    if (!counted || counted.consumedPoints < limit) return 0;
    return seconds(counted);
  }

  async hit(key: string, windowMs: number) {
    await this.store(windowMs).penalty(key, 1);
  }

  async reset(key: string, windowMs: number) {
    await this.store(windowMs).delete(key);
  }

  async take(key: string, limit: number, windowMs: number): Promise<RateTaken> {
    // The store's increment is atomic; a request over the limit is refused (and counted, which cannot
    // lengthen a fixed window).
    const counted = await this.store(windowMs).consume(key, 1);
    const allowed = counted.consumedPoints <= limit;
    return {
      allowed,
      retryAfter: allowed ? 0 : seconds(counted),
      remaining: Math.max(0, limit - counted.consumedPoints),
      resetSeconds: seconds(counted),
    };
  }

  async close() {
    this.redis.disconnect();
  }
}

const seconds = (counted: RateLimiterRes) => Math.max(1, Math.ceil(counted.msBeforeNext / 1000));

/**
 * In-memory sliding-window counters: exact, for one process (MemoryRateLimiter) and the unit tests.
 */
export class SlidingWindows {
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

/**
 * Count one use of `key` (a visitor's form, a registration tried) or refuse it with RATE_LIMITED and the
 * seconds to wait when the window has had `limit` already.
 */
export async function takeOrRefuse(
  limiter: RateLimiter,
  key: string,
  limit: number,
  windowMs: number,
): Promise<void> {
  const taken = await limiter.take(key, limit, windowMs);
  if (!taken.allowed) throw rateLimited(taken.retryAfter);
}
