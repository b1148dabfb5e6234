import { describe, expect, it } from "vitest";
import { RedisRateLimiter, SlidingWindows } from "./rate-limiter.ts";

const MINUTE = 60_000;

/** A limiter on a clock the test moves. */
function limiterAt(start = 1_000_000) {
  const clock = { now: start };
  return { limiter: new SlidingWindows(() => clock.now), clock };
}

describe("SlidingWindows", () => {
  it("allows up to `limit` hits in the window, then asks to wait", () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 5; i++) {
      expect(limiter.retryAfter("k", 5, 15 * MINUTE)).toBe(0);
      limiter.hit("k", 15 * MINUTE);
    }
    expect(limiter.retryAfter("k", 5, 15 * MINUTE)).toBe(15 * 60);
  });

  it("asking does not count as a hit", () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 10; i++) expect(limiter.retryAfter("k", 1, MINUTE)).toBe(0);
  });

  it("the wait is until the oldest counted hit leaves the window (a sliding window)", () => {
    const { limiter, clock } = limiterAt();
    limiter.hit("k", 10 * MINUTE); // t = 0
    clock.now += 4 * MINUTE;
    limiter.hit("k", 10 * MINUTE); // t = 4 min
    clock.now += MINUTE; // t = 5 min
    expect(limiter.retryAfter("k", 2, 10 * MINUTE)).toBe(5 * 60);
    clock.now += 5 * MINUTE - 1; // the first hit is about to leave
    expect(limiter.retryAfter("k", 2, 10 * MINUTE)).toBe(1);
    clock.now += 1;
    expect(limiter.retryAfter("k", 2, 10 * MINUTE)).toBe(0);
    // The second hit still counts: one more is allowed, then the wait runs to t = 14 min.
    limiter.hit("k", 10 * MINUTE);
    expect(limiter.retryAfter("k", 2, 10 * MINUTE)).toBe(4 * 60);
  });

  it("never answers less than one second while limited", () => {
    const { limiter, clock } = limiterAt();
    limiter.hit("k", 1000);
    clock.now += 999.5;
    expect(limiter.retryAfter("k", 1, 1000)).toBe(1);
  });

  it("counts keys separately", () => {
    const { limiter } = limiterAt();
    limiter.hit("signin:account:a@x.example", MINUTE);
    expect(limiter.retryAfter("signin:account:a@x.example", 1, MINUTE)).toBeGreaterThan(0);
    expect(limiter.retryAfter("signin:account:b@x.example", 1, MINUTE)).toBe(0);
  });

  it("reset forgets a key", () => {
    const { limiter } = limiterAt();
    for (let i = 0; i < 3; i++) limiter.hit("k", MINUTE);
    limiter.hit("other", MINUTE);
    limiter.reset("k");
    expect(limiter.retryAfter("k", 1, MINUTE)).toBe(0);
    expect(limiter.retryAfter("other", 1, MINUTE)).toBeGreaterThan(0);
  });

  it("drops stale keys, so memory follows recent activity only", () => {
    const { limiter, clock } = limiterAt();
    for (let i = 0; i < 100; i++) limiter.hit(`ip:${i}`, MINUTE);
    clock.now += 2 * MINUTE;
    limiter.hit("ip:new", MINUTE); // a hit after a window has passed sweeps
    expect((limiter as unknown as { hits: Map<string, number[]> }).hits.size).toBe(1);
  });

  it("the reset counts down: seconds until the oldest counted hit leaves the window", () => {
    const { limiter, clock } = limiterAt();
    expect(limiter.resetAfter("k", MINUTE)).toBe(0);
    limiter.hit("k", MINUTE);
    expect(limiter.resetAfter("k", MINUTE)).toBe(60);
    clock.now += 20_000;
    limiter.hit("k", MINUTE);
    expect(limiter.resetAfter("k", MINUTE)).toBe(40);
    clock.now += 39_500;
    expect(limiter.resetAfter("k", MINUTE)).toBe(1);
    clock.now += 500; // the first hit has left; the second's turn
    expect(limiter.resetAfter("k", MINUTE)).toBe(20);
  });
});

describe("RedisRateLimiter while Redis cannot be reached", () => {
  it("counts in this process's memory meanwhile: nobody is locked out, and the limit still holds", async () => {
    // Port 1: nothing listens, so every Redis call fails at once (no offline queue).
    const limiter = new RedisRateLimiter("redis://127.0.0.1:1", "test");
    try {
      const taken = [];
      for (let i = 0; i < 3; i++) taken.push(await limiter.take("token", 2, 60_000));
      expect(taken.map((t) => t.allowed)).toEqual([true, true, false]);
      expect(taken[2]!.retryAfter).toBeGreaterThan(0);
      await limiter.hit("signin", 60_000);
      expect(await limiter.retryAfter("signin", 1, 60_000)).toBeGreaterThan(0);
      await limiter.reset("signin", 60_000);
      expect(await limiter.retryAfter("signin", 1, 60_000)).toBe(0);
    } finally {
      await limiter.close();
    }
  });
});
