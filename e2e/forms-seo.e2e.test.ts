/**
 * Forms and the page shell in a real browser (focus after a failed submit, text over a limit, the
 * phone menu and Escape, unique landmark names, the settings time field), and what a crawler without
 * JavaScript reads before the app replaces it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { DEMO_PASSWORD, baseUrl, expectAccessible, newContext, signIn, watchErrors } from "./support/app.ts";

const SLOW = { timeout: 15_000 };
let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

/** The focused element's accessible label (its <label>'s text) or role and text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return "body";
    const label = el.id ? document.querySelector(`label[for="${el.id}"]`)?.textContent : null;
    return label ?? `${el.getAttribute("role") ?? el.tagName.toLowerCase()}: ${el.textContent?.trim() ?? ""}`;
  });

describe("forms", () => {
  it("after a failed submit, focus moves to the first field in error, or to the form's error message", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto("/visit");
    await page.getByRole("button", { name: "Plan my visit" }).click();
    await expect.poll(() => page.getByText("This field is required.").first().isVisible(), SLOW).toBe(true);
    await expect.poll(() => focused(page), SLOW).toBe("Your name");
    await expectAccessible(page);

    await page.goto("/login");
    await page.getByLabel("Email").fill("nobody-here@e2e.example");
    await page.getByLabel("Password").fill("not-the-password-1");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect.poll(() => page.getByRole("alert").isVisible(), SLOW).toBe(true);
    await expect.poll(() => focused(page), SLOW).toMatch(/^alert: /);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("refuses text over a limit with a message and keeps every character typed (messages 2,000, names 50)", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/visit");
    const long = `${"Looking forward to Sunday. ".repeat(74)}END`; // 2,001 characters
    expect(long.length).toBe(2001);
    const message = page.getByLabel("Anything we should know?");
    await message.fill(long);
    expect((await message.inputValue()).length).toBe(2001); // nothing cut
    await expect
      .poll(() => page.getByText("This is 2,001 characters long. Use at most 2,000.").isVisible(), SLOW)
      .toBe(true);
    expect(await message.getAttribute("aria-invalid")).toBe("true");
    await page.getByLabel("Your name").fill("Nina Newcomer");
    await page.getByLabel("Email").fill("nina@e2e.example");
    let sent = false;
    page.on("request", (request) => {
      if (request.url().endsWith("/graphql") && (request.postData() ?? "").includes("submitVisitRequest"))
        sent = true;
    });
    await page.getByRole("button", { name: "Plan my visit" }).click();
    await expect.poll(() => focused(page), SLOW).toMatch(/^Anything we should know\?/);
    expect(sent).toBe(false);
    await expectAccessible(page);

    await page.goto("/signup");
    const first = page.getByLabel("First name");
    await first.fill("A".repeat(51));
    expect((await first.inputValue()).length).toBe(51);
    await expect
      .poll(() => page.getByText("This is 51 characters long. Use at most 50.").isVisible(), SLOW)
      .toBe(true);
    await context.close();
  });
});

describe("the page shell", () => {
  it("Escape closes the phone menu and returns focus to its button", async () => {
    const context = await newContext(browser, "phone");
    const page = await context.newPage();
    await page.goto("/");
    const button = page.getByRole("button", { name: "Menu" });
    await button.click();
    await expect.poll(() => button.getAttribute("aria-expanded")).toBe("true");
    await expect
      .poll(() =>
        page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "News" }).isVisible(),
      )
      .toBe(true);
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "News" }).focus();
    await page.keyboard.press("Escape");
    await expect.poll(() => button.getAttribute("aria-expanded")).toBe("false");
    expect(
      await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "News" }).isVisible(),
    ).toBe(false);
    expect(await focused(page)).toMatch(/^button: .*Menu/);
    await context.close();
  });

  it("every landmark on the home page has a unique name (axe landmark-unique)", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/");
    await expect.poll(() => page.getByRole("heading", { name: "Latest news" }).isVisible(), SLOW).toBe(true);
    await expectAccessible(page); // loads axe
    const violations = await page.evaluate(async () => {
      const axe = (
        window as unknown as {
          axe: {
            run: (
              ctx: Document,
              opts: unknown,
            ) => Promise<{ violations: Array<{ id: string; nodes: Array<{ target: string[] }> }> }>;
          };
        }
      ).axe;
      const result = await axe.run(document, {
        runOnly: {
          type: "rule",
          values: ["landmark-unique", "landmark-no-duplicate-contentinfo", "landmark-one-main"],
        },
      });
      return result.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`);
    });
    expect(violations).toEqual([]);
    await context.close();
  });

  it("the settings screen shows the whole time, AM/PM included", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, "admin@grace.example", DEMO_PASSWORD);
    await page.goto("/admin/settings");
    const time = page.getByLabel("Time", { exact: true }).first();
    await expect.poll(() => time.isVisible(), SLOW).toBe(true);
    // The field is at least as wide as the browser's own time field needs (the same input, unconstrained).
    const fits = await time.evaluate((input: HTMLInputElement) => {
      const probe = input.cloneNode() as HTMLInputElement;
      probe.style.cssText = "position:absolute; visibility:hidden; width:auto;";
      document.body.append(probe);
      const needed = probe.getBoundingClientRect().width;
      probe.remove();
      return { needed, has: input.getBoundingClientRect().width };
    });
    expect(fits.has).toBeGreaterThanOrEqual(fits.needed);
    await expectAccessible(page);
    await context.close();
  });
});

describe("for crawlers without JavaScript", () => {
  it("a post's served HTML holds its text, and the app replaces it on start (one main, one h1)", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto("/news");
    const link = page.getByRole("link", { name: "Food bank: winter appeal" });
    await expect.poll(() => link.isVisible(), SLOW).toBe(true);
    const path = (await link.getAttribute("href"))!;

    const raw = await (await fetch(`${baseUrl()}${path}`)).text();
    expect(raw).toMatch(
      /<div id="root"><main class="prerendered"><article><h1>Food bank: winter appeal<\/h1>/,
    );

    await page.goto(path);
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Food bank: winter appeal" }).isVisible(), SLOW)
      .toBe(true);
    // React rendered into the root: its header is there, and the server's copy is gone.
    await expect.poll(() => page.getByRole("banner").count(), SLOW).toBe(1);
    expect(await page.locator("main").count()).toBe(1);
    expect(await page.getByRole("heading", { level: 1 }).count()).toBe(1);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe("the Contact relay", () => {
  it("does not claim an address is hidden when the person's card shows it", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await signIn(page, "member@grace.example", DEMO_PASSWORD);
    await page.goto("/directory");
    await expect.poll(() => page.getByRole("article").count(), SLOW).toBeGreaterThan(1);
    await page.getByRole("searchbox", { name: "Search by name" }).fill("Pastor");
    await expect.poll(() => page.getByText(/households? match(es)? “Pastor”/).isVisible(), SLOW).toBe(true);
    await page.getByRole("link", { name: "Paul Pastor" }).click();
    await page.waitForURL(/\/directory\/[a-z0-9]{15}$/);
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Paul Pastor" }).isVisible(), SLOW)
      .toBe(true);
    await expect
      .poll(() => page.getByRole("link", { name: "paul@grace.example" }).isVisible(), SLOW)
      .toBe(true); // shared with members
    await page.getByRole("button", { name: "Contact Paul Pastor" }).click();
    const dialog = page.getByRole("dialog", { name: "Write to Paul Pastor" });
    await expect.poll(() => dialog.isVisible(), SLOW).toBe(true);
    const text = (await dialog.textContent()) ?? "";
    expect(text).not.toContain("isn't shown");
    expect(text).toContain("shares an email address with you");
    expect(await page.locator(".person-card").textContent()).not.toContain("stays private");

    // An empty message: focus goes to the message field with its error.
    await dialog.getByRole("button", { name: "Send message" }).click();
    await expect.poll(() => focused(page), SLOW).toBe("Message");
    await expectAccessible(page);
    await context.close();
  });
});
