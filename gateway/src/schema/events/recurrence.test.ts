import { describe, expect, it } from "vitest";
import { Temporal } from "temporal-polyfill";
import {
  expand,
  firstOccurrence,
  formatRRule,
  isTimeZone,
  parseRRule,
  RecurrenceError,
  splitSeries,
  type Series,
} from "./recurrence.ts";

const zdt = (local: string, zone: string) => Temporal.PlainDateTime.from(local).toZonedDateTime(zone);
const instant = (iso: string) => Temporal.Instant.from(iso);

function series(
  startLocal: string,
  zone: string,
  rrule: string | null,
  options: { minutes?: number; exdates?: string[] } = {},
): Series {
  const start = zdt(startLocal, zone);
  return {
    start,
    end: start.add({ minutes: options.minutes ?? 60 }),
    rule: rrule ? parseRRule(rrule, zone) : null,
    exdates: (options.exdates ?? []).map((d) => Temporal.PlainDateTime.from(d)),
  };
}
/** Local starts ("2026-03-08T10:00") of the occurrences in [from, to). */
const locals = (s: Series, from: string, to: string) =>
  expand(s, instant(from), instant(to)).map((o) =>
    o.start.toPlainDateTime().toString({ smallestUnit: "minute" }),
  );
const offsets = (s: Series, from: string, to: string) =>
  expand(s, instant(from), instant(to)).map((o) => o.start.offset);

describe("weekly service across daylight-saving changes", () => {
  it("stays at 10:00 local in America/New_York through March and November changes", () => {
    const s = series("2026-01-04T10:00", "America/New_York", "FREQ=WEEKLY;BYDAY=SU");
    const march = locals(s, "2026-03-01T00:00Z", "2026-03-16T00:00Z");
    expect(march).toEqual(["2026-03-01T10:00", "2026-03-08T10:00", "2026-03-15T10:00"]);
    expect(offsets(s, "2026-03-01T00:00Z", "2026-03-16T00:00Z")).toEqual(["-05:00", "-04:00", "-04:00"]);
    const nov = expand(s, instant("2026-10-25T00:00Z"), instant("2026-11-09T00:00Z"));
    expect(nov.map((o) => o.start.toPlainDateTime().toString({ smallestUnit: "minute" }))).toEqual([
      "2026-10-25T10:00",
      "2026-11-01T10:00",
      "2026-11-08T10:00",
    ]);
    expect(nov.map((o) => o.start.toInstant().toString())).toEqual([
      "2026-10-25T14:00:00Z",
      "2026-11-01T15:00:00Z",
      "2026-11-08T15:00:00Z",
    ]);
  });

  it("stays at 10:00 local in Europe/London through March and October changes", () => {
    const s = series("2026-01-04T10:00", "Europe/London", "FREQ=WEEKLY;BYDAY=SU");
    const spring = expand(s, instant("2026-03-22T00:00Z"), instant("2026-04-06T00:00Z"));
    expect(spring.map((o) => o.start.toInstant().toString())).toEqual([
      "2026-03-22T10:00:00Z",
      "2026-03-29T09:00:00Z",
      "2026-04-05T09:00:00Z",
    ]);
    const autumn = expand(s, instant("2026-10-18T00:00Z"), instant("2026-11-02T00:00Z"));
    expect(autumn.map((o) => o.start.toInstant().toString())).toEqual([
      "2026-10-18T09:00:00Z",
      "2026-10-25T10:00:00Z",
      "2026-11-01T10:00:00Z",
    ]);
    expect(autumn.every((o) => o.start.hour === 10 && o.end.hour === 11)).toBe(true);
  });

  it("keeps the wall-clock length of an event that spans the change night", () => {
    const s = series("2026-03-06T22:00", "America/New_York", "FREQ=DAILY;COUNT=2", { minutes: 8 * 60 });
    const [night, ...rest] = expand(s, instant("2026-03-07T12:00Z"), instant("2026-03-09T00:00Z"));
    expect(rest).toEqual([]);
    expect(night!.start.toPlainDateTime().toString({ smallestUnit: "minute" })).toBe("2026-03-07T22:00");
    expect(night!.end.toPlainDateTime().toString({ smallestUnit: "minute" })).toBe("2026-03-08T06:00");
    expect(night!.start.until(night!.end).total("hours")).toBe(7); // one hour fewer that night
  });

  it("moves a start inside the spring-forward gap forward by the gap (RFC 5545 §3.3.5)", () => {
    const s = series("2026-03-01T02:30", "America/New_York", "FREQ=WEEKLY");
    expect(locals(s, "2026-03-08T00:00Z", "2026-03-09T00:00Z")).toEqual(["2026-03-08T03:30"]);
    expect(locals(s, "2026-03-15T00:00Z", "2026-03-16T00:00Z")).toEqual(["2026-03-15T02:30"]);
  });
});

