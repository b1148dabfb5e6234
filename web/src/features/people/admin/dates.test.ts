import { describe, expect, it } from "vitest";
import { formatCalendarDate, formatMonthDay } from "../../../i18n/format.ts";
import { todayIn } from "../../../i18n/format.ts";

describe("calendar dates on the staff people screens", () => {
  it("shows a YYYY-MM-DD date as written, whatever the reader's time zone", () => {
    // Parsed as an instant, "2026-12-06" would show as December 5 west of UTC.
    expect(formatCalendarDate("2026-12-06", "en")).toBe("December 6, 2026");
    expect(formatCalendarDate("2026-12-06", "es")).toBe("6 de diciembre de 2026");
    expect(formatCalendarDate("2026-12-06", "en", "full")).toBe("Sunday, December 6, 2026");
  });

  it("leaves something that is not a date alone", () => {
    expect(formatCalendarDate("soon", "en")).toBe("soon");
  });

  it("shows a birthday without its year", () => {
    expect(formatMonthDay(2, 29, "en")).toBe("February 29");
    expect(formatMonthDay(3, 14, "es")).toBe("14 de marzo");
  });

  it("names today's date in the church's zone (export file names)", () => {
    expect(todayIn("America/Chicago")).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
