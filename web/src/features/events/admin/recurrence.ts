/** The recurrence builder's choices ⇄ an RRULE value (the gateway parses, checks and previews it). */
export type Frequency = "NONE" | "DAILY" | "WEEKLY" | "MONTHLY" | "YEARLY";
export const WEEKDAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface RecurrenceChoice {
  freq: Frequency;
  interval: number;
  weekdays: Weekday[];
  /** Monthly: on the start's day of the month, or on its nth weekday ("2nd Sunday", "last Friday"). */
  monthly: "day" | "weekday";
  ordinal: number;
  end: "never" | "until" | "count";
  until: string;
  count: number;
}

export const NO_REPEAT: RecurrenceChoice = {
  freq: "NONE",
  interval: 1,
  weekdays: [],
  monthly: "weekday",
  ordinal: 1,
  end: "never",
  until: "",
  count: 10,
};

/** Weekday code of a local date ("2026-12-06" → SU). */
export function weekdayOf(ymd: string): Weekday {
  const day = new Date(`${ymd}T12:00:00Z`).getUTCDay();
  return WEEKDAYS[(day + 6) % 7]!;
}

/** Which occurrence of its weekday a date is in its month: 1–4, or -1 for the last one. */
export function ordinalOf(ymd: string): number {
  const day = Number(ymd.slice(8, 10));
  const date = new Date(`${ymd}T12:00:00Z`);
  const daysInMonth = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 0)).getUTCDate();
  const nth = Math.ceil(day / 7);
  return day + 7 > daysInMonth && nth >= 4 ? -1 : nth;
}

export function toRRule(choice: RecurrenceChoice, startDate: string): string {
  if (choice.freq === "NONE") return "";
  const parts = [`FREQ=${choice.freq}`];
  if (choice.interval > 1) parts.push(`INTERVAL=${choice.interval}`);
  if (choice.freq === "WEEKLY")
    parts.push(`BYDAY=${(choice.weekdays.length ? choice.weekdays : [weekdayOf(startDate)]).join(",")}`);
  if (choice.freq === "MONTHLY" && choice.monthly === "weekday")
    parts.push(`BYDAY=${choice.ordinal}${weekdayOf(startDate)}`);
  if (choice.end === "until" && /^\d{4}-\d{2}-\d{2}$/.test(choice.until))
    parts.push(`UNTIL=${choice.until.replace(/-/g, "")}T235959Z`);
  if (choice.end === "count" && choice.count > 0) parts.push(`COUNT=${choice.count}`);
  return parts.join(";");
}

/** Read a stored rule back into the builder (rules it cannot show keep their text, see the editor). */
export function fromRRule(rrule: string | null | undefined): RecurrenceChoice {
  if (!rrule) return NO_REPEAT;
  const parts = new Map(rrule.split(";").map((p) => p.split("=") as [string, string]));
  const freq = (parts.get("FREQ") ?? "NONE") as Frequency;
  const byDay = parts.get("BYDAY")?.split(",") ?? [];
  const ordinal = /^(-?\d)/.exec(byDay[0] ?? "");
  const until = parts.get("UNTIL");
  return {
    freq,
    interval: Number(parts.get("INTERVAL") ?? 1),
    weekdays:
      freq === "WEEKLY"
        ? (byDay.filter((d) => (WEEKDAYS as readonly string[]).includes(d)) as Weekday[])
        : [],
    monthly: freq === "MONTHLY" && ordinal ? "weekday" : "day",
    ordinal: ordinal ? Number(ordinal[1]) : 1,
    end: until ? "until" : parts.has("COUNT") ? "count" : "never",
    until: until ? `${until.slice(0, 4)}-${until.slice(4, 6)}-${until.slice(6, 8)}` : "",
    count: Number(parts.get("COUNT") ?? 10),
  };
}
