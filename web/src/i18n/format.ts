import type { Locale } from "@flock/shared/i18n/format";
import { formatClock, TIME_OF_DAY } from "@flock/shared/i18n/time";

// The languages, and ICU message formatting, are shared with the gateway (@flock/shared/i18n/format).
export { interpolate, LOCALES, type Locale } from "@flock/shared/i18n/format";

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * One Intl.DateTimeFormat per locale and options, reused: building one costs far more than formatting
 * with it (a directory page formats a date or time per row, and the formatters were ~15 % of its
 * start-up script time on a throttled phone CPU).
 */
export function dateTimeFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(locale, options);
    formatters.set(key, formatter);
  }
  return formatter;
}

// Every date with a time on a screen is written by the functions below, the time always as
// TIME_OF_DAY ("6:30 PM" / "18:30"); time-format.test.ts fails when a screen formats a time itself.

/** "18:30" → "6:30 PM" / "18:30" in the reader's language (a wall-clock time in the church's zone). */
export function formatWallTime(time: string, locale: Locale): string {
  const [h, m] = time.split(":").map(Number) as [number, number];
  return formatClock(h, m, locale);
}

/** How much of the date goes with the time. */
export type DatePart = "none" | "numeric" | "short" | "medium" | "long" | "full";
const DATE_PARTS: Record<DatePart, Intl.DateTimeFormatOptions> = {
  none: {},
  numeric: { year: "2-digit", month: "numeric", day: "numeric" }, // 11/27/26
  short: { weekday: "short", month: "short", day: "numeric" }, // Fri, Nov 27
  medium: { year: "numeric", month: "short", day: "numeric" }, // Nov 27, 2026
  long: { year: "numeric", month: "long", day: "numeric" }, // November 27, 2026
  full: { weekday: "long", year: "numeric", month: "long", day: "numeric" }, // Friday, November 27, 2026
};

/**
 * An instant as a date (`date`) and time of day in `timeZone` (the browser's when absent): "Nov 27,
 * 2026, 6:30 PM". `time: false` leaves the time out (an all-day event); `zoneName` names the zone.
 */
export function formatWhen(
  iso: string,
  locale: Locale,
  options: { date?: DatePart; time?: boolean; timeZone?: string; zoneName?: boolean } = {},
): string {
  const { date = "medium", time = true, timeZone, zoneName = false } = options;
  return dateTimeFormat(locale, {
    ...DATE_PARTS[date],
    ...(time ? TIME_OF_DAY : {}),
    ...(timeZone ? { timeZone } : {}),
    ...(zoneName ? { timeZoneName: "short" } : {}),
  }).format(new Date(iso));
}

/** An instant shown in the church's time zone, with the zone named when it differs from the browser's. */
export function formatDateTime(
  iso: string,
  locale: Locale,
  timeZone: string,
  browserZone = browserTimeZone(),
): string {
  return formatWhen(iso, locale, { timeZone, zoneName: timeZone !== browserZone });
}

/** The long name of a zone ("Central Standard Time"), for notes like "Times are in …". */
export function timeZoneName(timeZone: string, locale: Locale, at = new Date()): string {
  const part = dateTimeFormat(locale, { timeZone, timeZoneName: "long" })
    .formatToParts(at)
    .find((p) => p.type === "timeZoneName");
  return part?.value ?? timeZone;
}

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

/** A calendar date ("November 21, 2026") of an instant, in the church's time zone. */
export function formatDate(iso: string, locale: Locale, timeZone: string): string {
  return dateTimeFormat(locale, { year: "numeric", month: "long", day: "numeric", timeZone }).format(
    new Date(iso),
  );
}

/** Today's date (YYYY-MM-DD) in a time zone: the bound for date inputs ("not in the future"). */
export function todayIn(timeZone: string, now = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return dateTimeFormat("en-CA", { year: "numeric", month: "2-digit", day: "2-digit", timeZone }).format(now);
}

/** A calendar date written "YYYY-MM-DD" (a birth date, a planned visit): no time zone applies. */
export function formatCalendarDate(ymd: string, locale: Locale, style: "long" | "full" = "long"): string {
  const [y, m, d] = ymd.split("-").map(Number);
  if (!y || !m || !d) return ymd;
  const options: Intl.DateTimeFormatOptions = {
    year: "numeric",
    month: "long",
    day: "numeric",
    timeZone: "UTC",
    ...(style === "full" ? { weekday: "long" } : {}),
  };
  return dateTimeFormat(locale, options).format(Date.UTC(y, m - 1, d));
}

/** A birthday without its year ("March 14" / "14 de marzo"). */
export function formatMonthDay(month: number, day: number, locale: Locale): string {
  return dateTimeFormat(locale, { month: "long", day: "numeric", timeZone: "UTC" }).format(
    Date.UTC(2000, month - 1, day),
  );
}
