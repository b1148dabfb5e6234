import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import {
  catcherUrl,
  DEMO_PASSWORD,
  expectAccessible,
  graphql,
  linkFrom,
  newContext,
  signIn,
  waitForMail,
  watchErrors,
} from "./support/app.ts";

// Serving in a real browser (issue 27), on the demo church: Mark Member answers the request waiting for
// him under My serving; Paul Pastor (who leads the Welcome team) auto-fills four Sundays, drops some
// proposals and sends; Mark declines one from the mail's link in another browser, signed out; Paul's
// matrix shows it live (no reload, no polling) with the next greeter asked in his place, and Paul hears
// of it by mail. Then Mark asks for a swap of the Sunday he accepted and Erin takes it from her My
// serving: the place is hers, Mark's says so, and Mark is told. SHOTS_DIR=… saves screenshots of the
// matrix (1280 and 390 px), My serving and the mail.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const MEMBER = "member@grace.example";
const PASTOR = "pastor@grace.example";
const ERIN = "editor@grace.example";
const SHOTS = process.env.SHOTS_DIR;
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/serving-${name}.png`, fullPage: true });
}
/** Polls wait for the app (page loads, GraphQL) rather than vitest's 1 s default. */
const SLOW = { timeout: 15_000 };

describe("serving: a request to serve, answered", () => {
  it("Mark accepts; Paul auto-fills, adjusts and sends; Mark declines from the mail signed out; the matrix shows it live with the next greeter asked; a swap to Erin completes", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, MEMBER, DEMO_PASSWORD);
    await page.goto("/me/serving");
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "My serving" }).isVisible(), SLOW)
      .toBe(true);
    const waiting = page.locator(".serving-request").filter({ hasText: "Waiting for your answer" });
    await expect
      .poll(
        () =>
          waiting
            .first()
            .getByRole("heading", { name: /^Greeter on Sunday/ })
            .isVisible(),
        SLOW,
      )
      .toBe(true);
    const before = await waiting.count();
    const accepting = await waiting.first().getByRole("heading").textContent();
    await expectAccessible(page);
    await waiting.first().getByRole("button", { name: "Yes, I'll serve" }).click();
    // It moves from "waiting" to the answered ones, as "You're serving".
    await expect.poll(() => waiting.count(), SLOW).toBe(before - 1);
    const served = page.locator(".serving-request").filter({ hasText: "You're serving" });
    await expect.poll(() => served.getByRole("heading", { name: accepting! }).count(), SLOW).toBe(1);
    // He notes a Sunday he is away, every month; and a last day before the first is refused on the field.
    await page.getByLabel("First day").fill("2031-06-01");
    await page.getByLabel("Last day").fill("2031-05-31");
    await page.getByRole("button", { name: "Add these dates" }).click();
    await expect.poll(() => page.getByText("End on or after the first day.").isVisible(), SLOW).toBe(true);
    await page.getByLabel("Last day").fill("");
    await page.getByLabel("Repeats", { exact: true }).selectOption("MONTHLY");
    await page.getByLabel("Reason").fill("Visiting my parents");
    await page.getByRole("button", { name: "Add these dates" }).click();
    const blockouts = page.locator(".serving-blockouts__list li");
    await expect.poll(() => blockouts.filter({ hasText: "Sunday, June 1, 2031" }).count(), SLOW).toBe(1);
    await expect
      .poll(() => blockouts.filter({ hasText: "Every month on the same weekday" }).count(), SLOW)
      .toBe(1);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();

    // Paul (who leads the Welcome team) publishes the next four draft Sundays (plans are made and
    // published through the API until their screen lands) and fills them on the schedule screen.
    const pastorContext = await newContext(browser);
    const pastor = await pastorContext.newPage();
    const pastorErrors = watchErrors(pastor);
    await signIn(pastor, PASTOR, DEMO_PASSWORD);
    const { servingPlans } = await graphql<{ servingPlans: { id: string; date: string; status: string }[] }>(
      pastor,
      `
        {
          servingPlans {
            id
            date
            status
          }
        }
      `,
    );
    const drafts = servingPlans.filter((plan) => plan.status === "DRAFT").slice(0, 4);
    for (const plan of drafts)
      await graphql(
        pastor,
        `
          mutation ($id: ID!) {
            setServingPlanStatus(id: $id, status: PUBLISHED) {
              id
            }
          }
        `,
        {
          id: plan.id,
        },
      );
    const { servingTeams } = await graphql<{ servingTeams: { id: string; name: string }[] }>(
      pastor,
      `
        {
          servingTeams {
            id
            name
          }
        }
      `,
    );
    const welcome = servingTeams.find((team) => team.name === "Welcome")!;
    await pastor.goto(
      `/admin/serving/schedule?team=${welcome.id}&from=${drafts[0]!.date}&to=${drafts[3]!.date}`,
    );
    const matrix = pastor.getByRole("table", { name: "Schedule of Welcome" });
    await expect.poll(() => matrix.getByRole("rowheader").count(), SLOW).toBe(4);
    await expectAccessible(pastor);
    await pastor.getByRole("button", { name: "Auto-fill the open places" }).click();
    await expect.poll(() => pastor.getByText(/people proposed/).isVisible(), SLOW).toBe(true);
    // Every open place has a proposal: 2 greeters and 1 coffee on 4 Sundays.
    const proposals = matrix.locator(".serving-cell__proposal");
    await expect.poll(() => proposals.count(), SLOW).toBe(12);
    await expectAccessible(pastor);
    // Paul keeps Mark on one Sunday only and drops his other proposals before sending.
    const marks = proposals.filter({ hasText: "Mark Member" });
    const kept = await marks.count();
    expect(kept).toBeGreaterThan(0);
    const proposedRow = matrix
      .getByRole("row")
      .filter({ has: pastor.locator(".serving-cell__proposal", { hasText: "Mark Member" }) })
      .first();
    const keptDate = (await proposedRow.locator(".serving-matrix__date").textContent())!;
    const keptRow = matrix.getByRole("row").filter({ hasText: keptDate });
    const keptDay = keptDate.replace(/, \d{4}$/, "");
    for (let i = kept - 1; i >= 1; i--) await marks.nth(i).getByRole("button", { name: "Drop" }).click();
    const toSend = 12 - (kept - 1);
    await pastor.getByRole("button", { name: `Send ${toSend} requests` }).click();
    await expect
      .poll(() => pastor.getByText(`${toSend} requests sent`, { exact: false }).isVisible(), SLOW)
      .toBe(true);
    // Sent: Mark is now asked on that Sunday (no longer a proposal).
    await expect
      .poll(
        () => keptRow.locator(".serving-cell__people li").filter({ hasText: "Mark Member" }).textContent(),
        SLOW,
      )
      .toMatch(/Mark Member\s*Asked/);
    expect(pastorErrors).toEqual([]);

    // The mail's button, opened in another browser, signed out.
    const day = keptDay;
    const mail = await waitForMail(catcherUrl(), MEMBER, new RegExp(`Can you serve as Greeter on ${day}\\?`));
    const link = new URL(linkFrom(mail, "/serving/answer/"));
    const guestContext = await newContext(browser, "phone");
    const guest = await guestContext.newPage();
    const guestErrors = watchErrors(guest);
    await guest.goto(link.pathname + link.search);
    await expect
      .poll(() => guest.getByRole("heading", { level: 2, name: `Greeter on ${day}` }).isVisible(), SLOW)
      .toBe(true);
    // The secret leaves the address bar.
    await expect.poll(() => new URL(guest.url()).searchParams.has("token"), SLOW).toBe(false);
    await expectAccessible(guest);
    await guest.getByRole("button", { name: "I can't" }).click();
    await guest.getByLabel("Reason").fill("Visiting my sister that weekend");
    await guest.getByRole("button", { name: "Send: I can't" }).click();
    await expect
      .poll(
        () => guest.getByText("Thank you for letting us know. Your leader has been told.").isVisible(),
        SLOW,
      )
      .toBe(true);
    await expectAccessible(guest);
    // Used: the same link answers nothing more.
    await guest.goto(link.pathname + link.search);
    await expect.poll(() => guest.getByText(/This link was already used/).isVisible(), SLOW).toBe(true);
    expect(guestErrors).toEqual([]);
    await guestContext.close();

    const told = await waitForMail(
      catcherUrl(),
      PASTOR,
      new RegExp(`Mark Member can't serve as Greeter on ${day}`),
    );
    expect(told.text).toContain("Their reason: “Visiting my sister that weekend”");
    // Welcome offers a declined place on: the freest suitable greeter was asked, and Paul is told who.
    const offered = /The place was offered to ([^.]+)\./.exec(told.text)?.[1];
    expect(offered, told.text).toBeTruthy();
    // Paul's matrix, open all along, shows both without a reload (the schedule's subscription).
    const keptCell = keptRow.locator(".serving-cell").first();
    await expect
      .poll(() => keptCell.locator("li").filter({ hasText: "Mark Member" }).textContent(), SLOW)
      .toMatch(/Mark Member\s*Can't/);
    await expect
      .poll(() => keptCell.locator("li").filter({ hasText: offered! }).textContent(), SLOW)
      .toMatch(/Asked/);
    expect(await pastor.getByText("Updates live as people answer.").isVisible()).toBe(true);
    await shot(pastor, "matrix-1280");
    expect(pastorErrors).toEqual([]);
    await pastorContext.close();
    // The matrix on a phone: each plan a card.
    const phoneContext = await newContext(browser, "phone");
    const phone = await phoneContext.newPage();
    await signIn(phone, PASTOR, DEMO_PASSWORD);
    await phone.goto(
      `/admin/serving/schedule?team=${welcome.id}&from=${drafts[0]!.date}&to=${drafts[3]!.date}`,
    );
    await expect
      .poll(
        () => phone.getByRole("table", { name: "Schedule of Welcome" }).getByRole("rowheader").count(),
        SLOW,
      )
      .toBe(4);
    await expectAccessible(phone);
    await shot(phone, "matrix-390");
    await phoneContext.close();

    // A swap: Mark can't make the Sunday he accepted after all and asks for someone to take his place.
    const markContext = await newContext(browser);
    const mark = await markContext.newPage();
    await signIn(mark, MEMBER, DEMO_PASSWORD);
    await mark.goto("/me/serving");
    const mine = mark
      .locator(".serving-request")
      .filter({ has: mark.getByRole("heading", { name: accepting! }) });
    await expect
      .poll(() => mine.getByRole("button", { name: "Ask for someone to take my place" }).isVisible(), SLOW)
      .toBe(true);
    await mine.getByRole("button", { name: "Ask for someone to take my place" }).click();
    await expect
      .poll(() => mine.getByText(/You asked for someone to take your place/).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(mark);
    await shot(mark, "me-serving-1280");

    // Erin, who greets on the team too, sees it among the places she could take, and takes it.
    const erinContext = await newContext(browser, "phone");
    const erin = await erinContext.newPage();
    const erinErrors = watchErrors(erin);
    await signIn(erin, ERIN, DEMO_PASSWORD);
    await erin.goto("/me/serving");
    const openings = erin.getByRole("region", { name: "Places you could take" });
    const offer = openings
      .locator(".serving-request")
      .filter({ has: erin.getByRole("heading", { name: accepting! }) });
    await expect.poll(() => offer.getByText("Mark Member needs someone").isVisible(), SLOW).toBe(true);
    await expectAccessible(erin);
    await shot(erin, "openings-390");
    await offer.getByRole("button", { name: /^Take this place/ }).click();
    await expect
      .poll(() => erin.getByText(/You're serving as Greeter on .*Thank you!/).isVisible(), SLOW)
      .toBe(true);
    const erinsOwn = erin.locator(".serving-request").filter({ hasText: "You're serving" });
    await expect.poll(() => erinsOwn.getByRole("heading", { name: accepting! }).count(), SLOW).toBe(1);
    expect(erinErrors).toEqual([]);
    await erinContext.close();

    // The place is Erin's: Mark's page says so, and Mark is told by mail.
    await mark.reload();
    await expect.poll(() => mine.getByText("A teammate took your place").isVisible(), SLOW).toBe(true);
    expect(await mine.getByRole("button", { name: "Ask for someone to take my place" }).count()).toBe(0);
    const swapped = await waitForMail(catcherUrl(), MEMBER, /takes Mark Member's place as Greeter/);
    expect(swapped.text).toContain("Mark Member no longer serves then.");
    await mark.setContent(swapped.html);
    await shot(mark, "mail-swapped");
    await markContext.close();
  });
});
