import { Temporal } from "temporal-polyfill";
import {
  expand,
  parseRRule,
  WEEKDAYS,
  type Occurrence,
  type RecurrenceRule,
  type Series,
} from "./recurrence.ts";
import type { EventExceptionRecord, EventRecord } from "../../pocketbase/records.ts";
import { formatClock } from "@flock/shared/i18n/time";

/** Longest range one query may expand (PRODUCT.md §9: 18 months). */
export const MAX_RANGE_DAYS = 18 * 31;

/** PocketBase date text ("2026-12-06 15:00:00.000Z") ⇄ Temporal.Instant. */
export const instantOf = (pbDate: string) => Temporal.Instant.from(pbDate.replace(" ", "T"));
export const pbDateOf = (instant: Temporal.Instant) =>
  new Date(instant.epochMilliseconds).toISOString().replace("T", " ");
export const isoOf = (instant: Temporal.Instant) => new Date(instant.epochMilliseconds).toISOString();

/** The event's series: DTSTART/DTEND in its zone, its rule and EXDATEs (local times). */
export function seriesOf(event: EventRecord): Series {
  const start = instantOf(event.startsAt).toZonedDateTimeISO(event.timezone);
  const end = instantOf(event.endsAt).toZonedDateTimeISO(event.timezone);
  return {
    start,
    end,
    rule: event.rrule ? parseRRule(event.rrule, event.timezone) : null,
    exdates: event.exdates
      ? event.exdates
          .split(",")
          .filter(Boolean)
          .map((d) => Temporal.PlainDateTime.from(d))
      : [],
  };
}

export interface OccurrenceModel extends Occurrence {
  event: EventRecord;
  status: "SCHEDULED" | "MOVED" | "CANCELLED";
  note: string | null;
}

/**
 * Occurrences of one event overlapping [from, to), exceptions applied: a cancelled date stays (marked
 * CANCELLED) so calendars can say so; a moved one carries its new times and is listed where it now
 * falls, also when its original date lies outside the range.
 */
export function occurrencesOf(
  event: EventRecord,
  exceptions: EventExceptionRecord[],
  from: Temporal.Instant,
  to: Temporal.Instant,
): OccurrenceModel[] {
  const series = seriesOf(event);
  const byOriginal = new Map(exceptions.map((x) => [instantOf(x.originalStart).epochMilliseconds, x]));
  const zone = event.timezone;
  const result: OccurrenceModel[] = [];
  const apply = (o: Occurrence): OccurrenceModel => {
    const exception = byOriginal.get(o.originalStart.toInstant().epochMilliseconds);
    const cancelled = event.status === "cancelled";
    if (exception?.status === "moved" && exception.startsAt) {
      return {
        event,
        originalStart: o.originalStart,
        start: instantOf(exception.startsAt).toZonedDateTimeISO(zone),
        end: instantOf(exception.endsAt || exception.startsAt).toZonedDateTimeISO(zone),
        status: cancelled ? "CANCELLED" : "MOVED",
        note: exception.note || null,
      };
    }
    return {
      event,
      ...o,
      status: cancelled || exception?.status === "cancelled" ? "CANCELLED" : "SCHEDULED",
      note: exception?.note || null,
    };
  };
  const inRange = (o: OccurrenceModel) =>
    Temporal.Instant.compare(o.end.toInstant(), from) > 0 &&
    Temporal.Instant.compare(o.start.toInstant(), to) < 0;
  for (const o of expand(series, from, to)) {
    const model = apply(o);
    if (inRange(model)) result.push(model);
  }
  // Moved into the range from outside it.
  for (const x of exceptions) {
    if (x.status !== "moved" || !x.startsAt) continue;
    const original = instantOf(x.originalStart);
    if (result.some((o) => o.originalStart.toInstant().equals(original))) continue;
    const [generated] = expand(series, original, original.add({ seconds: 1 }), 1);
    if (!generated || !generated.originalStart.toInstant().equals(original)) continue;
    const model = apply(generated);
    if (inRange(model)) result.push(model);
  }
  return result.sort((a, b) => Temporal.Instant.compare(a.start.toInstant(), b.start.toInstant()));
}

/** The occurrence whose original start is `original`, or null when the series has none then. */
export function occurrenceAt(
  event: EventRecord,
  exceptions: EventExceptionRecord[],
  original: Temporal.Instant,
): OccurrenceModel | null {
  const series = seriesOf(event);
  const [generated] = expand({ ...series }, original, original.add({ seconds: 1 }), 1);
  if (!generated || !generated.originalStart.toInstant().equals(original)) return null;
  const own = exceptions.filter((x) => instantOf(x.originalStart).equals(original));
  // Expand only around the original start and where an exception moved it (not 1900–9999: that cost
  // ~0.3 s of CPU per registration, RSVP or live subscription of a weekly event).
  const times = [original, ...own.flatMap((x) => (x.startsAt ? [instantOf(x.startsAt)] : []))].sort(
    Temporal.Instant.compare,
  );
  const all = occurrencesOf(
    event,
    own,
    times[0]!.subtract({ hours: 24 }),
    times[times.length - 1]!.add({ hours: 24 }),
  );
  return all.find((o) => o.originalStart.toInstant().equals(original)) ?? null;
}

