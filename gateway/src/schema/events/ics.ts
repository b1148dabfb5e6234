/**
 * iCalendar (RFC 5545) writing for the event feeds: CRLF line ends, content lines folded at 75 octets
 * (never inside a UTF-8 character), TEXT values escaped, UID and DTSTAMP on every VEVENT, recurring
 * events as DTSTART;TZID + RRULE + EXDATE with moved occurrences as RECURRENCE-ID overrides, and a
 * VTIMEZONE (with its real transitions, from Temporal's zone data) for every zone used, so calendar
 * apps expand the series to the same dates the gateway does.
 */
import { Temporal } from "temporal-polyfill";
import { instantOf, seriesOf, type OccurrenceModel } from "./occurrences.ts";
import type { EventExceptionRecord, EventRecord } from "../../pocketbase/records.ts";

const encoder = new TextEncoder();

/** Fold one content line at 75 octets: continuation lines start with one space (RFC 5545 §3.1). */
export function foldLine(line: string): string {
  if (encoder.encode(line).length <= 75) return line;
  const out: string[] = [];
  let current = "";
  let octets = 0;
  let limit = 75;
  for (const char of line) {
    const size = encoder.encode(char).length;
    if (octets + size > limit) {
      out.push(current);
      current = "";
      octets = 0;
      limit = 74; // the leading space counts
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join("\r\n ");
}

/** Escape a TEXT value: backslash, semicolon, comma and newlines (RFC 5545 §3.3.11). */
export function escapeText(value: string): string {
  return (
    value
      .replace(/\\/g, "\\\\")
      .replace(/;/g, "\\;")
      .replace(/,/g, "\\,")
      .replace(/\r\n|\r|\n/g, "\\n")
      // eslint-disable-next-line no-control-regex -- control characters are not allowed in TEXT
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/g, "")
  );
}

/** Lines → a document: folded, CRLF-terminated. */
export const serialize = (lines: string[]) => lines.map(foldLine).join("\r\n") + "\r\n";

const two = (n: number) => String(n).padStart(2, "0");
/** 20261206T100000 (local, for TZID values). */
export const localStamp = (d: Temporal.PlainDateTime) =>
  `${d.year}${two(d.month)}${two(d.day)}T${two(d.hour)}${two(d.minute)}${two(d.second)}`;
/** 20261206T150000Z. */
export const utcStamp = (i: Temporal.Instant) =>
  `${localStamp(i.toZonedDateTimeISO("UTC").toPlainDateTime())}Z`;
const dateStamp = (d: Temporal.PlainDate) => `${d.year}${two(d.month)}${two(d.day)}`;
const offsetText = (ns: number) => {
  const minutes = Math.round(ns / 60_000_000_000);
  const sign = minutes < 0 ? "-" : "+";
  const abs = Math.abs(minutes);
  return `${sign}${two(Math.floor(abs / 60))}${two(abs % 60)}`;
};

interface Transition {
  kind: "STANDARD" | "DAYLIGHT";
  /** The onset in the local time in force before it (a VTIMEZONE's DTSTART). */
  onset: Temporal.PlainDateTime;
  from: number;
  to: number;
}

/** The zone's offset changes in [from, to), in order. */
function transitions(zone: string, from: Temporal.ZonedDateTime, to: Temporal.ZonedDateTime): Transition[] {
  const janOffset = (year: number) =>
    Temporal.PlainDateTime.from({ year, month: 1, day: 15 }).toZonedDateTime(zone).offsetNanoseconds;
  const julOffset = (year: number) =>
    Temporal.PlainDateTime.from({ year, month: 7, day: 15 }).toZonedDateTime(zone).offsetNanoseconds;
  const out: Transition[] = [];
  let cursor = from;
  for (let guard = 0; guard < 2000; guard++) {
    const next = cursor.getTimeZoneTransition("next");
    if (!next || Temporal.ZonedDateTime.compare(next, to) >= 0) break;
    const before = next.subtract({ nanoseconds: 1 }).offsetNanoseconds;
    const after = next.offsetNanoseconds;
    const standard = Math.min(janOffset(next.year), julOffset(next.year));
    out.push({
      kind: after > standard ? "DAYLIGHT" : "STANDARD",
      onset: next.toInstant().toZonedDateTimeISO("UTC").toPlainDateTime().add({ nanoseconds: before }),
      from: before,
      to: after,
    });
    cursor = next;
  }
  return out;
}

const startOfYear = (zone: string, year: number) =>
  Temporal.PlainDateTime.from({ year, month: 1, day: 1 }).toZonedDateTime(zone);

/** Years a yearly rule is checked over before it stands for the zone's future (every weekday alignment). */
const RULE_CHECK_YEARS = 28;

/**
 * The zone's changes from `year` on as yearly rules ("the 2nd Sunday of March at 02:00"), one per change
 * of the year, or null when its next RULE_CHECK_YEARS years do not follow such rules (a zone that
 * moves its clocks by another calendar): each rule is a weekday on or after a day of the month, as the
 * tz database writes them, given as an ordinal (2SU, -1SU) where that says the same, else as BYMONTHDAY.
 */
function yearlyRules(zone: string, year: number): Array<{ first: Transition; rrule: string }> | null {
  const years = Array.from({ length: RULE_CHECK_YEARS }, (_, i) => year + i);
  const perYear = years.map((y) => transitions(zone, startOfYear(zone, y), startOfYear(zone, y + 1)));
  const count = perYear[0]!.length;
  if (perYear.some((list) => list.length !== count)) return null;
  const rules: Array<{ first: Transition; rrule: string }> = [];
  for (let i = 0; i < count; i++) {
    const same = perYear.map((list) => list[i]!);
    const first = same[0]!;
    const fits = same.every(
      (t) =>
        t.kind === first.kind &&
        t.from === first.from &&
        t.to === first.to &&
        t.onset.month === first.onset.month &&
        t.onset.dayOfWeek === first.onset.dayOfWeek &&
        Temporal.PlainTime.compare(t.onset.toPlainTime(), first.onset.toPlainTime()) === 0,
    );
    if (!fits) return null;
    const days = same.map((t) => t.onset.day);
    const low = Math.min(...days);
    if (Math.max(...days) > low + 6) return null;
    const weekday = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"][first.onset.dayOfWeek - 1]!;
    const monthLength = first.onset.toPlainDate().daysInMonth;
    const sameLength = same.every((t) => t.onset.toPlainDate().daysInMonth === monthLength);
    const byDay =
      (low - 1) % 7 === 0
        ? `BYDAY=${(low - 1) / 7 + 1}${weekday}`
        : sameLength && low === monthLength - 6
          ? `BYDAY=-1${weekday}`
          : `BYDAY=${weekday};BYMONTHDAY=${Array.from({ length: 7 }, (_, d) => low + d).join(",")}`;
    rules.push({ first, rrule: `FREQ=YEARLY;BYMONTH=${first.onset.month};${byDay}` });
  }
  return rules;
}

const component = (t: Transition, extra: string[] = []) => [
  `BEGIN:${t.kind}`,
  `DTSTART:${localStamp(t.onset)}`,
  ...extra,
  `TZOFFSETFROM:${offsetText(t.from)}`,
  `TZOFFSETTO:${offsetText(t.to)}`,
  `END:${t.kind}`,
];

/**
 * A VTIMEZONE for `zone` valid for every year from `fromYear` on: each transition up to `toYear` as its
 * own STANDARD/DAYLIGHT component (no rules to misread), then the zone's yearly rules (RRULE) from the
 * next year on, so a series without an end keeps its local time in a calendar app in 2030 and after
 * (the transitions alone ran out: ical.js kept the last offset and moved summer dates by an hour). A
 * zone whose future follows no yearly rule gets its transitions listed to the year 2100; a zone
 * without transitions gets one STANDARD.
 */
export function vtimezone(zone: string, fromYear: number, toYear: number): string[] {
  const key = `${zone}|${fromYear}|${toYear}`;
  let known = vtimezones.get(key);
  if (!known) {
    // Reading 30 years of a zone's transitions costs ~40 ms; the answer changes only with the years.
    if (vtimezones.size >= 500) vtimezones.clear();
    known = writeVtimezone(zone, fromYear, toYear);
    vtimezones.set(key, known);
  }
  return [...known];
}
const vtimezones = new Map<string, string[]>();

function writeVtimezone(zone: string, fromYear: number, toYear: number): string[] {
  const lines = ["BEGIN:VTIMEZONE", `TZID:${zone}`];
  const listed = transitions(zone, startOfYear(zone, fromYear), startOfYear(zone, toYear + 1));
  const rules = yearlyRules(zone, toYear + 1);
  const later = rules
    ? rules.flatMap(({ first, rrule }) => component(first, [`RRULE:${rrule}`]))
    : transitions(zone, startOfYear(zone, toYear + 1), startOfYear(zone, 2101)).flatMap((t) => component(t));
  const components = [...listed.flatMap((t) => component(t)), ...later];
  const first = startOfYear(zone, fromYear).offsetNanoseconds;
  if (!components.length) {
    components.push(
      "BEGIN:STANDARD",
      "DTSTART:19700101T000000",
      `TZOFFSETFROM:${offsetText(first)}`,
      `TZOFFSETTO:${offsetText(first)}`,
      "END:STANDARD",
    );
  } else {
    // The offset in force at the start of the range, so times before the first listed transition resolve too.
    components.unshift(
      "BEGIN:STANDARD",
      `DTSTART:${fromYear}0101T000000`,
      `TZOFFSETFROM:${offsetText(first)}`,
      `TZOFFSETTO:${offsetText(first)}`,
      "END:STANDARD",
    );
  }
  return [...lines, ...components, "END:VTIMEZONE"];
}

export interface FeedOptions {
  /** The calendar's name (X-WR-CALNAME). */
  name: string;
  origin: string;
  /** The host part of UIDs (stable across slugs). */
  uidHost: string;
}

/** One event of a calendar: its series, single-date changes, category and (one occurrence) its note. */
export interface CalendarEntry {
  event: EventRecord;
  exceptions: EventExceptionRecord[];
  categoryName: string | null;
  /** Why this single occurrence was cancelled or moved (staff's note), shown first in its description. */
  note?: string | null;
}

function eventLines(
  { event, exceptions, categoryName, note }: CalendarEntry,
  options: FeedOptions,
): string[] {
  const zone = event.timezone;
  const series = seriesOf(event);
  // The stored UID (set once, so it survives a change of domain); else as it has always been made.
  const uid = event.icalUid || `event-${event.id}@${options.uidHost}`;
  const stamp = utcStamp(instantOf(event.updated));
  const url = `${options.origin}/events/${event.slug}`;
  const description = (note: string) => [note, event.summary, url].filter(Boolean).join("\n\n");
  const common = (
    start: Temporal.ZonedDateTime,
    end: Temporal.ZonedDateTime,
    cancelled = event.status === "cancelled",
    note = "",
  ) => [
    ...(event.allDay
      ? [
          `DTSTART;VALUE=DATE:${dateStamp(start.toPlainDate())}`,
          `DTEND;VALUE=DATE:${dateStamp(end.toPlainDate().add({ days: 1 }))}`,
        ]
      : [
          `DTSTART;TZID=${zone}:${localStamp(start.toPlainDateTime())}`,
          `DTEND;TZID=${zone}:${localStamp(end.toPlainDateTime())}`,
        ]),
    `SUMMARY:${escapeText(event.title)}`,
    `DESCRIPTION:${escapeText(description(note))}`,
    ...(event.locationName || event.locationAddress
      ? [`LOCATION:${escapeText([event.locationName, event.locationAddress].filter(Boolean).join(", "))}`]
      : []),
    `URL:${url}`,
    ...(categoryName ? [`CATEGORIES:${escapeText(categoryName)}`] : []),
    `STATUS:${cancelled ? "CANCELLED" : "CONFIRMED"}`,
    `LAST-MODIFIED:${stamp}`,
  ];
  const lines = [
    "BEGIN:VEVENT",
    `UID:${uid}`,
    `DTSTAMP:${stamp}`,
    ...common(series.start, series.end, event.status === "cancelled", note ?? ""),
  ];
  if (series.rule) {
    lines.push(`RRULE:${event.rrule}`);
    // Removed dates (EXDATE) are gone from the series; a cancelled date stays, as an override below.
    if (series.exdates?.length) lines.push(`EXDATE;TZID=${zone}:${series.exdates.map(localStamp).join(",")}`);
  }
  lines.push("END:VEVENT");
  if (series.rule) {
    for (const x of exceptions) {
      const original = instantOf(x.originalStart).toZonedDateTimeISO(zone);
      const wallLength = series.start.toPlainDateTime().until(series.end.toPlainDateTime());
      // A cancelled date keeps its place with STATUS:CANCELLED and the note, so calendars show it
      // struck through with the reason rather than silently dropping it.
      const [start, end] =
        x.status === "moved" && x.startsAt
          ? [
              instantOf(x.startsAt).toZonedDateTimeISO(zone),
              instantOf(x.endsAt || x.startsAt).toZonedDateTimeISO(zone),
            ]
          : [original, original.toPlainDateTime().add(wallLength).toZonedDateTime(zone)];
      if (x.status === "moved" && !x.startsAt) continue;
      lines.push(
        "BEGIN:VEVENT",
        `UID:${uid}`,
        `DTSTAMP:${utcStamp(instantOf(x.updated))}`,
        `RECURRENCE-ID;TZID=${zone}:${localStamp(original.toPlainDateTime())}`,
        ...common(start, end, x.status === "cancelled" || event.status === "cancelled", x.note),
        "END:VEVENT",
      );
    }
  }
  return lines;
}

/**
 * A single entry of a calendar that is not an event (a place someone serves, schema/serving/calendar.ts):
 * its own UID, times, text and page. Times are instants written as local times of `timeZone` (its
 * VTIMEZONE goes into the calendar, as an event's does); `day` alone makes it a whole day.
 */
export interface CalendarItem {
  uid: string;
  when: { start: string; end: string; timeZone: string } | { day: string };
  summary: string;
  description: string;
  url: string;
  /** When it last changed (DTSTAMP, LAST-MODIFIED): a PocketBase date or an ISO instant. */
  updated: string;
}

function itemLines(item: CalendarItem): string[] {
  const stamp = utcStamp(instantOf(item.updated));
  const { when } = item;
  const local = (iso: string, zone: string) =>
    localStamp(instantOf(iso).toZonedDateTimeISO(zone).toPlainDateTime());
  return [
    "BEGIN:VEVENT",
    `UID:${item.uid}`,
    `DTSTAMP:${stamp}`,
    ...("day" in when
      ? [
          `DTSTART;VALUE=DATE:${dateStamp(Temporal.PlainDate.from(when.day))}`,
          `DTEND;VALUE=DATE:${dateStamp(Temporal.PlainDate.from(when.day).add({ days: 1 }))}`,
        ]
      : [
          `DTSTART;TZID=${when.timeZone}:${local(when.start, when.timeZone)}`,
          `DTEND;TZID=${when.timeZone}:${local(when.end, when.timeZone)}`,
        ]),
    `SUMMARY:${escapeText(item.summary)}`,
    `DESCRIPTION:${escapeText(item.description)}`,
    `URL:${item.url}`,
    "STATUS:CONFIRMED",
    `LAST-MODIFIED:${stamp}`,
    "END:VEVENT",
  ];
}

/** A whole calendar of events (their series, exceptions and the zones they use), and other `items`. */
export function calendar(events: CalendarEntry[], options: FeedOptions, items: CalendarItem[] = []): string {
  const zones = new Map<string, number>();
  const useZone = (zone: string, startsAt: string) => {
    const year = instantOf(startsAt).toZonedDateTimeISO(zone).year;
    zones.set(zone, Math.min(zones.get(zone) ?? year, year));
  };
  for (const { event } of events) if (!event.allDay) useZone(event.timezone, event.startsAt);
  for (const { when } of items) if (!("day" in when)) useZone(when.timeZone, when.start);
  const untilYear = Temporal.Now.plainDateISO().year + 3;
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Flock//Church events//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    `X-WR-CALNAME:${escapeText(options.name)}`,
    ...[...zones]
      .sort(([a], [b]) => a.localeCompare(b))
      .flatMap(([zone, year]) => vtimezone(zone, year - 1, untilYear)),
    ...events.flatMap((entry) => eventLines(entry, options)),
    ...items.flatMap(itemLines),
    "END:VCALENDAR",
  ];
  return serialize(lines);
}

