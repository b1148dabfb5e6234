import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { DEMO_PASSWORD, expectAccessible, newContext, signIn, watchErrors } from "./support/app.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe("administration in a real browser", () => {
  it("an administrator renames the church and sees it in the header (and a visitor's open page updates live)", async () => {
    const visitorContext = await newContext(browser, "phone");
    const visitor = await visitorContext.newPage();
    await visitor.goto("/");
    await expect.poll(() => visitor.locator(".brand__name").textContent()).toBe("Grace Community Church");
    await expectAccessible(visitor);

    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, "admin@grace.example", DEMO_PASSWORD);
    await page.getByRole("link", { name: "Administration" }).click();
    await page.waitForURL(/\/admin\/settings$/);
    await expectAccessible(page);

    const name = page.getByLabel("Church name");
    await name.fill("");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => page.getByText("This field is required.").isVisible()).toBe(true);
    await expectAccessible(page);

    await name.fill("Grace Fellowship Springfield");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => page.getByText("Settings saved.").isVisible()).toBe(true);
    await expect.poll(() => page.locator(".brand__name").textContent()).toBe("Grace Fellowship Springfield");
    await expect.poll(() => page.title()).toContain("Grace Fellowship Springfield");
    await expect
      .poll(() => visitor.locator(".brand__name").textContent(), { timeout: 10_000 })
      .toBe("Grace Fellowship Springfield");

    // A fresh load gets the new name from the server-rendered HTML too (no JavaScript needed).
    const html = await (await page.request.get("/")).text();
    expect(html).toMatch(/<title>Grace Fellowship Springfield/);

    await page.getByRole("link", { name: "Users & roles" }).click();
    await expect.poll(() => page.getByText("member@grace.example").isVisible()).toBe(true);
    await expectAccessible(page);

    await page.getByRole("link", { name: "Settings" }).click();
    await page.getByLabel("Church name").fill("Grace Community Church");
    await page.getByRole("button", { name: "Save settings" }).click();
    await expect.poll(() => page.locator(".brand__name").textContent()).toBe("Grace Community Church");
    expect(errors).toEqual([]);
    await visitorContext.close();
    await context.close();
  });

  it("keeps members out of the admin area and shows a not-found page for unknown addresses", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, "member@grace.example", DEMO_PASSWORD);
    expect(await page.getByRole("link", { name: "Administration" }).count()).toBe(0);
    await page.goto("/admin/settings");
    await expect.poll(() => page.getByRole("heading", { name: "No access" }).isVisible()).toBe(true);
    await expectAccessible(page);
    const response = await page.goto("/no-such-page");
    expect(response?.status()).toBe(404);
    await expect.poll(() => page.getByRole("heading", { name: "Page not found" }).isVisible()).toBe(true);
    await expectAccessible(page);
    await context.close();
  });

  it("switches the whole interface to Spanish", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/");
    await page.getByLabel("Language").selectOption("es");
    await expect
      .poll(() => page.getByRole("heading", { level: 1 }).textContent())
      .toBe("Bienvenido a Grace Community Church");
    expect(await page.evaluate(() => document.documentElement.lang)).toBe("es");
    await expect.poll(() => page.getByText("Domingo", { exact: false }).first().isVisible()).toBe(true);
    await expectAccessible(page);
    await page.reload();
    await expect
      .poll(() => page.getByRole("link", { name: "Iniciar sesión", exact: true }).isVisible())
      .toBe(true);
    await context.close();
  });

  it("opens the administration area on the first section the user may use", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, "editor@grace.example", DEMO_PASSWORD);
    await page.getByRole("link", { name: "Administration" }).click();
    await page.waitForURL(/\/admin\/news$/);
    await page.goto("/admin/settings");
    await expect.poll(() => page.getByRole("heading", { name: "No access" }).isVisible()).toBe(true);
    await context.close();
  });

  it("the accessibility check itself fails on an inaccessible page", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/");
    // The app renders its first frame as a transition: wait for the page before adding to it.
    await expect.poll(() => page.getByRole("heading", { name: "Latest news" }).isVisible()).toBe(true);
    await page.evaluate(() => {
      const input = document.createElement("input"); // no label
      document.querySelector("main")?.append(input);
    });
    await expect(expectAccessible(page)).rejects.toThrow(/label/);
    await context.close();
  });
});
