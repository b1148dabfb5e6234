import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { argumentsOf, compileMessage } from "@flock/shared/i18n/compile";
import { formatMessage } from "@flock/shared/i18n/format";
import { formatCompiled } from "@flock/shared/i18n/render";
import { areaOf, CATALOGS, type Area } from "./catalogs.ts";

type Catalog = Record<string, string>;

/** Every catalog module of a language, by area (the first object each module exports). */
function catalogs(modules: Record<string, Record<string, unknown>>): Map<string, Catalog> {
  return new Map(
    Object.entries(modules).map(([path, module]) => [
      path.replace(/^.*\/([\w-]+)\.ts$/, "$1"),
      Object.values(module).find((value) => value && typeof value === "object") as Catalog,
    ]),
  );
}
const english = catalogs(import.meta.glob("./en/*.ts", { eager: true }));
const spanish = catalogs(import.meta.glob("./es/*.ts", { eager: true }));
const allEnglish: Catalog = Object.assign({}, ...english.values());
const allSpanish: Catalog = Object.assign({}, ...spanish.values());

describe("the web app's message catalogs", () => {
  it("has an English and a Spanish file for every area, and an area for every file", () => {
    const files = (language: string) =>
      readdirSync(join(import.meta.dirname, language))
        .map((f) => f.replace(/\.ts$/, ""))
        .sort();
    const areas = Object.keys(CATALOGS).sort();
    expect(files("en")).toEqual(areas);
    expect(files("es")).toEqual(areas);
    expect(areas).toContain("shell");
  });

  it("translates every English string into Spanish, area by area, with the same placeholders", () => {
    for (const [area, messages] of english) {
      const translated = spanish.get(area)!;
      expect(Object.keys(translated).sort(), area).toEqual(Object.keys(messages).sort());
      for (const key of Object.keys(messages)) {
        expect(translated[key], key).toBeTruthy();
        expect(argumentsOf(translated[key]!), key).toEqual(argumentsOf(messages[key]!));
      }
    }
  });

  it("keeps each key in one catalog: its prefix's, or the shell (staff screens: admin) when several share it", () => {
    const seen = new Map<string, string>();
    const misplaced: string[] = [];
    for (const [area, messages] of english)
      for (const key of Object.keys(messages)) {
        expect(seen.get(key), `${key} is in ${seen.get(key)} and ${area}`).toBeUndefined();
        seen.set(key, area);
        const home = areaOf(key);
        const shared = area === "shell" || (area === "admin" && home.startsWith("admin"));
        if (home !== area && !shared) misplaced.push(`${key} is in ${area}.ts, its prefix says ${home}.ts`);
      }
    expect(misplaced).toEqual([]);
    expect(areaOf("prayer.admin.tab.PENDING")).toBe<Area>("admin-prayer");
    expect(areaOf("prayer.title")).toBe<Area>("prayer");
    expect(areaOf("admin.webhooks.title")).toBe<Area>("admin-integrations");
    expect(areaOf("nav.home")).toBe<Area>("shell");
  });

  it("formats every precompiled message as intl-messageformat does, in both languages", () => {
    for (const [locale, messages] of [
      ["en", allEnglish],
      ["es", allSpanish],
    ] as const)
      for (const [key, message] of Object.entries(messages)) {
        const compiled = compileMessage(message, key);
        if (typeof compiled === "string") continue; // placeholders only: interpolate, tested in shared
        for (const count of [0, 1, 2, 5, 21, 1234]) {
          const values = Object.fromEntries(argumentsOf(message).map((name) => [name, count]));
          expect(formatCompiled(compiled, locale, values), `${locale} ${key} (${count})`).toBe(
            formatMessage(message, locale, values),
          );
        }
      }
  });

  it("reads counts by each language's plural rules (no “1 posts”)", () => {
    const say = (
      catalog: Catalog,
      key: string,
      locale: "en" | "es",
      values: Record<string, string | number>,
    ) => formatCompiled(compileMessage(catalog[key]!), locale, values);
    expect(say(allEnglish, "prayer.prayedCount", "en", { count: 1 })).toBe("1 person prayed");
    expect(say(allEnglish, "prayer.prayedCount", "en", { count: 3 })).toBe("3 people prayed");
    expect(say(allSpanish, "prayer.prayedCount", "es", { count: 1 })).toBe("1 persona oró");
    expect(say(allSpanish, "prayer.prayedCount", "es", { count: 3 })).toBe("3 personas oraron");
    expect(say(allEnglish, "admin.content.news.count", "en", { count: 1 })).toBe("1 post");
    expect(say(allEnglish, "admin.content.news.count", "en", { count: 2 })).toBe("2 posts");
    expect(say(allSpanish, "admin.content.news.count", "es", { count: 1 })).toBe("1 noticia");
    expect(say(allEnglish, "admin.people.count", "en", { count: 1234 })).toBe("1,234 people");
    expect(say(allEnglish, "directory.matches", "en", { count: 1, q: "Lee" })).toBe(
      "1 household matches “Lee”",
    );
    expect(say(allSpanish, "directory.matches", "es", { count: 2, q: "Lee" })).toBe(
      "2 hogares coinciden con «Lee»",
    );
    expect(say(allEnglish, "error.RATE_LIMITED", "en", { minutes: 1 })).toBe(
      "Too many attempts. Try again in 1 minute.",
    );
    expect(say(allSpanish, "error.RATE_LIMITED", "es", { minutes: 5 })).toBe(
      "Demasiados intentos. Vuelve a intentarlo en 5 minutos.",
    );
  });
});
