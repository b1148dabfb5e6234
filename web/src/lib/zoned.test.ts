import { describe, expect, it } from "vitest";
import { localInput, zonedToIso } from "./zoned.ts";

describe("the editor's local times in the event's zone", () => {
  it("converts wall-clock times to instants and back, on both sides of daylight-saving changes", () => {
    expect(zonedToIso("2026-01-04T10:00", "America/New_York")).toBe("2026-01-04T15:00:00.000Z");
    expect(zonedToIso("2026-07-05T10:00", "America/New_York")).toBe("2026-07-05T14:00:00.000Z");
    // London skips 01:00–02:00 on 29 March 2026: a skipped time moves forward (01:30 → 02:30 BST).
    expect(zonedToIso("2026-03-29T00:30", "Europe/London")).toBe("2026-03-29T00:30:00.000Z");
    expect(zonedToIso("2026-03-29T01:30", "Europe/London")).toBe("2026-03-29T01:30:00.000Z");
    expect(zonedToIso("2026-03-29T02:30", "Europe/London")).toBe("2026-03-29T01:30:00.000Z");
    // New York repeats 01:00–02:00 on 1 November 2026: the earlier one (EDT).
    expect(zonedToIso("2026-11-01T01:30", "America/New_York")).toBe("2026-11-01T05:30:00.000Z");
    expect(zonedToIso("2026-03-08T02:30", "America/New_York")).toBe("2026-03-08T07:30:00.000Z");
    expect(zonedToIso("2026-10-25T09:00", "Europe/London")).toBe("2026-10-25T09:00:00.000Z");
    expect(zonedToIso("2026-06-01T00:00", "Asia/Kolkata")).toBe("2026-05-31T18:30:00.000Z");
    for (const [iso, zone] of [
      ["2026-11-01T05:30:00.000Z", "America/New_York"],
      ["2026-10-25T00:30:00.000Z", "Europe/London"],
      ["2026-12-31T23:45:00.000Z", "Pacific/Auckland"],
      ["2026-03-08T12:00:00.000Z", "America/Chicago"],
    ] as const) {
      expect(zonedToIso(localInput(iso, zone), zone)).toBe(iso);
    }
  });

  it("answers null for text that is not a date and time", () => {
    expect(zonedToIso("", "UTC")).toBeNull();
    expect(zonedToIso("2026-13-45T10:00", "UTC")).toBeNull();
    expect(zonedToIso("tomorrow", "UTC")).toBeNull();
  });
});
