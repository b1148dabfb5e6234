/** Calendar arithmetic on plain dates ("YYYY-MM-DD"), done in UTC so no zone can shift a day. */
export type Ymd = string;

const toDate = (d: Ymd) => new Date(`${d}T00:00:00Z`);
const toYmd = (date: Date): Ymd => date.toISOString().slice(0, 10);

export const addDays = (d: Ymd, days: number): Ymd =>
  toYmd(new Date(toDate(d).getTime() + days * 86_400_000));

/** The first day of d's month. */
export const monthOf = (d: Ymd): Ymd => `${d.slice(0, 7)}-01`;

/** The first day of the month `months` after (or before) d's month. */
export function shiftMonth(d: Ymd, months: number): Ymd {
  const date = toDate(monthOf(d));
  date.setUTCMonth(date.getUTCMonth() + months);
  return toYmd(date);
}

/** The Sunday on or before d (weeks start on Sunday, as church calendars do). */
export const startOfWeek = (d: Ymd): Ymd => addDays(d, -toDate(d).getUTCDay());

/** The whole weeks that show d's month: its days and the [start, end) range. */
export function monthGrid(d: Ymd): { days: Ymd[]; range: [Ymd, Ymd] } {
  const first = monthOf(d);
  const start = startOfWeek(first);
  const next = shiftMonth(first, 1);
  const weeks = Math.ceil((toDate(next).getTime() - toDate(start).getTime()) / (7 * 86_400_000));
  const days = Array.from({ length: weeks * 7 }, (_, i) => addDays(start, i));
  return { days, range: [start, addDays(start, weeks * 7)] };
}
