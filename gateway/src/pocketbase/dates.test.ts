import { describe, expect, it } from "vitest";
import {
  fromPocketBaseDate,
  fromPocketBaseDateOrNull,
  isPocketBaseDate,
  parsePocketBaseDate,
  pocketBaseNow,
  toPocketBaseDate,
} from "./dates.ts";

describe("PocketBase dates", () => {
  it("writes a Date, epoch milliseconds or an ISO string in PocketBase's form", () => {
    const date = new Date("2026-11-21T19:47:34.510Z");
    expect(toPocketBaseDate(date)).toBe("2026-11-21 19:47:34.510Z");
    expect(toPocketBaseDate(date.getTime())).toBe("2026-11-21 19:47:34.510Z");
    expect(toPocketBaseDate("2026-11-21T19:47:34.510Z")).toBe("2026-11-21 19:47:34.510Z");
    expect(toPocketBaseDate("2026-11-21T20:47:34.510+01:00")).toBe("2026-11-21 19:47:34.510Z");
  });

  it("refuses an invalid date rather than writing garbage", () => {
    expect(() => toPocketBaseDate("not a date")).toThrow(RangeError);
  });

  it("reads PocketBase's form back as ISO-8601, the same instant", () => {
    expect(fromPocketBaseDate("2026-11-21 19:47:34.510Z")).toBe("2026-11-21T19:47:34.510Z");
    expect(parsePocketBaseDate("2026-11-21 19:47:34.510Z").getTime()).toBe(
      Date.parse("2026-11-21T19:47:34.510Z"),
    );
    const now = pocketBaseNow();
    expect(Math.abs(parsePocketBaseDate(now).getTime() - Date.now())).toBeLessThan(60_000);
    expect(toPocketBaseDate(fromPocketBaseDate("2026-01-02 03:04:05.006Z"))).toBe("2026-01-02 03:04:05.006Z");
  });

  it("keeps an unset date unset", () => {
    expect(fromPocketBaseDate("")).toBe("");
    expect(fromPocketBaseDateOrNull("")).toBeNull();
    expect(fromPocketBaseDateOrNull(null)).toBeNull();
    expect(fromPocketBaseDateOrNull(undefined)).toBeNull();
    expect(fromPocketBaseDateOrNull("2026-11-21 19:47:34Z")).toBe("2026-11-21T19:47:34Z");
  });

  it("tells PocketBase datetimes from other strings", () => {
    expect(isPocketBaseDate("2026-11-21 19:47:34.510Z")).toBe(true);
    expect(isPocketBaseDate("2026-11-21 19:47:34Z")).toBe(true);
    expect(isPocketBaseDate("2026-11-21T19:47:34.510Z")).toBe(false);
    expect(isPocketBaseDate("2026-11-21")).toBe(false);
    expect(isPocketBaseDate("Sunday 2026-11-21 19:47:34.510Z")).toBe(false);
    expect(isPocketBaseDate(42)).toBe(false);
  });
});
