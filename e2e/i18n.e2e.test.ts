import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { baseUrl, DEMO_PASSWORD, expectAccessible, newContext, signIn, watchErrors } from "./support/app.ts";

// The web messages come in catalogs by area, each fetched with the page that shows it, in the
// reader's language (web/src/i18n/catalogs.ts). These journeys read the built app's manifest to
// know which file is which catalog, and watch what the browser fetches.
const manifest = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "web", "dist", ".vite", "manifest.json"), "utf8"),
) as Record<string, { file: string }>;
const catalogFile = (language: "en" | "es", area: string) =>
  `/${manifest[`src/i18n/${language}/${area}.ts`]!.file}`;

/** The catalogs the page has fetched so far, as "en/prayer", "es/shell"… */
function watchCatalogs(page: Page): Set<string> {
  const byFile = new Map(
    Object.entries(manifest)
      .filter(([key]) => /^src\/i18n\/(en|es)\/[\w-]+\.ts$/.test(key))
      .map(([key, { file }]) => [`/${file}`, key.replace(/^src\/i18n\/|\.ts$/g, "")]),
  );
  const fetched = new Set<string>();
  page.on("request", (request) => {
    const catalog = byFile.get(new URL(request.url()).pathname);
    if (catalog) fetched.add(catalog);
  });
  return fetched;
}

/** Text in the page that looks like a message key ("prayer.title"): a message shown untranslated. */
async function rawKeys(page: Page): Promise<string[]> {
  const text = await page.locator("body").innerText();
  return (
    text
      .match(/\b(?:[a-z]+[A-Z]?[a-z]*\.){1,4}[a-zA-Z_]+\b/g)
      ?.filter((m) => !/\.(com|org|example|test)\b/.test(m)) ?? []
  );
}

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe("languages, with the messages fetched per page", () => {
  it("a Spanish reader's first page is in Spanish from the start, fetching only Spanish catalogs", async () => {
    const context = await browser.newContext({
      baseURL: baseUrl(),
      locale: "es-ES",
      timezoneId: "America/Chicago",
    });
    context.setDefaultTimeout(15_000);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const catalogs = watchCatalogs(page);
    await page.goto("/prayer");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Muro de oración");
    expect(await page.getByRole("link", { name: "Inicio", exact: true }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("es");
    expect(await rawKeys(page)).toEqual([]);
    await expectAccessible(page);
    expect([...catalogs].sort()).toEqual(expect.arrayContaining(["es/prayer", "es/shell"]));
    expect([...catalogs].filter((c) => c.startsWith("en/"))).toEqual([]);

    // Another feature: its Spanish catalog comes with its chunk.
    await page.getByRole("link", { name: "Grupos", exact: true }).click();
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Grupos");
    expect(catalogs.has("es/groups")).toBe(true);
    expect(await rawKeys(page)).toEqual([]);
    // The footer (its own chunk, with the front page's catalog) in Spanish too.
    await expect.poll(() => page.getByRole("heading", { name: "Cultos" }).isVisible()).toBe(true);
    expect([...catalogs].filter((c) => c.startsWith("en/"))).toEqual([]);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("an English reader fetches only the page's English catalog, and switching language switches every part of the page", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const catalogs = watchCatalogs(page);
    await page.goto("/events");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Events");
    // The shell's English ships inside the app; the page's own comes beside it.
    expect(catalogs.has("en/events")).toBe(true);
    expect(catalogs.has("en/shell")).toBe(false);
    expect([...catalogs].filter((c) => c.startsWith("es/"))).toEqual([]);
    expect(catalogs.has("en/prayer") || catalogs.has("en/groups") || catalogs.has("en/admin")).toBe(false);
    await expect.poll(() => page.getByRole("heading", { name: "Services" }).isVisible()).toBe(true);

    await page.getByLabel("Language").selectOption("es");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Eventos");
    await expect.poll(() => page.getByRole("heading", { name: "Cultos" }).isVisible()).toBe(true);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("es");
    expect(catalogs.has("es/events")).toBe(true);
    expect(catalogs.has("es/shell")).toBe(true);
    expect(await rawKeys(page)).toEqual([]);
    await expectAccessible(page);

    // The choice is kept: the next page opened first is Spanish at once.
    await page.goto("/sermons");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Predicaciones");
    await page.getByLabel("Idioma").selectOption("en");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Sermons");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a member's bell and a staff screen bring their own catalogs, in either language", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const catalogs = watchCatalogs(page);
    await signIn(page, "admin@grace.example", DEMO_PASSWORD);
    await expect.poll(() => page.getByRole("button", { name: /^Notifications/ }).isVisible()).toBe(true);
    expect(catalogs.has("en/notifications")).toBe(true);
    await page.goto("/admin/groups");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Groups");
    // The groups list: join requests counted, the new-group form behind its button.
    await expect.poll(() => page.getByRole("columnheader", { name: /Join requests/ }).isVisible()).toBe(true);
    expect(await page.getByLabel("Type").count()).toBe(0);
    await page.getByRole("button", { name: "New group" }).click();
    await expect
      .poll(() => page.getByRole("heading", { level: 2, name: "New group" }).isVisible())
      .toBe(true);
    expect(catalogs.has("en/admin")).toBe(true);
    expect(catalogs.has("en/admin-groups")).toBe(true);
    expect(await rawKeys(page)).toEqual([]);
    await page.getByLabel("Language").selectOption("es");
    await expect.poll(() => page.getByRole("button", { name: /^Notificaciones/ }).isVisible()).toBe(true);
    await expect.poll(() => page.getByRole("heading", { level: 1 }).textContent()).toBe("Grupos");
    expect(catalogs.has("es/admin-groups")).toBe(true);
    expect(await rawKeys(page)).toEqual([]);
    await expectAccessible(page);
    // An unknown staff address is still a plain "not found" page.
    await page.goto("/admin/no-such-screen");
    await expect.poll(() => page.getByRole("heading", { level: 1 }).isVisible()).toBe(true);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Página no encontrada");
    await page.evaluate(() => localStorage.removeItem("flock.locale"));
    expect(errors).toEqual([]);
    await context.close();
  });

  it("knows the catalogs' files (the manifest this test reads is the build's)", () => {
    expect(catalogFile("en", "prayer")).toMatch(/^\/assets\/prayer-.+\.js$/);
    expect(catalogFile("es", "prayer")).not.toBe(catalogFile("en", "prayer"));
  });
});
