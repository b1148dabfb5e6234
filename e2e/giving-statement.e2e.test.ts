import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { formatCents } from "@flock/shared/money";
import { pdfText } from "../scripts/lib/pdf-text.ts";
import { launchChromium } from "./support/browser.ts";
import { DEMO_PASSWORD, expectAccessible, graphql, newContext, signIn, watchErrors } from "./support/app.ts";

// A member's giving statement (issue 29) in a real browser, on the demo church: the treasurer records
// two gifts from Mark Member this year (a cheque to a tax-deductible fund, and one split with a fund that
// is not); Mark opens /me/giving, sees them among his household's gifts with the year's total, downloads
// the statement as the browser saves it, and the PDF's text carries the totals — the whole, the
// tax-deductible part (by each fund's own flag, as finance sees the funds) and the rest. axe-core on the
// page, and on its empty state (a year without gifts).

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const TREASURER = "treasurer@grace.example";
const MEMBER = "member@grace.example";
const SLOW = { timeout: 15_000 };

interface Fund {
  id: string;
  name: string;
  deductible: boolean;
  visibility: string;
}
interface MyGiving {
  donations: { amountCents: number; splits: { fund: { id: string }; amountCents: number }[] }[];
  totalCents: number;
  currency: string;
}

describe("a member's giving statement", () => {
  it("lists the year's gifts on /me/giving and downloads a PDF whose totals are right", async () => {
    const year = new Date().getFullYear();
    const today = new Date().toISOString().slice(0, 10);

    // The treasurer records two gifts from Mark.
    const finance = await (await newContext(browser)).newPage();
    await signIn(finance, TREASURER, DEMO_PASSWORD);
    const { funds } = await graphql<{ funds: Fund[] }>(
      finance,
      `
        {
          funds {
            id
            name
            deductible
            visibility
          }
        }
      `,
    );
    const open = funds.filter((f) => f.visibility !== "CLOSED");
    const deductibleFund = open.find((f) => f.deductible)!;
    const otherFund = open.find((f) => !f.deductible) ?? deductibleFund;
    const { givingDonors } = await graphql<{ givingDonors: { personId: string; name: string }[] }>(
      finance,
      `
        query ($search: String!) {
          givingDonors(search: $search) {
            personId
            name
          }
        }
      `,
      { search: "Mark Member" },
    );
    const mark = givingDonors.find((d) => d.name === "Mark Member")!;
    expect(mark).toBeTruthy();
    const record = (input: Record<string, unknown>) =>
      graphql(
        finance,
        `
          mutation ($input: DonationInput!) {
            createDonation(input: $input) {
              id
            }
          }
        `,
        {
          input: { personId: mark.personId, date: today, ...input },
        },
      );
    await record({ amountCents: 123_45, method: "CHEQUE", chequeNumber: "7001", fundId: deductibleFund.id });
    await record({
      amountCents: 40_00,
      method: "CASH",
      splits: [
        { fundId: deductibleFund.id, amountCents: 30_00 },
        { fundId: otherFund.id, amountCents: 10_00 },
      ],
    });

    // Mark's page.
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, MEMBER, DEMO_PASSWORD);
    await page.goto("/me/giving");
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "My giving" }).isVisible(), SLOW)
      .toBe(true);
    const table = page.getByRole("table");
    await expect.poll(() => table.isVisible(), SLOW).toBe(true);
    await expect.poll(() => table.getByRole("cell", { name: "$123.45" }).count(), SLOW).toBeGreaterThan(0);
    await expect.poll(() => table.getByText("Cheque 7001").count(), SLOW).toBeGreaterThan(0);

    // What the statement should say: the year's gifts Mark sees, their deductible part by each fund's
    // own flag (finance reads every fund, hidden ones included).
    const { myGiving } = await graphql<{ myGiving: MyGiving }>(
      page,
      `
        query ($year: Int!) {
          myGiving(year: $year) {
            donations {
              amountCents
              splits {
                fund {
                  id
                }
                amountCents
              }
            }
            totalCents
            currency
          }
        }
      `,
      { year },
    );
    const deductible = new Set(funds.filter((f) => f.deductible).map((f) => f.id));
    const deductibleCents = myGiving.donations
      .flatMap((d) => d.splits)
      .filter((s) => deductible.has(s.fund.id))
      .reduce((sum, s) => sum + s.amountCents, 0);
    const money = (cents: number) => formatCents(cents, myGiving.currency, "en");
    await expect
      .poll(() => page.getByText(money(myGiving.totalCents), { exact: true }).first().isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(page);

    // The statement, saved as the browser saves it.
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download statement (PDF)" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(new RegExp(`statement-${year}-01-01-${year}-12-31\\.pdf$`));
    const text = (await pdfText(readFileSync((await download.path())!))).join(" ").replace(/\s+/g, " ");
    expect(text).toContain(`Total given ${money(myGiving.totalCents)}`);
    expect(text).toContain(`Tax-deductible ${money(deductibleCents)}`);
    expect(text).toContain(`Not tax-deductible ${money(myGiving.totalCents - deductibleCents)}`);
    expect(text).toContain("Cheque 7001");
    expect(text).toContain("$123.45");

    // A year without gifts: the empty state, and no statement offered.
    await page.getByLabel("Year").selectOption(String(year - 6));
    await expect
      .poll(() => page.getByText(`No gifts recorded for ${year - 6} yet.`).isVisible(), SLOW)
      .toBe(true);
    expect(await page.getByRole("link", { name: "Download statement (PDF)" }).count()).toBe(0);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
    await finance.context().close();
  });
});
