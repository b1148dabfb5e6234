import { dateTimeFormat, type Locale } from "../i18n/format.ts";

interface Timed {
  start: string;
  end: string;
  event: { timezone: string; allDay: boolean };
}

/** "Sun, Dec 6, 10:00 AM – 11:00 AM" in the event's own zone (named when it is not the browser's). */
export function occurrenceWhen(o: Timed, locale: Locale): string {
  const zone = o.event.timezone;
  if (o.event.allDay)
    return dateTimeFormat(locale, {
      weekday: "short",
      month: "short",
      day: "numeric",
      timeZone: zone,
    }).format(new Date(o.start));
  const browser = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const start = dateTimeFormat(locale, {
    weekday: "short",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone: zone,
  }).format(new Date(o.start));
  const end = dateTimeFormat(locale, {
    hour: "numeric",
    minute: "2-digit",
    timeZone: zone,
    ...(zone !== browser ? { timeZoneName: "short" } : {}),
  }).format(new Date(o.end));
  return `${start} – ${end}`;
}
