import { describe, expect, it } from "vitest";
import ICAL from "ical.js";
import { calendar, escapeText, foldLine, serialize, vtimezone } from "./ics.ts";
import type { EventRecord } from "../../pocketbase/records.ts";

describe("iCalendar writer", () => {
  it("folds lines at 75 octets with a leading space, never inside a UTF-8 character", () => {
    const long = `SUMMARY:${"é".repeat(60)}`;
    const folded = foldLine(long);
    const lines = folded.split("\r\n");
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
    expect(lines.slice(1).every((l) => l.startsWith(" "))).toBe(true);
    // Unfolding gives the original back.
    expect(folded.replace(/\r\n /g, "")).toBe(long);
    expect(foldLine("SHORT:line")).toBe("SHORT:line");
  });

  it("escapes backslashes, semicolons, commas and newlines in TEXT", () => {
    expect(escapeText("Lunch; bring a dish, please\\thanks\nSee you")).toBe(
      "Lunch\\; bring a dish\\, please\\\\thanks\\nSee you",
    );
  });

  it("ends every line with CRLF", () => {
    expect(serialize(["BEGIN:VCALENDAR", "END:VCALENDAR"])).toBe("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\n");
  });

  it("lists New York's real transitions in its VTIMEZONE", () => {
    const lines = vtimezone("America/New_York", 2026, 2026);
    expect(lines).toContain("TZID:America/New_York");
    const text = lines.join("\n");
    expect(text).toContain(
      "BEGIN:DAYLIGHT\nDTSTART:20260308T020000\nTZOFFSETFROM:-0500\nTZOFFSETTO:-0400\nEND:DAYLIGHT",
    );
    expect(text).toContain(
      "BEGIN:STANDARD\nDTSTART:20261101T020000\nTZOFFSETFROM:-0400\nTZOFFSETTO:-0500\nEND:STANDARD",
    );
  });

  it("writes one STANDARD component for a zone without transitions", () => {
    const text = vtimezone("Asia/Tokyo", 2026, 2027).join("\n");
    expect(text).toContain("TZOFFSETFROM:+0900\nTZOFFSETTO:+0900");
  });
});

const eventRecord = (fields: Partial<EventRecord>): EventRecord => ({
  id: "evt000000000001",
  collectionId: "events",
  collectionName: "events",
  created: "2026-11-01 12:00:00.000Z",
  updated: "2026-11-01 12:00:00.000Z",
  title: "Sunday worship",
  slug: "sunday-worship",
  summary: "",
  description: "",
  image: "",
  category: "",
  locationName: "",
  locationAddress: "",
  startsAt: "2026-12-06 15:00:00.000Z",
  endsAt: "2026-12-06 16:00:00.000Z",
  allDay: false,
  timezone: "America/New_York",
  rrule: "FREQ=WEEKLY;BYDAY=SU",
  exdates: "",
  splitFrom: "",
  visibility: "public",
  status: "published",
  registrationMode: "none",
  capacity: 0,
  waitlistEnabled: false,
  registrationOpensAt: "",
  registrationClosesAt: "",
  ownerGroup: "",
  updatedBy: "",
  icalUid: "",
  questions: null,
  ...fields,
});
const OPTIONS = { name: "Grace", origin: "https://grace.example", uidHost: "grace.example" };

/** ical.js (an independent parser) reading our calendar: its VTIMEZONEs registered, its VEVENTs. */
function parsed(text: string) {
  const root = new ICAL.Component(ICAL.parse(text));
  for (const tz of root.getAllSubcomponents("vtimezone")) ICAL.TimezoneService.register(tz);
  return root.getAllSubcomponents("vevent");
}

describe("iCalendar feed read by ical.js", () => {
  it("keeps a series without an end at its local time in every year it reaches (2030 and beyond)", () => {
    for (const [zone, startsAt, endsAt, local] of [
      ["America/New_York", "2026-12-06 15:00:00.000Z", "2026-12-06 16:00:00.000Z", "10:00"],
      ["Europe/Berlin", "2026-12-06 09:30:00.000Z", "2026-12-06 10:30:00.000Z", "10:30"],
      ["Australia/Sydney", "2026-12-06 08:00:00.000Z", "2026-12-06 09:00:00.000Z", "19:00"],
    ] as const) {
      // The first Sunday of January and July: a winter and a summer date every year (ical.js is slow
      // to place a date in a zone, so not a year of Sundays).
      const event = eventRecord({
        timezone: zone,
        startsAt,
        endsAt,
        rrule: "FREQ=MONTHLY;BYMONTH=1,7;BYDAY=1SU",
      });
      const text = calendar([{ event, exceptions: [], categoryName: null }], OPTIONS);
      const clock = new Intl.DateTimeFormat("en-GB", { timeZone: zone, hour: "2-digit", minute: "2-digit" });
      const iterator = new ICAL.Event(parsed(text)[0]!).iterator();
      const wrong: string[] = [];
      let count = 0;
      for (let next = iterator.next(); next && next.year < 2046; next = iterator.next()) {
        count++;
        const seen = clock.format(next.toJSDate());
        if (seen !== local) wrong.push(`${next.toString()} → ${seen}`);
      }
      expect(count).toBeGreaterThan(2 * 18);
      expect(wrong, zone).toEqual([]);
    }
  });

  it("writes a cancelled date as a STATUS:CANCELLED occurrence with its note, not as a gap", () => {
    const event = eventRecord({});
    const text = calendar(
      [
        {
          event,
          exceptions: [
            {
              id: "exc000000000001",
              collectionId: "event_exceptions",
              collectionName: "event_exceptions",
              created: "2026-11-20 12:00:00.000Z",
              updated: "2026-11-20 12:00:00.000Z",
              event: event.id,
              originalStart: "2026-12-13 15:00:00.000Z",
              status: "cancelled",
              startsAt: "",
              endsAt: "",
              note: "Snow; the building is closed",
            },
          ],
          categoryName: null,
        },
      ],
      OPTIONS,
    );
    expect(text).not.toContain("EXDATE");
    const vevents = parsed(text);
    const override = vevents.find((v) => v.hasProperty("recurrence-id"));
    expect(override, "an override for the cancelled date").toBeDefined();
    const overrideEvent = new ICAL.Event(override!);
    expect(overrideEvent.recurrenceId.toJSDate().toISOString()).toBe("2026-12-13T15:00:00.000Z");
    expect(override!.getFirstPropertyValue("status")).toBe("CANCELLED");
    expect(String(override!.getFirstPropertyValue("description"))).toContain("Snow; the building is closed");
    expect(override!.getFirstPropertyValue("uid")).toBe(vevents[0]!.getFirstPropertyValue("uid"));
    // The date is still in the series (a calendar shows it struck through, not missing).
    const iterator = new ICAL.Event(vevents.find((v) => !v.hasProperty("recurrence-id"))!).iterator();
    const dates: string[] = [];
    for (let next = iterator.next(); next && dates.length < 3; next = iterator.next())
      dates.push(next.toJSDate().toISOString());
    expect(dates).toContain("2026-12-13T15:00:00.000Z");
  });
});
