import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { DEMO_PASSWORD, expectAccessible, newContext, signIn, watchErrors } from "./support/app.ts";

// The treasurer's screens (issue 29) in a real browser. A batch, on the demo church, with the keyboard only once
// signed in: a new batch with its counted figures, ten gifts keyed in (donors found by name and picked
// with the arrow keys and Enter, anonymous plate cash, a cheque with its number, one gift to another
// fund), a zero amount refused on its field with nothing written, the figures counting down to
// "Balanced", and the batch closed — its gifts locked. axe-core on each state.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const TREASURER = "treasurer@grace.example";
/** Polls wait for the app (page loads, GraphQL, the search pause) rather than vitest's 1 s default. */
const SLOW = { timeout: 15_000 };

interface Gift {
  /** Typed into the donor field; empty: anonymous. */
  donor: string;
  /** The name the pick shows. */
  picks?: string;
  amount: string;
  /** Letters typed on the method's <select> (the browser jumps to the option they start). */
  method?: string;
  cheque?: string;
  /** Letters typed on the fund's <select>. */
  fund?: string;
}

const GIFTS: Gift[] = [
  { donor: "mark mem", picks: "Mark Member", amount: "60", method: "Che", cheque: "2041" },
  { donor: "chidi", picks: "Chidi Okafor", amount: "40" },
  { donor: "", amount: "17.35" },
  { donor: "luis", picks: "Luis García", amount: "120", method: "Che", cheque: "886" },
  { donor: "denise", picks: "Denise Johnson", amount: "20" },
  { donor: "tunde", picks: "Tunde Adeyemi", amount: "45", method: "Car" },
  { donor: "", amount: "8" },
  { donor: "ruth", picks: "Ruth Abernathy", amount: "100", method: "Che", cheque: "310", fund: "Mis" },
  { donor: "hannah", picks: "Hannah Lee", amount: "15", fund: "Cof" },
  { donor: "jan kow", picks: "Jan Kowalski", amount: "80", method: "Car" },
];
// 60 + 40 + 17.35 + 120 + 20 + 45 + 8 + 100 + 15 + 80
const TOTAL = "505.35";

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });
const focused = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? document.activeElement?.id ?? "");

/** Type into the focused element, as a person does. */
const type = (page: Page, text: string) => page.keyboard.type(text, { delay: 5 });

