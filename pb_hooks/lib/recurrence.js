/// <reference path="../../pb_data/types.d.ts" />
// Is an instant a real occurrence of an event's series? The hook's half of the sign-up window
// (lib/events.js#signUpRefusal): a registration or RSVP written through the REST API names its
// occurrence by its original start, and only the dates the series generates, EXDATEs removed, may take
// one. This is the gateway's expansion (gateway/src/schema/events/recurrence.ts) ported to the
// PocketBase JSVM, which has no Temporal and no Intl time zones: local calendar dates are plain day
// numbers, and the zone's rules come from Go through PocketBase's DateTime (`new DateTime(local, zone)`
// parses a wall-clock time in the zone; `.time().in(location)` reads an instant's wall clock there).
// The same rule parts are supported as there: FREQ DAILY|WEEKLY|MONTHLY|YEARLY, INTERVAL, COUNT, UNTIL,
// BYDAY (with ordinals), BYMONTHDAY, BYMONTH, BYSETPOS, WKST. A rule it cannot read takes no sign-ups,
// as the gateway refuses to save one. gateway/test/hook-recurrence.int.test.ts checks the two agree.

const DAY_MS = 86400000;
const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"];
const MAX_EMPTY_PERIODS = 2000;
const MAX_PERIODS = 200000;

/** A plain date as days since 1970-01-01, and back. */
const dayNumber = (y, m, d) => Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);
const dateOf = (n) => {
  const d = new Date(n * DAY_MS);
  return { y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate() };
};
/** ISO day of week of a day number: Monday 1 … Sunday 7 (1970-01-01 was a Thursday). */
const dayOfWeek = (n) => ((((n + 3) % 7) + 7) % 7) + 1;
const daysInMonth = (y, m) => dayNumber(m === 12 ? y + 1 : y, m === 12 ? 1 : m + 1, 1) - dayNumber(y, m, 1);
const daysInYear = (y) => dayNumber(y + 1, 1, 1) - dayNumber(y, 1, 1);
const pad = (n, width) => String(n).padStart(width || 2, "0");

/** "YYYY-MM-DD HH:MM:SS" of a day number and seconds of the day (PocketBase's date text, no zone). */
const wallText = (day, seconds) => {
  const d = dateOf(day);
  const h = Math.floor(seconds / 3600);
  const mi = Math.floor((seconds % 3600) / 60);
  return `${d.y}-${pad(d.m)}-${pad(d.d)} ${pad(h)}:${pad(mi)}:${pad(seconds % 60)}`;
};
const pbText = (ms) => new Date(ms).toISOString().replace("T", " ");
const msOf = (pbDate) => Date.parse(pbDate.replace(" ", "T"));

/** The zone's clock: wall-clock reading of an instant, and the instant of a wall-clock time. */
function zoneClock(zone) {
  const location = new DateTime("2000-01-01 00:00:00", zone).time().location();
  /** { day, seconds } of the instant `ms` on the zone's wall clock. */
  const wall = (ms) => {
    const text = new DateTime(pbText(ms)).time().in(location).format("2006-01-02 15:04:05");
    const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text);
    return { day: dayNumber(+m[1], +m[2], +m[3]), seconds: +m[4] * 3600 + +m[5] * 60 + +m[6] };
  };
  const offsetAt = (ms) => {
    const w = wall(ms);
    return w.day * DAY_MS + w.seconds * 1000 - (ms - (ms % 1000));
  };
  /**
   * The instant of a wall-clock time, as Temporal's "compatible" disambiguation places it (what the
   * gateway does): an ambiguous time takes the earlier instant, a time inside a spring-forward gap
   * moves forward by the gap.
   */
  const instant = (day, seconds) => {
    const naive = day * DAY_MS + seconds * 1000;
    const guess = msOf(new DateTime(wallText(day, seconds), zone).string());
    const before = offsetAt(guess - DAY_MS);
    const after = offsetAt(guess + DAY_MS);
    const fits = [naive - before, naive - after]
      .filter((ms) => {
        const w = wall(ms);
        return w.day === day && w.seconds === seconds;
      })
      .sort((a, b) => a - b);
    return fits.length ? fits[0] : naive - before;
  };
  return { wall, instant };
}

