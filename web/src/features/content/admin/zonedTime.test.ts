import { describe, expect, it } from "vitest";
import { instantToWallTime, wallTimeToInstant } from "./zonedTime.ts";

describe("wall times in the church's zone", () => {
  it("reads a datetime-local value in the given zone, not the browser's", () => {
    expect(wallTimeToInstant("2026-12-01T10:00", "America/Chicago")).toBe("2026-12-01T16:00:00.000Z");
    expect(wallTimeToInstant("2026-07-01T10:00", "America/Chicago")).toBe("2026-07-01T15:00:00.000Z");
    expect(wallTimeToInstant("2026-07-01T10:00", "Europe/Madrid")).toBe("2026-07-01T08:00:00.000Z");
    expect(wallTimeToInstant("2026-01-15T09:30", "Asia/Kolkata")).toBe("2026-01-15T04:00:00.000Z");
    expect(wallTimeToInstant("2026-01-15T09:30", "UTC")).toBe("2026-01-15T09:30:00.000Z");
  });

  it("moves a time that does not exist (clocks go forward) past the gap", () => {
    // Chicago, 8 March 2026: 02:00 CST becomes 03:00 CDT.
    expect(wallTimeToInstant("2026-03-08T02:30", "America/Chicago")).toBe("2026-03-08T08:30:00.000Z");
    expect(instantToWallTime("2026-03-08T08:30:00.000Z", "America/Chicago")).toBe("2026-03-08T03:30");
  });

  it("takes the first of a time that happens twice (clocks go back)", () => {
    // Chicago, 1 November 2026: 01:30 CDT (06:30Z) and then 01:30 CST (07:30Z).
    expect(wallTimeToInstant("2026-11-01T01:30", "America/Chicago")).toBe("2026-11-01T06:30:00.000Z");
  });

  it("round-trips and refuses what is not a datetime-local value", () => {
    for (const zone of ["America/Chicago", "Europe/Madrid", "Australia/Lord_Howe", "Pacific/Auckland"]) {
      const iso = wallTimeToInstant("2026-10-04T18:45", zone)!;
      expect(instantToWallTime(iso, zone)).toBe("2026-10-04T18:45");
    }
    expect(wallTimeToInstant("", "America/Chicago")).toBeNull();
    expect(wallTimeToInstant("2026-10-04 18:45", "America/Chicago")).toBeNull();
  });
});
