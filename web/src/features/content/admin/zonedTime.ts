import { dateTimeFormat } from "../../../i18n/format.ts";

// Wall-clock times in the church's time zone ↔ instants.
//
// A <input type="datetime-local"> gives "2026-12-01T10:00" with no zone. The browser would read it in
// the *browser's* zone (new Date("2026-12-01T10:00")), but an editor travelling or working remotely
// means the church's zone (settings.timezone). Intl can only go instant → wall time, so the reverse is
// found by trying the zone's UTC offsets around that date and keeping the one that round-trips.

const DAY_MS = 24 * 60 * 60 * 1000;
const DATETIME_LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

/** Numbers, not text for a reader: the wall-clock fields of an instant, read back by wallParts. */
const partsFormatter = (timeZone: string) =>
  dateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  });

/** The wall-clock fields of `instant` in `timeZone`. */
function wallParts(instant: number, timeZone: string) {
  const parts = partsFormatter(timeZone).formatToParts(new Date(instant));
  const get = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return {
    year: get("year"),
    month: get("month"),
    day: get("day"),
    hour: get("hour"),
    minute: get("minute"),
    second: get("second"),
  };
}

/** How far the zone's clocks are ahead of UTC at `instant`, in ms (Chicago in winter: −6 h). */
function zoneOffset(instant: number, timeZone: string): number {
  const w = wallParts(instant, timeZone);
  const wallAsUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return wallAsUtc - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant (ISO string) at which clocks in `timeZone` show `value` ("YYYY-MM-DDTHH:mm"), or null
 * when `value` is not such a string.
 *
 * The wall time read as if it were UTC is off by exactly the zone's offset at the real instant. The
 * offsets a day before and after cover both sides of any daylight-saving change near that date; each
 * gives a candidate, and a candidate is right when the zone's offset *at it* is the one used.
 * - Usually both candidates are the same instant.
 * - When clocks go back (01:30 happens twice) both are right: the earlier one is taken, as calendars do.
 * - When clocks go forward (02:30 does not exist) neither is right: the offset before the change is
 *   used, which lands the same distance past the gap (02:30 → 03:30), again as calendars do.
 */
export function wallTimeToInstant(value: string, timeZone: string): string | null {
  const match = DATETIME_LOCAL.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi] = match.map(Number) as [number, number, number, number, number, number];
  const wall = Date.UTC(y, mo - 1, d, h, mi);
  if (Number.isNaN(wall)) return null;
  const before = zoneOffset(wall - DAY_MS, timeZone);
  const after = zoneOffset(wall + DAY_MS, timeZone);
  const valid = [wall - before, wall - after]
    .filter((candidate) => zoneOffset(candidate, timeZone) === wall - candidate)
    .sort((a, b) => a - b);
  return new Date(valid[0] ?? wall - before).toISOString();
}

/** The "YYYY-MM-DDTHH:mm" a datetime-local input shows for `iso` in `timeZone`. */
export function instantToWallTime(iso: string, timeZone: string): string {
  const w = wallParts(new Date(iso).getTime(), timeZone);
  const pad = (n: number, size = 2) => String(n).padStart(size, "0");
  return `${pad(w.year, 4)}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}
