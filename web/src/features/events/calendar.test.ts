import { describe, expect, it } from "vitest";
import { addDays, monthGrid, shiftMonth, startOfWeek } from "./calendar.ts";

describe("calendar arithmetic", () => {
  it("pages by month across year ends and short months", () => {
    expect(shiftMonth("2026-12-15", 1)).toBe("2027-01-01");
    expect(shiftMonth("2026-03-31", -1)).toBe("2026-02-01");
  });
  it("builds whole Sunday-first weeks around a month", () => {
    const grid = monthGrid("2026-11-25");
    expect(grid.days[0]).toBe("2026-11-01");
    expect(grid.days.length % 7).toBe(0);
    expect(grid.days.at(-1)).toBe("2026-12-05");
    expect(startOfWeek("2026-11-25")).toBe("2026-11-22");
    expect(addDays("2026-03-07", 2)).toBe("2026-03-09");
  });
});
