/**
 * The events hook decides which instants take sign-ups (pb_hooks/lib/recurrence.js, a port of the
 * gateway's expansion to PocketBase's JSVM). Here the two are held to the same answers: for each series,
 * every occurrence the gateway's `expand` gives is open in the hook's sign-up window, and the instants
 * beside them (an hour, a day, a minute off) are closed. Series cross daylight-saving changes in two
 * zones, start inside a spring-forward gap, and use COUNT, UNTIL, EXDATE, ordinals and BYSETPOS.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import { Temporal } from "temporal-polyfill";
import { system } from "./helpers.ts";
import { uniqueSlug } from "./event-support.ts";
import { expand, parseRRule } from "../src/schema/events/recurrence.ts";

let su: PocketBase;
beforeAll(async () => {
  su = await system();
});

const pbText = (ms: number) => new Date(ms).toISOString().replace("T", " ");
const HOUR = 3600_000;
const DAY = 24 * HOUR;

interface Window {
  open: boolean;
  code: string | null;
}

/** The hook's window for each instant (at most 100 per call, as the route takes them). */
async function windows(eventId: string, instants: number[]): Promise<Window[]> {
  const answers: Window[] = [];
  for (let i = 0; i < instants.length; i += 100) {
    const batch = instants.slice(i, i + 100).map((ms) => ({ event: eventId, occurrence: pbText(ms) }));
    answers.push(
      ...(await su.send<Window[]>("/api/flock/events/sign-up-windows", {
        method: "POST",
        body: { occurrences: batch },
      })),
    );
  }
  return answers;
}

/** A year from now at the latest, so every occurrence checked is in the future (not begun). */
const nextYear = new Date().getUTCFullYear() + 1;

const CASES: Array<{
  name: string;
  zone: string;
  start: string;
  rrule: string;
  exdates?: string[];
  months?: number;
}> = [
  {
    name: "weekly Sunday 10:00 in New York",
    zone: "America/New_York",
    start: `${nextYear}-01-04T10:00`,
    rrule: "FREQ=WEEKLY;BYDAY=SU",
  },
  {
    name: "weekly in Sydney (southern DST)",
    zone: "Australia/Sydney",
    start: `${nextYear}-01-06T19:30`,
    rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU,TH",
  },
  {
    name: "daily at 02:30, inside the spring-forward gap",
    zone: "America/New_York",
    start: `${nextYear}-03-01T02:30`,
    rrule: "FREQ=DAILY;COUNT=40",
  },
  {
    name: "daily at 02:30, the hour Berlin repeats at fall-back",
    zone: "Europe/Berlin",
    start: `${nextYear}-10-20T02:30`,
    rrule: "FREQ=DAILY;COUNT=20",
  },
  {
    name: "second Sunday monthly",
    zone: "America/Los_Angeles",
    start: `${nextYear}-01-11T09:00`,
    rrule: "FREQ=MONTHLY;BYDAY=2SU",
  },
  {
    name: "last Friday monthly until a date",
    zone: "Europe/London",
    start: `${nextYear}-01-30T18:00`,
    rrule: "FREQ=MONTHLY;BYDAY=-1FR;UNTIL=" + `${nextYear}1231T235959Z`,
  },
  {
    name: "the 31st, months without it skipped",
    zone: "America/Chicago",
    start: `${nextYear}-01-31T12:00`,
    rrule: "FREQ=MONTHLY;COUNT=12",
  },
  {
    name: "last weekday of the month (BYSETPOS)",
    zone: "Asia/Kolkata",
    start: `${nextYear}-01-30T08:00`,
    rrule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1",
  },
  {
    name: "yearly in March and September",
    zone: "America/Sao_Paulo",
    start: `${nextYear}-03-15T11:00`,
    rrule: "FREQ=YEARLY;BYMONTH=3,9;BYMONTHDAY=15",
    months: 60,
  },
  {
    name: "weekly with EXDATEs",
    zone: "America/New_York",
    start: `${nextYear}-02-01T10:00`,
    rrule: "FREQ=WEEKLY;COUNT=12",
    exdates: [`${nextYear}-02-15T10:00:00`, `${nextYear}-03-15T10:00:00`],
  },
];

describe("the hook's occurrences agree with the gateway's expansion", () => {
  for (const c of CASES) {
    it(c.name, async () => {
      const start = Temporal.PlainDateTime.from(c.start).toZonedDateTime(c.zone, {
        disambiguation: "compatible",
      });
      const end = start.add({ hours: 1 });
      const event = await su.collection("events").create<{ id: string }>({
        title: c.name,
        slug: uniqueSlug("hook-rrule"),
        startsAt: pbText(start.epochMilliseconds),
        endsAt: pbText(end.epochMilliseconds),
        timezone: c.zone,
        rrule: c.rrule,
        exdates: (c.exdates ?? []).join(","),
        visibility: "public",
        status: "published",
        registrationMode: "rsvp",
      });
      const series = {
        start,
        end,
        rule: parseRRule(c.rrule, c.zone),
        exdates: (c.exdates ?? []).map((d) => Temporal.PlainDateTime.from(d)),
      };
      const real = expand(
        series,
        start.toInstant(),
        start.add({ months: c.months ?? 14 }).toInstant(),
        120,
      ).map((o) => o.originalStart.epochMilliseconds);
      expect(real.length).toBeGreaterThan(5);
      const realSet = new Set(real);
      const beside = [
        ...new Set(real.flatMap((ms) => [ms - HOUR, ms + HOUR, ms + DAY, ms - 60_000, ms + 1000])),
      ].filter((ms) => !realSet.has(ms) && ms > start.epochMilliseconds);
      const excluded = (c.exdates ?? []).map(
        (d) => Temporal.PlainDateTime.from(d).toZonedDateTime(c.zone).epochMilliseconds,
      );
      const opened = await windows(event.id, real);
      expect(real.filter((_, i) => !opened[i]?.open).map(pbText), "occurrences the hook refuses").toEqual([]);
      const closed = await windows(event.id, [...beside, ...excluded]);
      expect(
        [...beside, ...excluded].filter((_, i) => closed[i]?.open).map(pbText),
        "instants the hook accepts that are no occurrence",
      ).toEqual([]);
      expect(new Set(closed.map((w) => w.code))).toEqual(new Set(["registration_closed"]));
    });
  }
});
