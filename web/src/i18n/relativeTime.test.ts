import { describe, expect, it } from "vitest";
import { relativeTime } from "./relativeTime.ts";

const now = Date.parse("2026-03-10T12:00:00Z");
const ago = (seconds: number) => new Date(now - seconds * 1000).toISOString();

describe("relativeTime", () => {
  it("says now under a minute", () => {
    expect(relativeTime(ago(20), "en", now)).toBe("now");
    expect(relativeTime(ago(20), "es", now)).toBe("ahora");
  });

  it("picks the largest unit that fits", () => {
    expect(relativeTime(ago(5 * 60), "en", now)).toBe("5 minutes ago");
    expect(relativeTime(ago(3 * 3600), "en", now)).toBe("3 hours ago");
    expect(relativeTime(ago(26 * 3600), "en", now)).toBe("yesterday");
    expect(relativeTime(ago(3 * 86400), "es", now)).toBe("hace 3 días");
    expect(relativeTime(ago(20 * 86400), "en", now)).toBe("3 weeks ago");
    expect(relativeTime(ago(400 * 86400), "en", now)).toBe("last year");
  });

  it("returns nothing for an invalid date", () => {
    expect(relativeTime("not a date", "en", now)).toBe("");
  });
});