/** Local date of the original start (the ?date= of an occurrence's page). */
export const dateKeyOf = (o: Pick<OccurrenceModel, "originalStart">) =>
  o.originalStart.toPlainDate().toString();

// ---------------------------------------------------------------------------------------------------
// The rule in words (the editor's preview and the event page): "Every 2nd Sunday at 10:00 AM, until 31 Dec 2027"
// (the time as every screen writes it: @flock/shared/i18n/time).

type Locale = "en" | "es";
const DAY_NAMES: Record<Locale, string[]> = {
  en: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"],
  es: ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"],
};
const MONTHS: Record<Locale, string[]> = {
  en: ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"],
  es: ["ene", "feb", "mar", "abr", "may", "jun", "jul", "ago", "sept", "oct", "nov", "dic"],
};
const ORDINALS: Record<Locale, (n: number) => string> = {
  en: (n) =>
    n === -1
      ? "last"
      : n === -2
        ? "second-to-last"
        : `${n}${n % 10 === 1 && n !== 11 ? "st" : n % 10 === 2 && n !== 12 ? "nd" : n % 10 === 3 && n !== 13 ? "rd" : "th"}`,
  es: (n) => (n === -1 ? "último" : n === -2 ? "penúltimo" : `${n}.º`),
};

const list = (items: string[], locale: Locale) => {
  if (items.length <= 1) return items.join("");
  const and = locale === "es" ? " y " : " and ";
  return `${items.slice(0, -1).join(", ")}${and}${items[items.length - 1]}`;
};

export const localeOf = (locale: string | null | undefined): Locale =>
  locale?.toLowerCase().startsWith("es") ? "es" : "en";

/** "31 Dec 2027" / "31 dic 2027". */
export const shortDate = (d: Temporal.PlainDate, locale: Locale) =>
  `${d.day} ${MONTHS[locale][d.month - 1]} ${d.year}`;

export function describeRule(
  rule: RecurrenceRule,
  start: Temporal.ZonedDateTime,
  localeName: string | null | undefined,
): string {
  const locale = localeOf(localeName);
  const es = locale === "es";
  const days = DAY_NAMES[locale];
  const time = formatClock(start.hour, start.minute, locale);
  const n = rule.interval;
  const byDays = (rule.byDay ?? []).map((b) =>
    b.ordinal ? `${ORDINALS[locale](b.ordinal)} ${days[b.day - 1]}` : days[b.day - 1]!,
  );
  let what: string;
  switch (rule.freq) {
    case "DAILY":
      what = n === 1 ? (es ? "Todos los días" : "Every day") : es ? `Cada ${n} días` : `Every ${n} days`;
      if (byDays.length) what += es ? ` (${list(byDays, locale)})` : ` (${list(byDays, locale)})`;
      break;
    case "WEEKLY": {
      const on = byDays.length ? byDays : [days[start.dayOfWeek - 1]!];
      what =
        n === 1
          ? es
            ? `Cada ${list(on, locale)}`
            : `Every ${list(on, locale)}`
          : es
            ? `Cada ${n} semanas: ${list(on, locale)}`
            : `Every ${n} weeks on ${list(on, locale)}`;
      break;
    }
    case "MONTHLY": {
      const every =
        n === 1 ? (es ? "Cada mes" : "Every month") : es ? `Cada ${n} meses` : `Every ${n} months`;
      if (byDays.length && byDays.every((_, i) => rule.byDay![i]!.ordinal))
        what =
          n === 1
            ? es
              ? `Cada ${list(byDays, locale)} del mes`
              : `Every ${list(byDays, locale)}`
            : `${every}, ${list(byDays, locale)}`;
      else if (rule.byMonthDay?.length) {
        const monthDays = rule.byMonthDay.map((d) =>
          d === -1 ? (es ? "el último día" : "the last day") : es ? `el día ${d}` : `day ${d}`,
        );
        what = `${every}${es ? ", " : " on "}${list(monthDays, locale)}`;
      } else what = `${every}${es ? `, el día ${start.day}` : ` on day ${start.day}`}`;
      break;
    }
    case "YEARLY": {
      const months = (rule.byMonth?.length ? rule.byMonth : [start.month]).map((m) => MONTHS[locale][m - 1]!);
      const every = n === 1 ? (es ? "Cada año" : "Every year") : es ? `Cada ${n} años` : `Every ${n} years`;
      what = byDays.length
        ? `${every}, ${list(byDays, locale)} ${es ? "de" : "of"} ${list(months, locale)}`
        : `${every}${es ? `, el ${start.day} de ${months[0]}` : ` on ${start.day} ${months[0]}`}`;
      break;
    }
  }
  let text = `${what} ${es ? "a las" : "at"} ${time}`;
  if (rule.count) text += es ? `, ${rule.count} veces` : `, ${rule.count} times`;
  if (rule.until)
    text += `${es ? ", hasta el" : ", until"} ${shortDate(rule.until.toZonedDateTimeISO(start.timeZoneId).toPlainDate(), locale)}`;
  return text;
}

export { WEEKDAYS };
