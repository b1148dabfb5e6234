import { describe, expect, it } from "vitest";
import { ConfigurationError, jobIntervalsFromEnv, redisFromEnv } from "./config.ts";

describe("REDIS_URL (issue 33: what gateway replicas share)", () => {
  it("is off without it: each process counts on its own", () => {
    expect(redisFromEnv({})).toBeNull();
  });

  it("takes the URL and the key prefix, 'flock' by default", () => {
    expect(redisFromEnv({ REDIS_URL: "redis://redis:6379" })).toEqual({
      url: "redis://redis:6379",
      keyPrefix: "flock",
    });
    expect(redisFromEnv({ REDIS_URL: "rediss://r:6380/2", REDIS_KEY_PREFIX: "grace-church" })).toEqual({
      url: "rediss://r:6380/2",
      keyPrefix: "grace-church",
    });
  });

  it("refuses a URL that is not Redis's, without repeating it (it may hold a password)", () => {
    const error = (() => {
      try {
        redisFromEnv({ REDIS_URL: "http://user:s3cret@redis" });
      } catch (thrown) {
        return thrown as Error;
      }
    })();
    expect(error).toBeInstanceOf(ConfigurationError);
    expect(error?.message).toMatch(/redis:\/\//);
    expect(error?.message).not.toContain("s3cret");
  });

  it("refuses a prefix that would mix with other keys", () => {
    expect(() => redisFromEnv({ REDIS_URL: "redis://r", REDIS_KEY_PREFIX: "a b" })).toThrow(
      ConfigurationError,
    );
  });
});

describe("FLOCK_JOB_INTERVALS", () => {
  it("is empty by default: each job keeps its own interval", () => {
    expect(jobIntervalsFromEnv({})).toEqual({});
  });

  it("reads name=ms pairs of the leased jobs", () => {
    expect(jobIntervalsFromEnv({ FLOCK_JOB_INTERVALS: "scheduler=1000, staff-digest=60000" })).toEqual({
      scheduler: 1000,
      "staff-digest": 60000,
    });
  });

  it.each(["mailer=1000", "scheduler=fast", "scheduler=50", "scheduler"])("refuses %s", (value) => {
    expect(() => jobIntervalsFromEnv({ FLOCK_JOB_INTERVALS: value })).toThrow(/FLOCK_JOB_INTERVALS/);
  });
});