/** Parse an RRULE value ("FREQ=WEEKLY;BYDAY=SU"); null when it has a part this port does not read. */
function parseRule(text, clock) {
  const parts = {};
  for (const part of text
    .trim()
    .replace(/^RRULE:/i, "")
    .split(";")) {
    const pieces = part.split("=");
    if (pieces.length !== 2 || !pieces[1]) return null;
    parts[pieces[0].toUpperCase()] = pieces[1].toUpperCase();
  }
  const known = ["FREQ", "INTERVAL", "COUNT", "UNTIL", "BYDAY", "BYMONTHDAY", "BYMONTH", "BYSETPOS", "WKST"];
  if (Object.keys(parts).some((k) => known.indexOf(k) < 0)) return null;
  const freq = parts.FREQ;
  if (["DAILY", "WEEKLY", "MONTHLY", "YEARLY"].indexOf(freq) < 0) return null;
  const rule = { freq, interval: parts.INTERVAL ? +parts.INTERVAL : 1, weekStart: 1 };
  if (!(rule.interval >= 1)) return null;
  if (parts.COUNT) rule.count = +parts.COUNT;
  if (parts.UNTIL) {
    const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(parts.UNTIL);
    if (!m) return null;
    const day = dayNumber(+m[1], +m[2], +m[3]);
    // A date alone ends with that local day; a time without Z is local; with Z, UTC.
    const seconds = m[4] === undefined ? 23 * 3600 + 59 * 60 + 59 : +m[4] * 3600 + +m[5] * 60 + +m[6];
    rule.until = m[7] ? day * DAY_MS + seconds * 1000 : clock.instant(day, seconds);
  }
  if (parts.WKST) rule.weekStart = WEEKDAYS.indexOf(parts.WKST) + 1;
  if (!rule.weekStart) return null;
  if (parts.BYDAY) {
    rule.byDay = [];
    for (const item of parts.BYDAY.split(",")) {
      const m = /^([+-]?\d{1,2})?(MO|TU|WE|TH|FR|SA|SU)$/.exec(item);
      if (!m) return null;
      rule.byDay.push({ day: WEEKDAYS.indexOf(m[2]) + 1, ordinal: m[1] === undefined ? undefined : +m[1] });
    }
  }
  if (parts.BYMONTHDAY) rule.byMonthDay = parts.BYMONTHDAY.split(",").map(Number);
  if (parts.BYMONTH) rule.byMonth = parts.BYMONTH.split(",").map(Number);
  if (parts.BYSETPOS) rule.bySetPos = +parts.BYSETPOS;
  return rule;
}

const monthDayMatches = (wanted, day, length) =>
  wanted.some((w) => (w > 0 ? w === day : length + w + 1 === day));

/** The days (day numbers) of one month a monthly (or yearly-by-month) rule selects, in order. */
function monthDays(rule, y, m, startDay) {
  const length = daysInMonth(y, m);
  const first = dayNumber(y, m, 1);
  const all = [];
  for (let i = 0; i < length; i++) all.push(first + i);
  if (rule.byDay && rule.byDay.length) {
    const picked = {};
    for (const by of rule.byDay) {
      const matching = all.filter((n) => dayOfWeek(n) === by.day);
      if (by.ordinal === undefined) matching.forEach((n) => (picked[n] = true));
      else {
        const hit = by.ordinal > 0 ? matching[by.ordinal - 1] : matching[matching.length + by.ordinal];
        if (hit !== undefined) picked[hit] = true;
      }
    }
    let days = all.filter((n) => picked[n]);
    if (rule.byMonthDay && rule.byMonthDay.length)
      days = days.filter((n) => monthDayMatches(rule.byMonthDay, n - first + 1, length));
    return days;
  }
  if (rule.byMonthDay && rule.byMonthDay.length)
    return all.filter((n) => monthDayMatches(rule.byMonthDay, n - first + 1, length));
  // The start's day of the month; months without it (the 31st, 29 February) are skipped (RFC 5545).
  return startDay <= length ? [first + startDay - 1] : [];
}

