/**
 * RFC 5545 recurrence, expanded in the event's own time zone (issue 14).
 *
 * Why not the `rrule` package: its 2.8.x line shifts TZID series by an hour across daylight-saving
 * changes (its issues #611, #390, #359). Here every candidate is generated as a *local* calendar date
 * and wall-clock time, and only then placed in the zone with Temporal, so a weekly 10:00 service stays
 * at 10:00 local time on both sides of a DST change. A wall-clock time that does not exist (inside a
 * spring-forward gap) moves forward by the gap, as RFC 5545 §3.3.5 asks; an ambiguous one takes the
 * earlier offset.
 *
 * Supported: FREQ=DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, COUNT, UNTIL, BYDAY (with ordinals such as
 * 2SU and -1FR in monthly and yearly rules), BYMONTHDAY (negative from the month's end), BYMONTH,
 * WKST; EXDATE; BYSETPOS with one value. Anything else is refused rather than silently ignored.
 */
import { Temporal } from "temporal-polyfill";
import { LIMITS } from "@flock/shared/limits";

export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
export type Weekday = (typeof WEEKDAYS)[number];
export type Frequency = "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";

export interface ByDay {
  /** ISO day of week: Monday 1 … Sunday 7. */
  day: number;
  /** 2 for "2nd", -1 for "last"; undefined for every such weekday in the period. */
  ordinal?: number;
}

export interface RecurrenceRule {
  freq: Frequency;
  interval: number;
  count?: number;
  /** The last instant an occurrence may start at (UNTIL, inclusive). */
  until?: Temporal.Instant;
  /** UNTIL as written in the rule, kept for writing the rule back. */
  untilText?: string;
  byDay?: ByDay[];
  byMonthDay?: number[];
  byMonth?: number[];
  bySetPos?: number;
  weekStart: number;
}

export class RecurrenceError extends Error {
  readonly reason: "invalid" | "unsupported" | "empty" | "timezone";

  constructor(message: string, reason: "invalid" | "unsupported" | "empty" | "timezone") {
    super(message);
    this.reason = reason;
  }
}

const isoDay = (code: string) => WEEKDAYS.indexOf(code as Weekday) + 1;

/** Is `zone` an IANA time zone Temporal knows? */
export function isTimeZone(zone: string): boolean {
  if (!zone || zone.length > LIMITS.timeZoneMax) return false;
  try {
    Temporal.Now.zonedDateTimeISO(zone);
    return true;
  } catch {
    return false;
  }
}

/** Parse a DATE or DATE-TIME value of UNTIL/EXDATE ("20271231", "20271231T235959Z", "20271231T100000"). */
export function parseIcalDateTime(value: string, zone: string): Temporal.ZonedDateTime {
  const match = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(value.trim());
  if (!match) throw new RecurrenceError(`bad date "${value}"`, "invalid");
  const [, y, mo, d, h, mi, s, z] = match;
  const local = new Temporal.PlainDateTime(
    Number(y),
    Number(mo),
    Number(d),
    Number(h ?? 23),
    Number(mi ?? 59),
    Number(s ?? 59),
  );
  if (z) return Temporal.Instant.from(`${local.toString()}Z`).toZonedDateTimeISO(zone);
  return local.toZonedDateTime(zone, { disambiguation: "compatible" });
}

