import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { CATALOG, icuCatalogs, readCatalog } from "./vite-icu.ts";

const file = (path: string) => fileURLToPath(new URL(`./src/i18n/${path}`, import.meta.url));

/** What the plugin makes of a module id, evaluated as the browser would. */
async function built(id: string): Promise<Record<string, Record<string, unknown>>> {
  const plugin = icuCatalogs();
  const load = plugin.load as unknown as (
    this: { addWatchFile(file: string): void },
    id: string,
  ) => Promise<string | null>;
  const code = await load.call({ addWatchFile: () => undefined }, id);
  expect(code).toBeTypeOf("string");
  return (await import(`data:text/javascript;base64,${Buffer.from(code!).toString("base64")}`)) as Record<
    string,
    Record<string, unknown>
  >;
}

describe("the message catalogs' build step", () => {
  it("compiles each area's catalog, in each language, under its own name", async () => {
    const { messages } = await readCatalog(file("en/prayer.ts"));
    const { prayer } = await built(file("en/prayer.ts"));
    expect(Object.keys(prayer!).sort()).toEqual(Object.keys(messages).sort());
    const { adminEvents } = await built(file("es/admin-events.ts"));
    expect(Object.keys(adminEvents!).every((key) => key.startsWith("admin."))).toBe(true);
  });

  it("keeps plain messages as strings and precompiles plurals", async () => {
    const { home } = await built(file("en/home.ts"));
    const { prayer: english } = await built(file("en/prayer.ts"));
    const { prayer: spanish } = await built(file("es/prayer.ts"));
    expect(home!["home.welcome"]).toBe("Welcome to {church}");
    expect(Array.isArray(english!["prayer.prayedCount"])).toBe(true);
    expect(Array.isArray(spanish!["prayer.prayedCount"])).toBe(true);
  });

  it("leaves every other module alone", async () => {
    const plugin = icuCatalogs();
    const load = plugin.load as unknown as (this: unknown, id: string) => Promise<string | null>;
    expect(await load.call({}, file("catalogs.ts"))).toBeNull();
    expect(await load.call({}, file("I18nProvider.tsx"))).toBeNull();
    expect(CATALOG.test(file("en/admin-content.ts"))).toBe(true);
  });
});
