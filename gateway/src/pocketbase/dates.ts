/**
 * PocketBase writes datetimes as "2026-11-21 19:47:34.510Z": ISO-8601 in UTC with a space where ISO has
 * "T". Filters and writes want that form; GraphQL, feeds and exports want ISO-8601. Every conversion goes
 * through here.
 */

/** A PocketBase datetime ("2026-11-21 19:47:34.510Z"), as a test. */
const PB_DATE = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

/** A date (a `Date`, epoch milliseconds or any string `Date` parses) → PocketBase's form. Throws on an invalid date. */
export const toPocketBaseDate = (date: Date | number | string): string =>
  (date instanceof Date ? date : new Date(date)).toISOString().replace("T", " ");

/** Now, in PocketBase's form. */
export const pocketBaseNow = () => toPocketBaseDate(new Date());

/** A calendar day "2030-03-03" as PocketBase stores a date-only value (midnight UTC); "" stays "". */
export const pocketBaseDay = (day: string): string => (day ? `${day} 00:00:00.000Z` : "");

/** PocketBase's form → ISO-8601 ("" stays ""). */
export const fromPocketBaseDate = (pbDate: string): string => pbDate.replace(" ", "T");

/** PocketBase's form, "" or nothing → ISO-8601 or null (an unset date field is ""). */
export const fromPocketBaseDateOrNull = (pbDate: string | null | undefined): string | null =>
  pbDate ? fromPocketBaseDate(pbDate) : null;

/** PocketBase's form → a `Date`. */
export const parsePocketBaseDate = (pbDate: string): Date => new Date(fromPocketBaseDate(pbDate));

/** Whether a value is a PocketBase datetime (records carry them as plain strings). */
export const isPocketBaseDate = (value: unknown): value is string =>
  typeof value === "string" && PB_DATE.test(value);

/** Today's date (YYYY-MM-DD, as date-only fields hold it) in the church's time zone. */
export function todayIn(timeZone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat("en-CA", {
      timeZone,
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
    }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}