/** Parse an RRULE value ("FREQ=MONTHLY;BYDAY=2SU;UNTIL=20271231T235959Z"), with or without "RRULE:". */
export function parseRRule(text: string, zone: string): RecurrenceRule {
  const body = text.trim().replace(/^RRULE:/i, "");
  if (!body) throw new RecurrenceError("empty rule", "invalid");
  const parts = new Map<string, string>();
  for (const part of body.split(";")) {
    const [key, value, ...rest] = part.split("=");
    if (!key || value === undefined || rest.length || !value)
      throw new RecurrenceError(`bad part "${part}"`, "invalid");
    if (parts.has(key.toUpperCase())) throw new RecurrenceError(`repeated ${key}`, "invalid");
    parts.set(key.toUpperCase(), value.toUpperCase());
  }
  const known = new Set([
    "FREQ",
    "INTERVAL",
    "COUNT",
    "UNTIL",
    "BYDAY",
    "BYMONTHDAY",
    "BYMONTH",
    "BYSETPOS",
    "WKST",
  ]);
  for (const key of parts.keys())
    if (!known.has(key)) throw new RecurrenceError(`${key} is not supported`, "unsupported");
  const freq = parts.get("FREQ");
  if (freq !== "DAILY" && freq !== "WEEKLY" && freq !== "MONTHLY" && freq !== "YEARLY")
    throw new RecurrenceError("FREQ must be DAILY, WEEKLY, MONTHLY or YEARLY", "unsupported");
  const int = (key: string, min: number, max: number) => {
    const raw = parts.get(key);
    if (raw === undefined) return undefined;
    if (!/^-?\d+$/.test(raw)) throw new RecurrenceError(`${key} must be a number`, "invalid");
    const n = Number(raw);
    if (n < min || n > max) throw new RecurrenceError(`${key} out of range`, "invalid");
    return n;
  };
  const rule: RecurrenceRule = { freq, interval: int("INTERVAL", 1, 1000) ?? 1, weekStart: 1 };
  rule.count = int("COUNT", 1, 10000);
  if (parts.has("UNTIL")) {
    if (rule.count) throw new RecurrenceError("COUNT and UNTIL cannot both be set", "invalid");
    rule.untilText = parts.get("UNTIL")!;
    rule.until = parseIcalDateTime(rule.untilText, zone).toInstant();
  }
  if (parts.has("WKST")) {
    const day = isoDay(parts.get("WKST")!);
    if (!day) throw new RecurrenceError("bad WKST", "invalid");
    rule.weekStart = day;
  }
  if (parts.has("BYDAY")) {
    rule.byDay = parts
      .get("BYDAY")!
      .split(",")
      .map((item) => {
        const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
        if (!m) throw new RecurrenceError(`bad BYDAY "${item}"`, "invalid");
        const ordinal = m[1] === undefined ? undefined : Number(m[1]);
        if (ordinal !== undefined && (ordinal === 0 || Math.abs(ordinal) > 53))
          throw new RecurrenceError(`bad BYDAY "${item}"`, "invalid");
        if (ordinal !== undefined && freq !== "MONTHLY" && freq !== "YEARLY")
          throw new RecurrenceError("BYDAY ordinals need FREQ=MONTHLY or YEARLY", "invalid");
        return { day: isoDay(m[2]!), ordinal };
      });
  }
  if (parts.has("BYMONTHDAY")) {
    rule.byMonthDay = parts
      .get("BYMONTHDAY")!
      .split(",")
      .map((v) => {
        const n = Number(v);
        if (!/^-?\d{1,2}$/.test(v) || n === 0 || Math.abs(n) > 31)
          throw new RecurrenceError(`bad BYMONTHDAY "${v}"`, "invalid");
        return n;
      });
  }
  if (parts.has("BYMONTH")) {
    rule.byMonth = parts
      .get("BYMONTH")!
      .split(",")
      .map((v) => {
        const n = Number(v);
        if (!/^\d{1,2}$/.test(v) || n < 1 || n > 12)
          throw new RecurrenceError(`bad BYMONTH "${v}"`, "invalid");
        return n;
      });
  }
  rule.bySetPos = int("BYSETPOS", -366, 366);
  if (rule.bySetPos === 0) throw new RecurrenceError("bad BYSETPOS", "invalid");
  return rule;
}

/** Write a rule back as an RRULE value (no "RRULE:" prefix), in RFC 5545's usual part order. */
export function formatRRule(rule: RecurrenceRule): string {
  const parts = [`FREQ=${rule.freq}`];
  if (rule.interval !== 1) parts.push(`INTERVAL=${rule.interval}`);
  if (rule.count) parts.push(`COUNT=${rule.count}`);
  if (rule.until)
    parts.push(
      `UNTIL=${rule.until.toZonedDateTimeISO("UTC").toPlainDateTime().toString().replace(/[-:]/g, "").slice(0, 15)}Z`,
    );
  if (rule.byDay?.length)
    parts.push(`BYDAY=${rule.byDay.map((d) => `${d.ordinal ?? ""}${WEEKDAYS[d.day - 1]}`).join(",")}`);
  if (rule.byMonthDay?.length) parts.push(`BYMONTHDAY=${rule.byMonthDay.join(",")}`);
  if (rule.byMonth?.length) parts.push(`BYMONTH=${rule.byMonth.join(",")}`);
  if (rule.bySetPos) parts.push(`BYSETPOS=${rule.bySetPos}`);
  if (rule.weekStart !== 1) parts.push(`WKST=${WEEKDAYS[rule.weekStart - 1]}`);
  return parts.join(";");
}