describe("a treasurer's batch", () => {
  it("ten gifts keyed in with the keyboard only, a zero refused on its field, balanced, closed and locked", async () => {
    const name = `Sunday ${randomUUID().slice(0, 6)}`;
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, TREASURER, DEMO_PASSWORD);
    await page.goto("/admin/giving");
    await expect.poll(() => heading(page, "Giving").isVisible(), SLOW).toBe(true);
    await expectAccessible(page);

    // The batch: counted first. Keyboard from here on: focus the button, then keys only.
    await page.getByRole("button", { name: "New batch" }).focus();
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog", { name: "New batch" });
    await expect.poll(() => drawer.isVisible(), SLOW).toBe(true);
    // The drawer's first control is its Close button; the name field follows.
    await drawer.getByLabel("Name").focus();
    await page.keyboard.press("ControlOrMeta+A");
    await type(page, name);
    // The deposit date stays today; its day, month and year are Tab stops of their own.
    await drawer.getByLabel("Counted total").focus();
    await type(page, TOTAL);
    await page.keyboard.press("Tab");
    await type(page, String(GIFTS.length));
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/admin\/giving\/batches\/[a-z0-9]{15}$/, SLOW);
    await expect.poll(() => heading(page, name).isVisible(), SLOW).toBe(true);
    await expectAccessible(page);

    const donor = page.getByRole("combobox", { name: "Donor" });
    const entered = page.getByTestId("batch-entered");
    await donor.focus();

    // A zero is refused on its field and nothing is written.
    await page.keyboard.press("Tab");
    await type(page, "0");
    await page.keyboard.press("Enter");
    const amount = page.getByLabel(/^Amount/);
    await expect.poll(() => amount.getAttribute("aria-invalid"), SLOW).toBe("true");
    expect(await page.getByText("Enter an amount above zero, like 25 or 25.50.").isVisible()).toBe(true);
    expect(await entered.textContent()).toContain("0 gifts");
    await expectAccessible(page);
    await amount.press("ControlOrMeta+A");
    await page.keyboard.press("Backspace");
    await page.keyboard.press("Shift+Tab");

    for (const [i, gift] of GIFTS.entries()) {
      expect(await focused(page)).toBe(await donor.getAttribute("id"));
      if (gift.donor) {
        await type(page, gift.donor);
        const option = page.getByRole("option", { name: new RegExp(gift.picks!) });
        await expect.poll(() => option.first().isVisible(), SLOW).toBe(true);
        await page.keyboard.press("ArrowDown");
        await page.keyboard.press("ArrowUp"); // back to the first match: the arrows move the choice
        await page.keyboard.press("Enter");
        expect(await donor.inputValue()).toBe(gift.picks);
      }
      await page.keyboard.press("Tab");
      await type(page, gift.amount);
      await page.keyboard.press("Tab"); // the fund
      if (gift.fund) await type(page, gift.fund);
      await page.keyboard.press("Tab"); // the method
      if (gift.method) await type(page, gift.method);
      if (gift.cheque) {
        await page.keyboard.press("Tab");
        await type(page, gift.cheque);
      }
      await page.keyboard.press("Enter");
      await expect.poll(() => entered.textContent(), SLOW).toContain(`${i + 1} gift${i === 0 ? "" : "s"}`);
      // The next gift starts in the donor field, empty.
      await expect.poll(() => donor.inputValue(), SLOW).toBe("");
      // The method is remembered; go back to cash for the next unless it says otherwise.
      if (gift.method && !GIFTS[i + 1]?.method) {
        await page.getByLabel("Method").focus();
        await type(page, "Cas");
        await donor.focus();
      }
      if (gift.fund && !GIFTS[i + 1]?.fund) {
        await page.getByLabel("Fund").focus();
        await type(page, "Gen");
        await donor.focus();
      }
    }

    // Balanced: every gift is in the list, as keyed.
    await expect.poll(() => page.getByTestId("batch-difference").textContent(), SLOW).toBe("Balanced");
    expect(await entered.textContent()).toContain(`$${TOTAL}`);
    const rows = page.getByRole("table", { name: "Gifts in this batch" }).getByRole("row");
    expect(await rows.count()).toBe(GIFTS.length + 1);
    const text = await page.getByRole("table", { name: "Gifts in this batch" }).textContent();
    for (const expected of [
      "Mark Member",
      "Cheque 2041",
      "Anonymous",
      "$17.35",
      "Missions",
      "Coffee & Books",
      "Card",
    ])
      expect(text).toContain(expected);
    await expectAccessible(page);

    // Closed, with the keyboard: the gifts lock (no corrections), and the batch can only be reopened.
    await page.getByRole("button", { name: "Close batch" }).focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.getByText("The batch is closed. Its gifts are locked.").isVisible(), SLOW)
      .toBe(true);
    expect(await page.getByRole("combobox", { name: "Donor" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Correct" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "Reopen batch" }).isVisible()).toBe(true);
    await expectAccessible(page);

    // The list shows it closed, with its figures.
    await page.goto("/admin/giving");
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name }) });
    await expect.poll(() => row.isVisible(), SLOW).toBe(true);
    expect(await row.textContent()).toMatch(/10 of 10.*\$505\.35 of \$505\.35.*Closed/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("gifts imported from a CSV file: each row checked first, refused rows explained, the rest recorded once", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, TREASURER, DEMO_PASSWORD);
    await page.goto("/admin/giving/import");
    await expect.poll(() => heading(page, "Import gifts").isVisible(), SLOW).toBe(true);
    await expectAccessible(page);

    // A unique note keeps this file's gifts its own (a second run of the suite imports anew).
    const note = `e2e ${randomUUID().slice(0, 8)}`;
    const csv = [
      "date,amount,fund,donor,method,cheque number,note",
      `2026-10-04,75.00,General Fund,member@grace.example,cheque,3301,${note}`,
      `2026-10-04,12.5,Missions,anonymous,cash,,${note}`,
      `2026-13-01,5,Nope Fund,Nobody Atall,barter,,${note}`,
      `2026-10-11,-3,Missions,Mark Member,cash,,${note}`,
    ].join("\r\n");
    const file = { name: "previous-system.csv", mimeType: "text/csv", buffer: Buffer.from(csv) };
    await page.getByLabel("CSV file").setInputFiles(file);
    const summary = page.getByTestId("import-summary");
    await expect
      .poll(() => summary.textContent(), SLOW)
      .toBe("2 rows ready ($87.50), 2 refused, none imported before.");
    const table = page.getByRole("table", { name: "What previous-system.csv would record" });
    const refused = table.getByRole("row").filter({ hasText: "Refused" });
    expect(await refused.count()).toBe(2);
    expect(await refused.first().textContent()).toMatch(/2026-13-01.*/);
    expect(await refused.first().textContent()).toContain("Fund: no fund by that name");
    expect(await refused.nth(1).textContent()).toContain("Amount:");
    await expectAccessible(page);

    await page.getByRole("button", { name: "Import 2 gifts" }).click();
    await expect.poll(() => page.getByText(/^2 gifts recorded \(\$87\.50\)\./).isVisible(), SLOW).toBe(true);

    // The same file again: nothing is recorded twice.
    await page.getByLabel("CSV file").setInputFiles(file);
    await expect
      .poll(() => summary.textContent(), SLOW)
      .toBe("2 rows ready ($87.50), 2 refused, 2 imported before.");
    expect(await page.getByRole("button", { name: "Import 0 gifts" }).isDisabled()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("statements for every donor of a period: started from the reports, followed to the end, downloaded as a zip", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, TREASURER, DEMO_PASSWORD);
    await page.goto("/admin/giving/reports");
    await expect.poll(() => heading(page, "Giving reports").isVisible(), SLOW).toBe(true);
    // One month of the demo's gifts: a run of a few dozen statements.
    await page.getByLabel("From", { exact: true }).fill("2026-10-01");
    await page.getByLabel("To", { exact: true }).fill("2026-10-31");
    await page
      .getByRole("button", { name: /^Make statements for October 1, 2026 – October 31, 2026$/ })
      .click();
    const download = page.getByRole("link", { name: "Download the zip" }).first();
    await expect.poll(() => download.isVisible(), { timeout: 60_000 }).toBe(true);
    const done = await page
      .locator(".statement-runs li")
      .first()
      .getByText(/statements?\./)
      .textContent();
    const made = Number(/^(\d+) statements?\./.exec(done ?? "")?.[1]);
    expect(made).toBeGreaterThan(5);
    await expectAccessible(page);
    const zip = await page.request.get((await download.getAttribute("href"))!);
    expect(zip.status()).toBe(200);
    const bytes = await zip.body();
    // A zip (local file headers start "PK\x03\x04"), one PDF per statement (each name is in its
    // local header and again in the central directory).
    expect(bytes.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    expect(bytes.toString("latin1").match(/\.pdf/g)!.length).toBe(made * 2);
    expect(errors).toEqual([]);
    await context.close();
  });
});
