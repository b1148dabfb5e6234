import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { catcherUrl, DEMO_PASSWORD, expectAccessible, linkFrom, newContext, signIn, uniqueEmail, waitForMail, watchErrors } from "./support/app.ts";

// Events in a real browser, on the demo church (the retreat has 12 seats, 10 taken): a visitor
// registers a party of 3 → 2 confirmed, 1 waitlisted, and the mail arrives; a signed-in member's page
// shows the seats left change live; a second visitor joins the waitlist and is promoted when the
// first cancels from the mail link, signed out. axe-core on every page visited.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const SLOW = { timeout: 20_000 };

describe("events", () => {
  it("the calendar views and the recurrence builder are accessible", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto("/events");
    await expect.poll(() => page.getByRole("heading", { level: 1, name: "Events" }).isVisible(), SLOW).toBe(true);
    await expect.poll(() => page.getByRole("link", { name: "Sunday Worship" }).first().isVisible(), SLOW).toBe(true);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Month", exact: true }).click();
    await expect.poll(() => page.getByRole("table").isVisible(), SLOW).toBe(true);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Week", exact: true }).click();
    await expectAccessible(page);

    await signIn(page, "editor@grace.example", DEMO_PASSWORD);
    await page.goto("/admin/events/new");
    await page.getByLabel("Title", { exact: true }).fill("Second-Sunday lunch");
    await page.getByLabel("Starts (local time)").fill("2027-01-10T10:00");
    await page.getByLabel("Ends (local time)").fill("2027-01-10T11:00");
    await page.getByLabel("Repeats", { exact: true }).selectOption("MONTHLY");
    await page.getByLabel("On", { exact: true }).selectOption("2");
    await page.getByLabel("Ends", { exact: true }).selectOption("until");
    await page.getByLabel("Last date").fill("2027-12-31");
    await expect.poll(() => page.getByTestId("recurrence-preview").textContent(), SLOW).toContain("Every 2nd Sunday at 10:00, until 31 Dec 2027");
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a visitor registers a party of 3 for 2 seats; a member sees the seats change live; cancelling from the mail promotes the waitlist", async () => {
    // A member watches the retreat's page.
    const memberContext = await newContext(browser);
    const member = await memberContext.newPage();
    await signIn(member, "member@grace.example", DEMO_PASSWORD);
    await member.goto("/events/marriage-retreat");
    const seats = member.getByTestId("seats-left");
    await expect.poll(() => seats.textContent(), SLOW).toBe("Seats left: 2");
    await expectAccessible(member);

    // A visitor registers a party of three.
    const visitorContext = await newContext(browser);
    const visitor = await visitorContext.newPage();
    const errors = watchErrors(visitor);
    await visitor.goto("/events/marriage-retreat");
    await expect.poll(() => visitor.getByRole("heading", { level: 1, name: "Marriage Retreat Day" }).isVisible(), SLOW).toBe(true);
    await expectAccessible(visitor);
    const email = uniqueEmail("party");
    await visitor.getByLabel("Name").fill("The Morgans");
    await visitor.getByLabel("Email").fill(email);
    await visitor.getByLabel("People").fill("3");
    await visitor.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => visitor.getByText("Confirmed: 2.").isVisible(), SLOW).toBe(true);
    await expect.poll(() => visitor.getByText(/On the waitlist: 1\./).isVisible(), SLOW).toBe(true);
    await expectAccessible(visitor);
    const mail = await waitForMail(catcherUrl(), email, /Registered: Marriage Retreat Day/);
    expect(mail.text).toContain("On the waitlist: 1 place");

    // The member's page changed without a reload.
    await expect.poll(() => seats.textContent(), SLOW).toBe("Full — join the waitlist");

    // Someone else joins the waitlist.
    const secondContext = await newContext(browser);
    const second = await secondContext.newPage();
    await second.goto("/events/marriage-retreat");
    const secondEmail = uniqueEmail("waiting");
    await second.getByLabel("Name").fill("Sam Waiting");
    await second.getByLabel("Email").fill(secondEmail);
    await second.getByLabel("People").fill("1");
    await second.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => second.getByText(/On the waitlist: 1\./).isVisible(), SLOW).toBe(true);

    // The party cancels from the mail link, signed out: the waiting person gets a seat and a mail.
    const link = linkFrom(mail, "/events/registration/");
    const cancelContext = await newContext(browser);
    const cancelPage = await cancelContext.newPage();
    await cancelPage.goto(new URL(link).pathname);
    await expect.poll(() => cancelPage.getByTestId("registration-status").textContent(), SLOW).toBe("Confirmed for 2.");
    await expectAccessible(cancelPage);
    await cancelPage.getByRole("button", { name: "Cancel registration" }).click();
    await expect.poll(() => cancelPage.getByTestId("registration-status").textContent(), SLOW).toBe("Cancelled.");
    await waitForMail(catcherUrl(), secondEmail, /A seat is yours: Marriage Retreat Day/);
    await expect.poll(() => seats.textContent(), SLOW).toBe("Seats left: 1");
    expect(errors).toEqual([]);
    await Promise.all([memberContext.close(), visitorContext.close(), secondContext.close(), cancelContext.close()]);
  });
});
