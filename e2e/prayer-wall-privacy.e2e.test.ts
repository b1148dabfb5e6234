/**
 * Issue 10 in a real browser: the church turns the public prayer wall off in its settings, and a
 * visitor's /prayer then invites them to sign in (no public request reaches the page) while the form
 * still takes requests, without "Everyone"; staff choose how they hear about new activity on
 * /me/notifications. axe on every screen.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import {
  DEMO_PASSWORD,
  expectAccessible,
  newContext,
  recordGraphqlResponses,
  signIn,
  watchErrors,
} from "./support/app.ts";

const ADMIN = "admin@grace.example";
const SLOW = { timeout: 15_000 };
let browser: Browser;

async function setPublicWall(page: Page, on: boolean) {
  await page.goto("/admin/settings");
  // Locator waits (not expect.poll): afterAll restores the setting with this too.
  const box = page.getByLabel("Visitors see the public prayer wall");
  await box.waitFor(SLOW);
  await box.setChecked(on);
  await page.getByRole("button", { name: "Save settings" }).click();
  await page.getByText("Settings saved.").waitFor(SLOW);
}

beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  const context = await newContext(browser);
  const page = await context.newPage();
  await signIn(page, ADMIN, DEMO_PASSWORD);
  await setPublicWall(page, true);
  await context.close();
  await browser?.close();
});

describe("the public prayer wall", () => {
  it("turned off in settings: visitors are invited to sign in and receive no public request; the form still works", async () => {
    const adminContext = await newContext(browser);
    const admin = await adminContext.newPage();
    await signIn(admin, ADMIN, DEMO_PASSWORD);
    await setPublicWall(admin, false);
    await expectAccessible(admin);

    for (const viewport of ["desktop", "phone"] as const) {
      const context = await newContext(browser, viewport);
      const page = await context.newPage();
      const errors = watchErrors(page);
      const responses = await recordGraphqlResponses(page);
      await page.goto("/prayer");
      await expect
        .poll(() => page.getByRole("heading", { name: "Prayer requests are for members" }).isVisible(), SLOW)
        .toBe(true);
      expect(
        await page.getByRole("link", { name: "Sign in to see the prayer wall" }).getAttribute("href"),
      ).toBe("/login?next=%2Fprayer");
      expect(await page.getByRole("article").count()).toBe(0);
      // The form offers members-only and pastoral requests, not "Everyone".
      expect(await page.getByRole("radio", { name: /Members only/ }).isChecked()).toBe(true);
      expect(await page.getByRole("radio", { name: /Everyone/ }).count()).toBe(0);
      await expectAccessible(page);
      // Nothing the browser received carries the demo's public requests.
      expect((await responses.texts()).join("\n")).not.toContain("surgery on Thursday");
      expect(errors).toEqual([]);
      await context.close();
    }

    await setPublicWall(admin, true);
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/prayer");
    await expect.poll(() => page.getByRole("article").count(), SLOW).toBeGreaterThan(0);
    // Visitors see first names only.
    const mark = page.getByRole("article").filter({ hasText: "surgery on Thursday" });
    await expect.poll(() => mark.getByText("Mark", { exact: true }).isVisible(), SLOW).toBe(true);
    expect(await page.getByText("Mark Member").count()).toBe(0);
    await context.close();
    await adminContext.close();
  });
});

describe("staff alerts", () => {
  it("staff choose per topic on /me/notifications; the choice is kept", async () => {
    const context = await newContext(browser, "phone");
    const page = await context.newPage();
    await signIn(page, ADMIN, DEMO_PASSWORD);
    await page.goto("/me/notifications");
    const visits = page.getByLabel("New visit requests");
    await expect.poll(() => visits.isVisible(), SLOW).toBe(true);
    await visits.selectOption("DAILY_DIGEST");
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "Saved." }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(page);
    await page.reload();
    await expect.poll(() => page.getByLabel("New visit requests").inputValue(), SLOW).toBe("DAILY_DIGEST");
    await page.getByLabel("New visit requests").selectOption("IMMEDIATE");
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "Saved." }).isVisible(), SLOW)
      .toBe(true);
    await context.close();
  });
});
