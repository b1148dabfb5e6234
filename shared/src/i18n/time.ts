import type { Locale } from "./format.ts";

/**
 * How a time of day is written everywhere — screens, mails, the recurrence text — in each language's
 * own clock: "6:30 PM" in English, "18:30" in Spanish. Formats that show a time take these options
 * (web/src/i18n/format.ts and the gateway's mails); web/src/i18n/time-format.test.ts fails when a
 * screen formats a time another way.
 */
export const TIME_OF_DAY = {
  hour: "numeric",
  minute: "2-digit",
} as const satisfies Intl.DateTimeFormatOptions;

const clocks = new Map<Locale, Intl.DateTimeFormat>();

/** A wall-clock time (hours 0–23 and minutes, no zone) as TIME_OF_DAY writes it: (18, 30) → "6:30 PM". */
export function formatClock(hour: number, minute: number, locale: Locale): string {
  let clock = clocks.get(locale);
  if (!clock) {
    clock = new Intl.DateTimeFormat(locale, { ...TIME_OF_DAY, timeZone: "UTC" });
    clocks.set(locale, clock);
  }
  return clock.format(Date.UTC(2024, 0, 1, hour, minute));
}
