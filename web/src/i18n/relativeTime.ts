import type { Locale } from "./format.ts";

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 7],
  ["week", 4.35],
  ["month", 12],
  ["year", Infinity],
];

/**
 * "5 minutes ago" / "hace 5 minutos": how long ago an instant was, in the reader's language. Under a
 * minute reads "now"; the exact date and time go in the <time> element's title and dateTime.
 */
const formats = new Map<Locale, Intl.RelativeTimeFormat>();

export function relativeTime(iso: string, locale: Locale, now: number = Date.now()): string {
  // One formatter per language, reused (building one costs more than formatting with it).
  let format = formats.get(locale);
  if (!format) formats.set(locale, (format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" })));
  let value = (new Date(iso).getTime() - now) / 1000;
  if (!Number.isFinite(value)) return "";
  if (Math.abs(value) < 60) return format.format(0, "second");
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), "year");
}
