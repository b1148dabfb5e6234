import { describe, expect, it } from "vitest";
import { blockoutCovers, dayNumber, isBlockedOut, type Blockout } from "./blockouts.ts";

const blockout = (
  startsOn: string,
  endsOn: string,
  repeat: Blockout["repeat"] = "none",
  until: string | null = null,
): Blockout => ({
  startsOn,
  endsOn,
  repeat,
  until,
});

/** The dates of `dates` that `b` covers, to compare whole lists at once. */
const covered = (b: Blockout, dates: string[]) => dates.filter((date) => blockoutCovers(b, date));

describe("a one-off blockout", () => {
  it("covers its single date and nothing beside it", () => {
    const b = blockout("2026-03-08", "2026-03-08");
    expect(covered(b, ["2026-03-07", "2026-03-08", "2026-03-09", "2026-03-15"])).toEqual(["2026-03-08"]);
  });

  it("covers a range inclusive of both ends", () => {
    const b = blockout("2026-07-01", "2026-07-14");
    expect(covered(b, ["2026-06-30", "2026-07-01", "2026-07-07", "2026-07-14", "2026-07-15"])).toEqual([
      "2026-07-01",
      "2026-07-07",
      "2026-07-14",
    ]);
  });

  it("crosses a month and a year end", () => {
    const b = blockout("2026-12-28", "2027-01-03");
    expect(covered(b, ["2026-12-27", "2026-12-31", "2027-01-01", "2027-01-03", "2027-01-04"])).toEqual([
      "2026-12-31",
      "2027-01-01",
      "2027-01-03",
    ]);
  });
});

describe("a weekly blockout", () => {
  it("repeats on the same weekday, from its start on, across daylight-saving changes and years", () => {
    const everySunday = blockout("2026-03-01", "2026-03-01", "weekly");
    expect(
      covered(everySunday, [
        "2026-02-22",
        "2026-03-01",
        "2026-03-02",
        "2026-03-08",
        "2026-11-01",
        "2027-01-03",
      ]),
    ).toEqual(["2026-03-01", "2026-03-08", "2026-11-01", "2027-01-03"]);
  });

  it("copies the whole span (every weekend, Saturday and Sunday)", () => {
    const weekends = blockout("2026-02-28", "2026-03-01", "weekly");
    expect(covered(weekends, ["2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09"])).toEqual([
      "2026-03-07",
      "2026-03-08",
    ]);
  });

  it("stops at until (inclusive)", () => {
    const b = blockout("2026-03-01", "2026-03-01", "weekly", "2026-03-29");
    expect(covered(b, ["2026-03-22", "2026-03-29", "2026-04-05"])).toEqual(["2026-03-22", "2026-03-29"]);
  });

  it("keeps a span that starts by until whole, and starts none after it", () => {
    const weekends = blockout("2026-02-28", "2026-03-01", "weekly", "2026-03-14");
    expect(covered(weekends, ["2026-03-14", "2026-03-15", "2026-03-21", "2026-03-22"])).toEqual([
      "2026-03-14",
      "2026-03-15",
    ]);
  });
});

describe("a monthly blockout (the same nth weekday)", () => {
  const firstSundays = blockout("2026-03-01", "2026-03-01", "monthly");

  it("covers every 1st Sunday, including a month whose 1st Sunday is the 7th", () => {
    // April 2026 begins on a Wednesday (1st Sunday the 5th), June on a Monday (the 7th).
    expect(
      covered(firstSundays, [
        "2026-04-05",
        "2026-04-12",
        "2026-05-03",
        "2026-05-31",
        "2026-06-07",
        "2026-06-14",
      ]),
    ).toEqual(["2026-04-05", "2026-05-03", "2026-06-07"]);
  });

  it("is not a same-day-of-month repeat (the 1st is not covered unless it is the 1st Sunday)", () => {
    expect(covered(firstSundays, ["2026-04-01", "2026-06-01", "2026-11-01"])).toEqual(["2026-11-01"]);
  });

  it("continues into the next year (February 2027's 1st Sunday is the 7th)", () => {
    expect(covered(firstSundays, ["2027-01-03", "2027-02-01", "2027-02-07"])).toEqual([
      "2027-01-03",
      "2027-02-07",
    ]);
  });

  it("stops at until", () => {
    const b = blockout("2026-03-01", "2026-03-01", "monthly", "2026-05-31");
    expect(covered(b, ["2026-05-03", "2026-06-07", "2026-07-05"])).toEqual(["2026-05-03"]);
  });

  it("from a 5th weekday, repeats only in months that have a 5th", () => {
    // 5th Sundays of 2026: March 29, May 31, August 30, November 29.
    const fifthSundays = blockout("2026-03-29", "2026-03-29", "monthly");
    expect(
      covered(fifthSundays, [
        "2026-04-26",
        "2026-05-31",
        "2026-06-28",
        "2026-07-26",
        "2026-08-30",
        "2026-11-29",
      ]),
    ).toEqual(["2026-05-31", "2026-08-30", "2026-11-29"]);
    // The month without a 5th Sunday is free throughout (no spill into the next month).
    expect(covered(fifthSundays, ["2026-04-05", "2026-04-30", "2026-05-03"])).toEqual([]);
  });

  it("copies a multi-day span (the 1st Friday through Sunday)", () => {
    const firstWeekend = blockout("2026-03-06", "2026-03-08", "monthly");
    expect(
      covered(firstWeekend, [
        "2026-04-02",
        "2026-04-03",
        "2026-04-04",
        "2026-04-05",
        "2026-04-06",
        "2026-04-10",
      ]),
    ).toEqual(["2026-04-03", "2026-04-04", "2026-04-05"]);
  });
});

describe("isBlockedOut", () => {
  it("is true when any blockout covers the date, false for none", () => {
    const blockouts = [blockout("2026-07-01", "2026-07-14"), blockout("2026-03-01", "2026-03-01", "monthly")];
    expect(isBlockedOut(blockouts, "2026-07-10")).toBe(true);
    expect(isBlockedOut(blockouts, "2026-09-06")).toBe(true);
    expect(isBlockedOut(blockouts, "2026-09-13")).toBe(false);
    expect(isBlockedOut([], "2026-09-06")).toBe(false);
  });

  it("refuses a date that is not YYYY-MM-DD or does not exist", () => {
    expect(() => dayNumber("2026-02-30")).toThrow(RangeError);
    expect(() => dayNumber("2026-3-1")).toThrow(RangeError);
    expect(() => isBlockedOut([blockout("2026-03-01", "2026-03-01")], "01/03/2026")).toThrow(RangeError);
  });
});
