import { describe, expect, it } from "vitest";
import { formatDateTime, formatWallTime, interpolate, timeZoneName } from "./format.ts";

describe("i18n formatting", () => {
  it("fills placeholders and leaves unknown ones", () => {
    expect(interpolate("Welcome to {church}", { church: "Grace" })).toBe("Welcome to Grace");
    expect(interpolate("{a} {b}", { a: 1 })).toBe("1 {b}");
  });

  it("shows wall-clock service times per language", () => {
    expect(formatWallTime("18:30", "en")).toBe("6:30 PM");
    expect(formatWallTime("18:30", "es")).toBe("18:30");
  });

  it("shows instants in the church's zone and names it when the browser's differs", () => {
    const iso = "2026-03-08T16:00:00.000Z"; // the day US daylight time starts
    expect(formatDateTime(iso, "en", "America/Chicago", "America/Chicago")).toBe("Mar 8, 2026, 11:00 AM");
    expect(formatDateTime(iso, "en", "America/Chicago", "Europe/Madrid")).toMatch(/11:00 AM CDT$/);
    expect(timeZoneName("America/Chicago", "en", new Date("2026-01-10T12:00:00Z"))).toBe(
      "Central Standard Time",
    );
  });
});