/** The UID of one occurrence written as its own event: the series' stored UID with the date's instant. */
export function occurrenceUid(event: EventRecord, epochMilliseconds: number): string {
  if (!event.icalUid) return "";
  const at = event.icalUid.indexOf("@");
  return at < 0
    ? `${event.icalUid}-${epochMilliseconds}`
    : `${event.icalUid.slice(0, at)}-${epochMilliseconds}${event.icalUid.slice(at)}`;
}

/** One occurrence as a single-event calendar (the "Add to calendar" download). */
export function occurrenceCalendar(o: OccurrenceModel, options: FeedOptions): string {
  const single: EventRecord = {
    ...o.event,
    id: `${o.event.id}-${o.originalStart.toInstant().epochMilliseconds}`,
    icalUid: occurrenceUid(o.event, o.originalStart.toInstant().epochMilliseconds),
    startsAt: o.start.toInstant().toString(),
    endsAt: o.end.toInstant().toString(),
    rrule: "",
    exdates: "",
    status: o.status === "CANCELLED" ? "cancelled" : o.event.status,
  };
  return calendar(
    [{ event: single, exceptions: [], categoryName: o.event.expand?.category?.name ?? null, note: o.note }],
    options,
  );
}

/** "Add to Google Calendar" for one occurrence. */
export function googleCalendarUrl(o: OccurrenceModel, origin: string): string {
  const e = o.event;
  const dates = e.allDay
    ? `${dateStamp(o.start.toPlainDate())}/${dateStamp(o.end.toPlainDate().add({ days: 1 }))}`
    : `${utcStamp(o.start.toInstant())}/${utcStamp(o.end.toInstant())}`;
  const params = new URLSearchParams({
    action: "TEMPLATE",
    text: e.title,
    dates,
    details: `${e.summary ? `${e.summary}\n\n` : ""}${origin}/events/${e.slug}?date=${o.originalStart.toPlainDate().toString()}`,
    location: [e.locationName, e.locationAddress].filter(Boolean).join(", "),
    ctz: e.timezone,
  });
  return `https://calendar.google.com/calendar/render?${params.toString()}`;
}
