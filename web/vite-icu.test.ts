import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { icuCatalogs, isStaffKey, readCatalog } from "./vite-icu.ts";

const EN = fileURLToPath(new URL("./src/i18n/en.ts", import.meta.url));
const ES = fileURLToPath(new URL("./src/i18n/es.ts", import.meta.url));

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
  it("ships English without the staff screens' messages, which get their own chunk", async () => {
    const { messages } = await readCatalog(EN);
    const { en } = await built(EN);
    const { enStaff } = await built(`\0flock-icu-staff:${EN}`);
    const staffKeys = Object.keys(messages).filter(isStaffKey);
    expect(staffKeys.length).toBeGreaterThan(100);
    expect(Object.keys(en!).some(isStaffKey)).toBe(false);
    expect(Object.keys(enStaff!).sort()).toEqual(staffKeys.sort());
    expect(Object.keys(en!).length + staffKeys.length).toBe(Object.keys(messages).length);
  });

  it("keeps plain messages as strings and precompiles plurals", async () => {
    const { en } = await built(EN);
    const { es } = await built(ES);
    expect(en!["home.welcome"]).toBe("Welcome to {church}");
    expect(Array.isArray(en!["prayer.prayedCount"])).toBe(true);
    expect(Array.isArray(es!["prayer.prayedCount"])).toBe(true);
    expect(Object.keys(es!).some(isStaffKey)).toBe(true);
  });
});
