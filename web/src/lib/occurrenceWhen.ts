import { browserTimeZone, formatWhen, type Locale } from "../i18n/format.ts";

interface Timed {
  start: string;
  end: string;
  event: { timezone: string; allDay: boolean };
}

/** "Sun, Dec 6, 10:00 AM – 11:00 AM" in the event's own zone (named when it is not the browser's). */
export function occurrenceWhen(o: Timed, locale: Locale): string {
  const timeZone = o.event.timezone;
  if (o.event.allDay) return formatWhen(o.start, locale, { date: "short", time: false, timeZone });
  const start = formatWhen(o.start, locale, { date: "short", timeZone });
  const end = formatWhen(o.end, locale, { date: "none", timeZone, zoneName: timeZone !== browserTimeZone() });
  return `${start} – ${end}`;
}
