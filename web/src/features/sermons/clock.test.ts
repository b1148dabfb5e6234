import { describe, expect, it } from "vitest";
import { formatClock, parseStartTime } from "./clock.ts";

describe("player clock", () => {
  it("formats seconds as m:ss or h:mm:ss", () => {
    expect(formatClock(754)).toBe("12:34");
    expect(formatClock(5)).toBe("0:05");
    expect(formatClock(3725)).toBe("1:02:05");
    expect(formatClock(Number.NaN)).toBe("0:00");
  });

  it("reads ?t= as seconds, m:ss or 1h2m5s", () => {
    expect(parseStartTime("754")).toBe(754);
    expect(parseStartTime("12:34")).toBe(754);
    expect(parseStartTime("1:02:05")).toBe(3725);
    expect(parseStartTime("12m34s")).toBe(754);
    expect(parseStartTime("abc")).toBeNull();
    expect(parseStartTime(null)).toBeNull();
  });
});
