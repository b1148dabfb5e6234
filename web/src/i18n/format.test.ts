import { describe, expect, it } from "vitest";
import { argumentsOf, compileMessage } from "@flock/shared/i18n/compile";
import { formatCompiled } from "@flock/shared/i18n/format";
import { formatDateTime, formatWallTime, interpolate, timeZoneName } from "./format.ts";
import { en } from "./en.ts";
import { es } from "./es.ts";

describe("i18n formatting", () => {
  it("fills placeholders and leaves unknown ones", () => {
    expect(interpolate("Welcome to {church}", { church: "Grace" })).toBe("Welcome to Grace");
    expect(interpolate("{a} {b}", { a: 1 })).toBe("1 {b}");
  });

  it("shows wall-clock service times per language", () => {
    expect(formatWallTime("18:30", "en")).toBe("6:30 PM");
    expect(formatWallTime("18:30", "es")).toBe("18:30");
  });

  it("shows instants in the church's zone and names it when the browser's differs", () => {
    const iso = "2026-03-08T16:00:00.000Z"; // the day US daylight time starts
    expect(formatDateTime(iso, "en", "America/Chicago", "America/Chicago")).toBe("Mar 8, 2026, 11:00 AM");
    expect(formatDateTime(iso, "en", "America/Chicago", "Europe/Madrid")).toMatch(/11:00 AM CDT$/);
    expect(timeZoneName("America/Chicago", "en", new Date("2026-01-10T12:00:00Z"))).toBe(
      "Central Standard Time",
    );
  });

  it("translates every English string into Spanish, with the same placeholders, in valid ICU syntax", () => {
    expect(Object.keys(es).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as Array<keyof typeof en>) {
      expect(es[key], key).toBeTruthy();
      expect(argumentsOf(es[key]), key).toEqual(argumentsOf(en[key]));
    }
  });

  it("reads counts by each language's plural rules (no “1 posts”)", () => {
    const say = (
      catalog: Record<string, string>,
      key: string,
      locale: "en" | "es",
      values: Record<string, string | number>,
    ) => formatCompiled(compileMessage(catalog[key]!), locale, values);
    expect(say(en, "prayer.prayedCount", "en", { count: 1 })).toBe("1 person prayed");
    expect(say(en, "prayer.prayedCount", "en", { count: 3 })).toBe("3 people prayed");
    expect(say(es, "prayer.prayedCount", "es", { count: 1 })).toBe("1 persona oró");
    expect(say(es, "prayer.prayedCount", "es", { count: 3 })).toBe("3 personas oraron");
    expect(say(en, "admin.content.news.count", "en", { count: 1 })).toBe("1 post");
    expect(say(en, "admin.content.news.count", "en", { count: 2 })).toBe("2 posts");
    expect(say(es, "admin.content.news.count", "es", { count: 1 })).toBe("1 noticia");
    expect(say(en, "admin.people.count", "en", { count: 1234 })).toBe("1,234 people");
    expect(say(en, "directory.matches", "en", { count: 1, q: "Lee" })).toBe("1 household matches “Lee”");
    expect(say(es, "directory.matches", "es", { count: 2, q: "Lee" })).toBe("2 hogares coinciden con «Lee»");
    expect(say(en, "error.RATE_LIMITED", "en", { minutes: 1 })).toBe(
      "Too many attempts. Try again in 1 minute.",
    );
    expect(say(es, "error.RATE_LIMITED", "es", { minutes: 5 })).toBe(
      "Demasiados intentos. Vuelve a intentarlo en 5 minutos.",
    );
  });
});