/** The days of one month a monthly (or yearly-by-month) rule selects, in order. */
function daysInMonth(
  rule: RecurrenceRule,
  month: Temporal.PlainYearMonth,
  startDay: number,
): Temporal.PlainDate[] {
  const length = month.daysInMonth;
  const all = Array.from({ length }, (_, i) => month.toPlainDate({ day: i + 1 }));
  let days: Temporal.PlainDate[];
  if (rule.byDay?.length) {
    const picked = new Set<number>();
    for (const by of rule.byDay) {
      const matching = all.filter((d) => d.dayOfWeek === by.day);
      if (by.ordinal === undefined) matching.forEach((d) => picked.add(d.day));
      else {
        const hit = by.ordinal > 0 ? matching[by.ordinal - 1] : matching[matching.length + by.ordinal];
        if (hit) picked.add(hit.day);
      }
    }
    days = all.filter((d) => picked.has(d.day));
    if (rule.byMonthDay?.length) days = days.filter((d) => monthDayMatches(rule.byMonthDay!, d.day, length));
  } else if (rule.byMonthDay?.length) {
    days = all.filter((d) => monthDayMatches(rule.byMonthDay!, d.day, length));
  } else {
    // The start's day of the month; months without it (the 31st, 29 February) are skipped (RFC 5545).
    days = startDay <= length ? [all[startDay - 1]!] : [];
  }
  return days;
}

const monthDayMatches = (wanted: number[], day: number, length: number) =>
  wanted.some((w) => (w > 0 ? w === day : length + w + 1 === day));

/** The candidate local dates of the `index`-th period of the rule (before COUNT/UNTIL and the start cut). */
function periodDates(rule: RecurrenceRule, start: Temporal.PlainDate, index: number): Temporal.PlainDate[] {
  const step = index * rule.interval;
  let dates: Temporal.PlainDate[];
  switch (rule.freq) {
    case "DAILY": {
      const day = start.add({ days: step });
      dates = [day];
      if (rule.byDay?.length) dates = dates.filter((d) => rule.byDay!.some((b) => b.day === d.dayOfWeek));
      if (rule.byMonthDay?.length)
        dates = dates.filter((d) => monthDayMatches(rule.byMonthDay!, d.day, d.daysInMonth));
      break;
    }
    case "WEEKLY": {
      const offset = (start.dayOfWeek - rule.weekStart + 7) % 7;
      const weekBegin = start.subtract({ days: offset }).add({ weeks: step });
      const wanted = rule.byDay?.length ? rule.byDay.map((b) => b.day) : [start.dayOfWeek];
      dates = Array.from({ length: 7 }, (_, i) => weekBegin.add({ days: i })).filter((d) =>
        wanted.includes(d.dayOfWeek),
      );
      break;
    }
    case "MONTHLY": {
      const month = start.toPlainYearMonth().add({ months: step });
      dates = daysInMonth(rule, month, start.day);
      break;
    }
    case "YEARLY": {
      const year = start.year + step;
      const months = rule.byMonth?.length ? [...rule.byMonth].sort((a, b) => a - b) : [start.month];
      if (!rule.byMonth?.length && rule.byDay?.some((b) => b.ordinal !== undefined)) {
        // "20MO" in a yearly rule without BYMONTH counts weekdays through the whole year.
        const first = new Temporal.PlainDate(year, 1, 1);
        const all = Array.from({ length: first.daysInYear }, (_, i) => first.add({ days: i }));
        const picked = new Set<string>();
        for (const by of rule.byDay!) {
          const matching = all.filter((d) => d.dayOfWeek === by.day);
          if (by.ordinal === undefined) matching.forEach((d) => picked.add(d.toString()));
          else {
            const hit = by.ordinal > 0 ? matching[by.ordinal - 1] : matching[matching.length + by.ordinal];
            if (hit) picked.add(hit.toString());
          }
        }
        dates = all.filter((d) => picked.has(d.toString()));
      } else {
        dates = months.flatMap((m) => daysInMonth(rule, new Temporal.PlainYearMonth(year, m), start.day));
      }
      break;
    }
  }
  if (rule.byMonth?.length && rule.freq !== "YEARLY")
    dates = dates.filter((d) => rule.byMonth!.includes(d.month));
  if (rule.bySetPos && dates.length) {
    const hit = rule.bySetPos > 0 ? dates[rule.bySetPos - 1] : dates[dates.length + rule.bySetPos];
    dates = hit ? [hit] : [];
  }
  return dates;
}

export interface Series {
  /** The first occurrence's start, in the event's zone (DTSTART;TZID=…). */
  start: Temporal.ZonedDateTime;
  /** The first occurrence's end; later occurrences keep the same wall-clock length. */
  end: Temporal.ZonedDateTime;
  rule?: RecurrenceRule | null;
  /** Removed occurrences, as their local start (EXDATE;TZID=…). */
  exdates?: Temporal.PlainDateTime[];
}

export interface Occurrence {
  start: Temporal.ZonedDateTime;
  end: Temporal.ZonedDateTime;
  /** The start the series gives this occurrence (its RECURRENCE-ID); equal to `start` unless moved. */
  originalStart: Temporal.ZonedDateTime;
}

/** Periods looked at before a rule is declared empty (e.g. BYMONTHDAY=30;BYMONTH=2). */
const MAX_EMPTY_PERIODS = 2000;
/** Periods looked at in one expansion, a guard against rules from the distant past. */
const MAX_PERIODS = 200_000;