describe("monthly and yearly rules", () => {
  it("2nd Sunday of every month", () => {
    const s = series("2026-01-11T12:30", "America/Chicago", "FREQ=MONTHLY;BYDAY=2SU");
    expect(locals(s, "2026-01-01T00:00Z", "2026-06-01T00:00Z")).toEqual([
      "2026-01-11T12:30",
      "2026-02-08T12:30",
      "2026-03-08T12:30",
      "2026-04-12T12:30",
      "2026-05-10T12:30",
    ]);
  });

  it("last Friday of every month", () => {
    const s = series("2026-01-30T19:00", "Europe/London", "FREQ=MONTHLY;BYDAY=-1FR");
    expect(locals(s, "2026-01-01T00:00Z", "2026-05-01T00:00Z")).toEqual([
      "2026-01-30T19:00",
      "2026-02-27T19:00",
      "2026-03-27T19:00",
      "2026-04-24T19:00",
    ]);
  });

  it("the 31st skips months without one; BYMONTHDAY=-1 is every month's last day", () => {
    const s = series("2026-01-31T09:00", "UTC", "FREQ=MONTHLY;COUNT=4");
    expect(locals(s, "2026-01-01T00:00Z", "2027-01-01T00:00Z")).toEqual([
      "2026-01-31T09:00",
      "2026-03-31T09:00",
      "2026-05-31T09:00",
      "2026-07-31T09:00",
    ]);
    const last = series("2026-01-31T09:00", "UTC", "FREQ=MONTHLY;BYMONTHDAY=-1;COUNT=3");
    expect(locals(last, "2026-01-01T00:00Z", "2027-01-01T00:00Z")).toEqual([
      "2026-01-31T09:00",
      "2026-02-28T09:00",
      "2026-03-31T09:00",
    ]);
  });

  it("a leap-day yearly event only falls on 29 February", () => {
    const s = series("2028-02-29T10:00", "UTC", "FREQ=YEARLY;COUNT=2");
    expect(locals(s, "2028-01-01T00:00Z", "2040-01-01T00:00Z")).toEqual([
      "2028-02-29T10:00",
      "2032-02-29T10:00",
    ]);
  });

  it("yearly by month and ordinal weekday (Thanksgiving: 4th Thursday of November)", () => {
    const s = series("2026-11-26T11:00", "America/New_York", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH");
    expect(locals(s, "2026-01-01T00:00Z", "2029-01-01T00:00Z")).toEqual([
      "2026-11-26T11:00",
      "2027-11-25T11:00",
      "2028-11-23T11:00",
    ]);
  });

  it("every 2 weeks on Tuesday and Thursday, and every other day", () => {
    const s = series("2026-01-06T19:00", "UTC", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH");
    expect(locals(s, "2026-01-01T00:00Z", "2026-02-01T00:00Z")).toEqual([
      "2026-01-06T19:00",
      "2026-01-08T19:00",
      "2026-01-20T19:00",
      "2026-01-22T19:00",
    ]);
    const daily = series("2026-01-01T07:00", "UTC", "FREQ=DAILY;INTERVAL=2;COUNT=3");
    expect(locals(daily, "2026-01-01T00:00Z", "2026-02-01T00:00Z")).toEqual([
      "2026-01-01T07:00",
      "2026-01-03T07:00",
      "2026-01-05T07:00",
    ]);
  });
});

describe("COUNT, UNTIL and EXDATE", () => {
  it("COUNT counts from the start, also when the range begins later", () => {
    const s = series("2026-01-04T10:00", "America/New_York", "FREQ=WEEKLY;COUNT=5");
    expect(locals(s, "2026-01-20T00:00Z", "2027-01-01T00:00Z")).toEqual([
      "2026-01-25T10:00",
      "2026-02-01T10:00",
    ]);
  });

  it("UNTIL is inclusive, in UTC or as a date", () => {
    const utc = series("2026-01-04T10:00", "America/New_York", "FREQ=WEEKLY;UNTIL=20260118T150000Z");
    expect(locals(utc, "2026-01-01T00:00Z", "2027-01-01T00:00Z")).toEqual([
      "2026-01-04T10:00",
      "2026-01-11T10:00",
      "2026-01-18T10:00",
    ]);
    const date = series("2026-01-04T10:00", "America/New_York", "FREQ=WEEKLY;UNTIL=20260111");
    expect(locals(date, "2026-01-01T00:00Z", "2027-01-01T00:00Z")).toEqual([
      "2026-01-04T10:00",
      "2026-01-11T10:00",
    ]);
  });

  it("EXDATE removes one occurrence and COUNT still counts it", () => {
    const s = series("2026-01-04T10:00", "America/New_York", "FREQ=WEEKLY;COUNT=3", {
      exdates: ["2026-01-11T10:00"],
    });
    expect(locals(s, "2026-01-01T00:00Z", "2027-01-01T00:00Z")).toEqual([
      "2026-01-04T10:00",
      "2026-01-18T10:00",
    ]);
  });

  it("a one-off event is its own single occurrence", () => {
    const s = series("2026-05-02T18:00", "Europe/London", null);
    expect(locals(s, "2026-05-01T00:00Z", "2026-06-01T00:00Z")).toEqual(["2026-05-02T18:00"]);
    expect(locals(s, "2026-06-01T00:00Z", "2026-07-01T00:00Z")).toEqual([]);
  });
});

describe("splitting a series (this and following)", () => {
  it("ends the head before the split and continues the tail from it, exdates shared out", () => {
    const s = series("2026-01-04T10:00", "America/New_York", "FREQ=WEEKLY;BYDAY=SU", {
      exdates: ["2026-01-11T10:00", "2026-02-08T10:00"],
    });
    const { head, tail } = splitSeries(s, zdt("2026-02-01T10:00", "America/New_York"));
    expect(locals(head!, "2026-01-01T00:00Z", "2027-01-01T00:00Z")).toEqual([
      "2026-01-04T10:00",
      "2026-01-18T10:00",
      "2026-01-25T10:00",
    ]);
    expect(locals(tail, "2026-01-01T00:00Z", "2026-02-23T00:00Z")).toEqual([
      "2026-02-01T10:00",
      "2026-02-15T10:00",
      "2026-02-22T10:00",
    ]);
    const whole = locals(s, "2026-01-01T00:00Z", "2026-02-23T00:00Z");
    expect([
      ...locals(head!, "2026-01-01T00:00Z", "2026-02-23T00:00Z"),
      ...locals(tail, "2026-01-01T00:00Z", "2026-02-23T00:00Z"),
    ]).toEqual(whole);
  });

  it("shares COUNT out between the two halves", () => {
    const s = series("2026-01-04T10:00", "UTC", "FREQ=WEEKLY;COUNT=6");
    const { head, tail } = splitSeries(s, zdt("2026-01-25T10:00", "UTC"));
    expect(head!.rule!.count).toBe(3);
    expect(tail.rule!.count).toBe(3);
    expect(locals(tail, "2026-01-01T00:00Z", "2027-01-01T00:00Z")).toEqual([
      "2026-01-25T10:00",
      "2026-02-01T10:00",
      "2026-02-08T10:00",
    ]);
  });
});

describe("rules that cannot be used", () => {
  it("refuses unknown parts, bad values and COUNT with UNTIL", () => {
    expect(() => parseRRule("FREQ=HOURLY", "UTC")).toThrow(RecurrenceError);
    expect(() => parseRRule("FREQ=WEEKLY;BYHOUR=10", "UTC")).toThrow(/not supported/);
    expect(() => parseRRule("FREQ=WEEKLY;BYDAY=XX", "UTC")).toThrow(/BYDAY/);
    expect(() => parseRRule("FREQ=WEEKLY;COUNT=2;UNTIL=20270101", "UTC")).toThrow(/COUNT and UNTIL/);
    expect(() => parseRRule("FREQ=WEEKLY;BYDAY=2SU", "UTC")).toThrow(/ordinals/);
  });

  it("finds no first occurrence for a rule that yields nothing (30 February)", () => {
    expect(
      firstOccurrence(series("2026-01-30T10:00", "UTC", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30")),
    ).toBeNull();
    expect(firstOccurrence(series("2026-01-04T10:00", "UTC", "FREQ=WEEKLY;UNTIL=20251231"))).toBeNull();
    expect(firstOccurrence(series("2026-01-04T10:00", "UTC", "FREQ=WEEKLY"))?.start.day).toBe(4);
  });

  it("keeps a zero-length occurrence that starts where the range starts", () => {
    const start = zdt("2027-01-10T10:00", "America/Chicago");
    const rule = parseRRule("FREQ=MONTHLY;BYDAY=2SU", "America/Chicago");
    const dates = expand(
      { start, end: start, rule },
      start.toInstant(),
      start.toInstant().add({ hours: 24 * 70 }),
    );
    expect(dates.map((o) => o.start.toPlainDate().toString())).toEqual([
      "2027-01-10",
      "2027-02-14",
      "2027-03-14",
    ]);
  });

  it("knows IANA zones", () => {
    expect(isTimeZone("America/New_York")).toBe(true);
    expect(isTimeZone("Mars/Olympus_Mons")).toBe(false);
    expect(isTimeZone("")).toBe(false);
  });

  it("writes a rule back the way it was read", () => {
    for (const text of [
      "FREQ=MONTHLY;BYDAY=2SU",
      "FREQ=WEEKLY;INTERVAL=2;COUNT=10;BYDAY=TU,TH",
      "FREQ=MONTHLY;UNTIL=20271231T235959Z;BYDAY=-1FR",
      "FREQ=YEARLY;BYMONTHDAY=-1;BYMONTH=2",
    ]) {
      expect(formatRRule(parseRRule(text, "UTC"))).toBe(text);
    }
  });
});
