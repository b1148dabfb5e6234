import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { formatClock } from "@flock/shared/i18n/time";
import { formatWallTime, formatWhen } from "./format.ts";

// One time format per language (issue 26): a screen writes a time through i18n/format.ts, never with
// its own Intl options, so "6:30 PM" never stands beside "18:30" or "6:30 pm".

const SRC = join(import.meta.dirname, "..");
/** Where a time may be formatted: the shared formatter itself. */
const FORMATTER = "i18n/format.ts";
/**
 * Files that read an instant's wall-clock fields as numbers for the date inputs (hourCycle h23 parts,
 * never shown): they may name `hour`, as nothing else may.
 */
const WALL_CLOCK_PARTS = ["features/content/admin/zonedTime.ts", "lib/zoned.ts"];

const TIME_FORMATTING: [RegExp, string][] = [
  [/\btimeStyle\s*:/, "timeStyle"],
  [/\bhour\s*:/, "an hour option"],
  [/\.toLocaleTimeString\s*\(/, "toLocaleTimeString"],
  [/new\s+Intl\.DateTimeFormat\s*\(/, "new Intl.DateTimeFormat"],
];

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.(test|generated)\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** Every place in `code` that formats a time itself, as "line: what". */
function timeFormattingIn(code: string, mayNameHour = false): string[] {
  return code
    .split("\n")
    .flatMap((line, i) =>
      TIME_FORMATTING.filter(
        ([pattern, what]) => pattern.test(line) && !(mayNameHour && what === "an hour option"),
      ).map(([, what]) => `${i + 1}: ${what}`),
    );
}

describe("one time format everywhere", () => {
  it("no screen formats a time without the shared formatter", () => {
    const found = sources(SRC)
      .map((path) => relative(SRC, path))
      .filter((path) => path !== FORMATTER)
      .flatMap((path) =>
        timeFormattingIn(readFileSync(join(SRC, path), "utf8"), WALL_CLOCK_PARTS.includes(path)).map(
          (where) => `${path}:${where}`,
        ),
      );
    expect(found).toEqual([]);
  });

  it("would catch a screen's own time format", () => {
    expect(timeFormattingIn(`const t = new Intl.DateTimeFormat(locale, { timeStyle: "short" });`)).toEqual([
      "1: timeStyle",
      "1: new Intl.DateTimeFormat",
    ]);
    expect(timeFormattingIn(`dateTimeFormat(locale, { hour: "numeric", minute: "2-digit" })`)).toEqual([
      "1: an hour option",
    ]);
    expect(timeFormattingIn(`new Date(x).toLocaleTimeString(locale)`)).toEqual(["1: toLocaleTimeString"]);
  });

  it("writes a time the same way from a wall-clock time, an instant, and on the server", () => {
    const instant = "2026-12-06T18:30:00Z";
    for (const locale of ["en", "es"] as const) {
      const clock = formatClock(18, 30, locale);
      expect(formatWallTime("18:30", locale)).toBe(clock);
      expect(formatWhen(instant, locale, { date: "none", timeZone: "UTC" })).toBe(clock);
      expect(formatWhen(instant, locale, { timeZone: "UTC" })).toContain(clock);
    }
    expect(formatClock(18, 30, "en").replace(/\s/g, " ")).toBe("6:30 PM");
    expect(formatClock(18, 30, "es")).toBe("18:30");
  });
});
