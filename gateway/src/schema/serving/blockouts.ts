/**
 * Blockouts: the dates a volunteer has said they cannot serve (Serving).
 *
 * Pure calendar arithmetic on wall-clock dates ("YYYY-MM-DD" in the church's time zone): a date is a
 * day number (days since 1970-01-01, computed with Date.UTC so that no time zone or daylight-saving
 * change can shift it), and every check is O(1) per blockout, whatever the length of the repeat.
 */

/**
 * monthly = the same nth weekday of the month as startsOn (e.g. every 1st Sunday; a 5th-weekday start
 * repeats only in months that have a 5th).
 */
export type Repeat = "none" | "weekly" | "monthly";

/**
 * `endsOn >= startsOn`; a repeat copies the whole span (startsOn … endsOn) to each repeat's start.
 * `until` is the last date a repeat may start on (inclusive, like RFC 5545's UNTIL): a span that
 * starts by then is kept whole, and the first span always counts. Null: the repeat never ends.
 */
export interface Blockout {
  startsOn: string;
  endsOn: string;
  repeat: Repeat;
  until: string | null;
}

const MS_PER_DAY = 86_400_000;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

interface CalendarDate {
  year: number;
  /** 1–12 */
  month: number;
  day: number;
}

/** Splits "YYYY-MM-DD"; a malformed or impossible date ("2026-02-30") is a caller's bug, so it throws. */
function parseDate(date: string): CalendarDate {
  const match = DATE_PATTERN.exec(date);
  const [year, month, day] = match ? [Number(match[1]), Number(match[2]), Number(match[3])] : [0, 0, 0];
  if (!match || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new RangeError(`not a calendar date (YYYY-MM-DD): "${date}"`);
  }
  return { year, month, day };
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

// A table, not a Date: auto-fill asks this for every candidate and plan, and a Date is an allocation.
function daysInMonth(year: number, month: number): number {
  return month === 2 && isLeapYear(year) ? 29 : DAYS_IN_MONTH[month - 1]!;
}

function dayNumberOf({ year, month, day }: CalendarDate): number {
  return Date.UTC(year, month - 1, day) / MS_PER_DAY;
}

/** Days since 1970-01-01 of a "YYYY-MM-DD" date. */
export function dayNumber(date: string): number {
  return dayNumberOf(parseDate(date));
}

/** 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday). */
function weekdayOf(dayNo: number): number {
  return (((dayNo + 4) % 7) + 7) % 7;
}

/** The nth (1–5) `weekday` of a month as a day number, or null when the month has no such day. */
function nthWeekdayOfMonth(year: number, month: number, weekday: number, nth: number): number | null {
  const firstOfMonth = dayNumberOf({ year, month, day: 1 });
  const firstMatch = 1 + ((weekday - weekdayOf(firstOfMonth) + 7) % 7);
  const day = firstMatch + 7 * (nth - 1);
  return day > daysInMonth(year, month) ? null : firstOfMonth + day - 1;
}

/** A blockout in day numbers, parsed once; `length` is endsOn − startsOn (0 for a single day). */
interface Span {
  repeat: Repeat;
  startsOn: CalendarDate;
  start: number;
  length: number;
  /** The last day number a repeat may start on; Infinity when it never ends. */
  lastStart: number;
}

function spanOf(blockout: Blockout): Span {
  const startsOn = parseDate(blockout.startsOn);
  const start = dayNumberOf(startsOn);
  // A reversed span (endsOn before startsOn) is bad data; keep its first day rather than drop it,
  // since a blockout wrongly ignored schedules someone who said they cannot come.
  const length = Math.max(0, dayNumber(blockout.endsOn) - start);
  const lastStart = blockout.until === null ? Infinity : Math.max(start, dayNumber(blockout.until));
  return { repeat: blockout.repeat, startsOn, start, length, lastStart };
}

/**
 * The start of the latest weekly repeat that starts on or before `day` (and by `until`). Repeats have
 * the same length, so the latest to start is also the latest to end: if it does not reach `day`, no
 * earlier one does.
 */
function latestWeeklyStart(span: Span, day: number): number {
  const limit = Math.min(day, span.lastStart);
  return span.start + 7 * Math.floor((limit - span.start) / 7);
}

/**
 * The start of the latest monthly repeat (the nth weekday of startsOn) on or before `day` and by
 * `until`, or null. Walks back month by month from `day`'s month; months without an nth weekday (a
 * 5th Sunday) are skipped, so this stops within a few months.
 */
function latestMonthlyStart(span: Span, day: number): number | null {
  const { startsOn } = span;
  const limit = Math.min(day, span.lastStart);
  const weekday = weekdayOf(span.start);
  const nth = Math.floor((startsOn.day - 1) / 7) + 1;
  const limitDate = new Date(limit * MS_PER_DAY);
  let year = limitDate.getUTCFullYear();
  let month = limitDate.getUTCMonth() + 1;
  while (year > startsOn.year || (year === startsOn.year && month >= startsOn.month)) {
    const occurrence = nthWeekdayOfMonth(year, month, weekday, nth);
    if (occurrence !== null && occurrence <= limit) return occurrence;
    month -= 1;
    if (month === 0) [year, month] = [year - 1, 12];
  }
  return null;
}

function spanCovers(span: Span, day: number): boolean {
  if (day < span.start) return false;
  let latestStart: number | null;
  switch (span.repeat) {
    case "none":
      latestStart = span.start;
      break;
    case "weekly":
      latestStart = latestWeeklyStart(span, day);
      break;
    case "monthly":
      latestStart = latestMonthlyStart(span, day);
      break;
  }
  return latestStart !== null && day <= latestStart + span.length;
}

/** Does this blockout (with its repeats) cover `date` ("YYYY-MM-DD")? */
export function blockoutCovers(blockout: Blockout, date: string): boolean {
  return spanCovers(spanOf(blockout), dayNumber(date));
}

/**
 * A test of many days (day numbers, see `dayNumber`) against the same blockouts, which are parsed
 * once: auto-fill asks about every candidate for every plan.
 */
export function blockedOutDays(blockouts: readonly Blockout[]): (day: number) => boolean {
  const spans = blockouts.map(spanOf);
  return (day) => spans.some((span) => spanCovers(span, day));
}

/** Is `date` inside any of a person's blockouts? */
export function isBlockedOut(blockouts: readonly Blockout[], date: string): boolean {
  return blockedOutDays(blockouts)(dayNumber(date));
}
