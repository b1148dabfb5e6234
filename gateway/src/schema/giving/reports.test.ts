import { describe, expect, it } from "vitest";
import {
  decimalAmount,
  lapsedUnits,
  lapsedWindows,
  reportPeriod,
  tallyByUnit,
  unitKeyOf,
} from "./reports.ts";

const gift = (person: string, givingUnit: string, date: string, amountCents: number) => ({
  person,
  givingUnit,
  date: `${date} 00:00:00.000Z`,
  amountCents,
});

describe("giving reports", () => {
  it("count a gift for its household, or its donor giving individually, and never an anonymous one", () => {
    expect(unitKeyOf({ person: "p1", givingUnit: "h1" })).toBe("household:h1");
    expect(unitKeyOf({ person: "p1", givingUnit: "" })).toBe("person:p1");
    expect(unitKeyOf({ person: "", givingUnit: "" })).toBeNull();
    const units = tallyByUnit([
      gift("p1", "h1", "2026-03-01", 1000),
      gift("p2", "h1", "2026-01-04", 2500),
      gift("p3", "", "2026-02-01", 700),
      gift("", "", "2026-02-01", 5000),
    ]);
    expect([...units.keys()]).toEqual(["household:h1", "person:p3"]);
    expect(units.get("household:h1")).toMatchObject({
      donors: new Set(["p1", "p2"]),
      firstGiftDate: "2026-01-04",
      lastGiftDate: "2026-03-01",
      gifts: 2,
      amountCents: 3500,
    });
  });

  it("call a unit lapsed when it gave in the look-back but not in its quiet months", () => {
    const windows = lapsedWindows("2026-11-28", 12, 3);
    expect(windows).toEqual({ since: "2025-11-28", quietSince: "2026-08-28", asOf: "2026-11-28" });
    const units = tallyByUnit([
      gift("a", "ha", "2026-01-10", 100),
      gift("a", "ha", "2026-08-28", 100), // the quiet months start after this day
      gift("b", "hb", "2026-03-01", 100),
      gift("b", "hb", "2026-09-01", 100), // still giving
      gift("c", "", "2025-12-01", 100),
    ]);
    expect(lapsedUnits(units.values(), windows.quietSince).map((u) => u.key)).toEqual([
      "person:c",
      "household:ha",
    ]);
  });

  it("write amounts exactly and refuse a period that ends before it starts", () => {
    expect(decimalAmount(123450)).toBe("1234.50");
    expect(decimalAmount(5)).toBe("0.05");
    expect(reportPeriod({ from: "2026-01-01", to: "2026-12-31" })).toEqual({
      from: "2026-01-01",
      to: "2026-12-31",
    });
    expect(() => reportPeriod({ from: "2026-02-01", to: "2026-01-31" })).toThrow(/correct/);
    expect(() => reportPeriod({ from: "2020-01-01", to: "2026-01-31" })).toThrow(/correct/);
  });
});