function place(date: Temporal.PlainDate, series: Series): Occurrence {
  const zone = series.start.timeZoneId;
  const localStart = date.toPlainDateTime(series.start.toPlainTime());
  const start = localStart.toZonedDateTime(zone, { disambiguation: "compatible" });
  const wallLength = series.start.toPlainDateTime().until(series.end.toPlainDateTime());
  const end = localStart.add(wallLength).toZonedDateTime(zone, { disambiguation: "compatible" });
  return { start, end, originalStart: start };
}

/**
 * Occurrences of `series` that overlap [from, to) (an occurrence is included when it ends after
 * `from` and starts before `to`), in order, EXDATEs removed. COUNT counts the series from its start,
 * EXDATEs included, as RFC 5545 does.
 */
export function expand(
  series: Series,
  from: Temporal.Instant,
  to: Temporal.Instant,
  limit = 5000,
): Occurrence[] {
  const out: Occurrence[] = [];
  // A zero-length occurrence (end = start) at `from` counts as inside the range.
  const overlaps = (o: Occurrence) =>
    (Temporal.Instant.compare(o.end.toInstant(), from) > 0 ||
      Temporal.Instant.compare(o.start.toInstant(), from) >= 0) &&
    Temporal.Instant.compare(o.start.toInstant(), to) < 0;
  const excluded = new Set((series.exdates ?? []).map((d) => d.toString()));
  const keep = (o: Occurrence) =>
    overlaps(o) &&
    !excluded.has(o.start.toPlainDateTime().toString()) &&
    !excluded.has(o.originalStart.toPlainDateTime().toString());
  const rule = series.rule;
  if (!rule) {
    const only: Occurrence = { start: series.start, end: series.end, originalStart: series.start };
    return keep(only) ? [only] : [];
  }
  const startDate = series.start.toPlainDate();
  const startInstant = series.start.toInstant();
  let generated = 0;
  let emptyRun = 0;
  for (let period = 0; period < MAX_PERIODS; period++) {
    const dates = periodDates(rule, startDate, period);
    emptyRun = dates.length ? 0 : emptyRun + 1;
    if (emptyRun > MAX_EMPTY_PERIODS) break;
    for (const date of dates) {
      if (Temporal.PlainDate.compare(date, startDate) < 0) continue;
      const occurrence = place(date, series);
      if (Temporal.Instant.compare(occurrence.start.toInstant(), startInstant) < 0) continue;
      if (rule.until && Temporal.Instant.compare(occurrence.start.toInstant(), rule.until) > 0) return out;
      generated++;
      if (rule.count && generated > rule.count) return out;
      if (Temporal.Instant.compare(occurrence.start.toInstant(), to) >= 0) return out;
      if (keep(occurrence)) {
        out.push(occurrence);
        if (out.length >= limit) return out;
      }
    }
  }
  return out;
}

/** The first occurrence of a series (EXDATEs removed), or null when the rule yields nothing. */
export function firstOccurrence(series: Series): Occurrence | null {
  const far = series.start.add({ years: 200 }).toInstant();
  return expand(series, series.start.toInstant(), far, 1)[0] ?? null;
}

/**
 * "This and following": the series ends before `at` (one of its occurrences' original start) and a
 * new series continues from `at` with the same rule (COUNT shared out, EXDATEs split by date).
 */
export function splitSeries(
  series: Series,
  at: Temporal.ZonedDateTime,
): { head: Series | null; tail: Series } {
  const rule = series.rule;
  if (!rule) throw new RecurrenceError("only a recurring event can be split", "invalid");
  const before = expand({ ...series, exdates: [] }, series.start.toInstant(), at.toInstant(), 100_000).length;
  const atLocal = at.toPlainDateTime();
  const isBefore = (d: Temporal.PlainDateTime) => Temporal.PlainDateTime.compare(d, atLocal) < 0;
  const exdates = series.exdates ?? [];
  const wallLength = series.start.toPlainDateTime().until(series.end.toPlainDateTime());
  const tailRule: RecurrenceRule = { ...rule, count: rule.count ? rule.count - before : undefined };
  const tail: Series = {
    start: at,
    end: atLocal.add(wallLength).toZonedDateTime(at.timeZoneId, { disambiguation: "compatible" }),
    rule: tailRule,
    exdates: exdates.filter((d) => !isBefore(d)),
  };
  if (before === 0) return { head: null, tail };
  const headRule: RecurrenceRule = rule.count
    ? { ...rule, count: before }
    : { ...rule, until: at.toInstant().subtract({ seconds: 1 }), untilText: undefined };
  return { head: { ...series, rule: headRule, exdates: exdates.filter(isBefore) }, tail };
}