/** The candidate days of the `index`-th period of the rule (before COUNT/UNTIL and the start cut). */
function periodDays(rule, start, index) {
  const step = index * rule.interval;
  const s = dateOf(start);
  let days;
  if (rule.freq === "DAILY") {
    days = [start + step];
    if (rule.byDay && rule.byDay.length)
      days = days.filter((n) => rule.byDay.some((b) => b.day === dayOfWeek(n)));
    if (rule.byMonthDay && rule.byMonthDay.length)
      days = days.filter((n) => {
        const d = dateOf(n);
        return monthDayMatches(rule.byMonthDay, d.d, daysInMonth(d.y, d.m));
      });
  } else if (rule.freq === "WEEKLY") {
    const weekBegin = start - ((dayOfWeek(start) - rule.weekStart + 7) % 7) + 7 * step;
    const wanted = rule.byDay && rule.byDay.length ? rule.byDay.map((b) => b.day) : [dayOfWeek(start)];
    days = [];
    for (let i = 0; i < 7; i++) if (wanted.indexOf(dayOfWeek(weekBegin + i)) >= 0) days.push(weekBegin + i);
  } else if (rule.freq === "MONTHLY") {
    const months = s.y * 12 + (s.m - 1) + step;
    days = monthDays(rule, Math.floor(months / 12), (months % 12) + 1, s.d);
  } else {
    const year = s.y + step;
    const hasOrdinal = rule.byDay && rule.byDay.some((b) => b.ordinal !== undefined);
    if (!(rule.byMonth && rule.byMonth.length) && hasOrdinal) {
      // "20MO" in a yearly rule without BYMONTH counts weekdays through the whole year.
      const first = dayNumber(year, 1, 1);
      const all = [];
      for (let i = 0; i < daysInYear(year); i++) all.push(first + i);
      const picked = {};
      for (const by of rule.byDay) {
        const matching = all.filter((n) => dayOfWeek(n) === by.day);
        if (by.ordinal === undefined) matching.forEach((n) => (picked[n] = true));
        else {
          const hit = by.ordinal > 0 ? matching[by.ordinal - 1] : matching[matching.length + by.ordinal];
          if (hit !== undefined) picked[hit] = true;
        }
      }
      days = all.filter((n) => picked[n]);
    } else {
      const months = rule.byMonth && rule.byMonth.length ? rule.byMonth.slice().sort((a, b) => a - b) : [s.m];
      days = [];
      for (const m of months) days = days.concat(monthDays(rule, year, m, s.d));
    }
  }
  if (rule.byMonth && rule.byMonth.length && rule.freq !== "YEARLY")
    days = days.filter((n) => rule.byMonth.indexOf(dateOf(n).m) >= 0);
  if (rule.bySetPos && days.length) {
    const hit = rule.bySetPos > 0 ? days[rule.bySetPos - 1] : days[days.length + rule.bySetPos];
    days = hit === undefined ? [] : [hit];
  }
  return days;
}

/** The EXDATEs (local start times, "2026-12-27T10:00:00", comma separated) as "day:seconds" keys. */
function excludedKeys(exdates) {
  const keys = {};
  for (const text of (exdates || "").split(",")) {
    const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?/.exec(text.trim());
    if (m) keys[`${dayNumber(+m[1], +m[2], +m[3])}:${+m[4] * 3600 + +m[5] * 60 + +(m[6] || 0)}`] = true;
  }
  return keys;
}

/**
 * Whether `occurrenceStart` (PocketBase date text) is the original start of one of the event's
 * occurrences: a date its series generates (COUNT and UNTIL applied), not removed by an EXDATE.
 * Cancelled dates (event_exceptions) are the caller's to check.
 */
function isOccurrence(event, occurrenceStart) {
  const target = msOf(occurrenceStart);
  const startMs = msOf(event.getDateTime("startsAt").string());
  if (!(target >= startMs)) return false;
  const clock = zoneClock(event.getString("timezone"));
  const excluded = excludedKeys(event.getString("exdates"));
  const local = clock.wall(target);
  if (excluded[`${local.day}:${local.seconds}`]) return false;
  const text = event.getString("rrule");
  if (!text) return target === startMs;
  const rule = parseRule(text, clock);
  if (!rule) return false;
  const first = clock.wall(startMs);
  // Far enough before the target's local day that the wall clock cannot reach it (zones differ by < 2 days).
  const near = local.day - 2;
  let generated = 0;
  let emptyRun = 0;
  for (let period = 0; period < MAX_PERIODS; period++) {
    const days = periodDays(rule, first.day, period);
    emptyRun = days.length ? 0 : emptyRun + 1;
    if (emptyRun > MAX_EMPTY_PERIODS) return false;
    for (const day of days) {
      if (day < first.day) continue;
      // Days well before the target only count (COUNT) and are checked against UNTIL: their instant
      // lies within a day and a half of their wall-clock reading, read as UTC.
      const at =
        day < near && day !== first.day && !(rule.until !== undefined && (day + 2) * DAY_MS > rule.until)
          ? null
          : clock.instant(day, first.seconds);
      if (at !== null && at < startMs) continue;
      if (at !== null && rule.until !== undefined && at > rule.until) return false;
      generated++;
      if (rule.count && generated > rule.count) return false;
      if (at === null) continue;
      if (at === target) return true;
      if (at > target) return false;
    }
  }
  return false;
}

module.exports = { isOccurrence };
