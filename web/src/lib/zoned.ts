import { dateTimeFormat } from "../i18n/format.ts";

// Wall-clock times in a zone (the church's, an event's) ↔ instants, for the staff forms that type a day and
// a time: events' editor and serving's plans. Numbers for the inputs only: a reader's time goes through
// i18n/format.ts.

/** "2026-12-06T10:00" of an instant in a zone (the editor's local wall-clock fields). */
export function localInput(iso: string, zone: string): string {
  const parts = Object.fromEntries(
    dateTimeFormat("en-GB", {
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      hourCycle: "h23",
      timeZone: zone,
    })
      .formatToParts(new Date(iso))
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}`;
}

/** The zone's offset from UTC (ms) at an instant (whole minutes, as every zone's offset is today). */
function offsetAt(epochMs: number, zone: string): number {
  const minute = epochMs - (((epochMs % 60_000) + 60_000) % 60_000);
  return Date.parse(`${localInput(new Date(minute).toISOString(), zone)}:00Z`) - minute;
}

/**
 * A local wall-clock time ("2026-12-06T10:00") in `zone` as an ISO instant; null when it is not a
 * date and time. As Temporal's "compatible": a time a daylight-saving change skips moves forward,
 * a time it repeats is the earlier one.
 */
export function zonedToIso(local: string, zone: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/.test(local)) return null;
  const asUtc = Date.parse(`${local}:00Z`);
  if (Number.isNaN(asUtc) || new Date(asUtc).toISOString().slice(0, 16) !== local) return null;
  // The offsets in force around that time: a day before, at it and a day after cover any change.
  const candidates = [
    ...new Set([-86_400_000, 0, 86_400_000].map((shift) => asUtc - offsetAt(asUtc + shift, zone))),
  ];
  const valid = candidates.filter((t) => localInput(new Date(t).toISOString(), zone) === local);
  return new Date(valid.length ? Math.min(...valid) : Math.max(...candidates)).toISOString();
}
