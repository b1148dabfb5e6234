import { crc32, deflateSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import {
  catcherUrl,
  DEMO_PASSWORD,
  expectAccessible,
  linkFrom,
  newContext,
  signIn,
  uniqueEmail,
  waitForMail,
  watchErrors,
} from "./support/app.ts";

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

/** A real PNG of one colour, so the gateway can read its size. */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const typed = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc32(typed));
    return Buffer.concat([length, typed, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.concat([Buffer.from([0]), Buffer.alloc(width * 3, 0x5a)]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("events", () => {
  it("the calendar views and the recurrence builder are accessible", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto("/events");
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Events" }).isVisible(), SLOW)
      .toBe(true);
    await expect
      .poll(() => page.getByRole("link", { name: "Sunday Worship" }).first().isVisible(), SLOW)
      .toBe(true);
    // Subscribing: a webcal:// link (a phone subscribes rather than importing a copy), and the steps
    // with the address to paste for the apps that need it.
    const origin = new URL(page.url());
    expect(await page.getByRole("link", { name: "Subscribe in your calendar" }).getAttribute("href")).toBe(
      `webcal://${origin.host}/feeds/events.ics`,
    );
    await page.getByText("How to subscribe").click();
    expect(await page.getByLabel("Calendar address").inputValue()).toBe(`${origin.origin}/feeds/events.ics`);
    // The list covers the coming weeks as cards (the retreat, three weeks away, among them, with its
    // cover), and "More events" adds the weeks after.
    const cards = page.locator(".event-list .event-card");
    const retreat = cards.filter({ hasText: "Marriage Retreat Day" });
    await expect.poll(() => retreat.count(), SLOW).toBe(1);
    expect(await retreat.locator("img").getAttribute("src")).toMatch(/^\/files\/events\/.+\?thumb=640x360$/);
    const shown = await cards.count();
    await page.getByRole("button", { name: "More events" }).click();
    await expect.poll(() => cards.count(), SLOW).toBeGreaterThan(shown);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Month", exact: true }).click();
    await expect.poll(() => page.getByRole("table").isVisible(), SLOW).toBe(true);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Week", exact: true }).click();
    await expectAccessible(page);

    // On a phone the month is a list of the days with events, no wider than the screen.
    const phoneContext = await newContext(browser, "phone");
    const phone = await phoneContext.newPage();
    await phone.goto("/events?view=month");
    await expect
      .poll(
        () =>
          phone
            .getByRole("link", { name: /Sunday Worship/ })
            .first()
            .isVisible(),
        SLOW,
      )
      .toBe(true);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await phone.locator(".event-grid thead").isVisible()).toBe(false);
    await expectAccessible(phone);
    await phoneContext.close();

    await signIn(page, "editor@grace.example", DEMO_PASSWORD);
    await page.goto("/admin/events/new");
    await page.getByLabel("Title", { exact: true }).fill("Second-Sunday lunch");
    await page.getByLabel("Starts (local time)").fill("2027-01-10T10:00");
    await page.getByLabel("Ends (local time)").fill("2027-01-10T11:00");
    await page.getByLabel("Repeats", { exact: true }).selectOption("MONTHLY");
    await page.getByLabel("On", { exact: true }).selectOption("2");
    await page.getByLabel("Ends", { exact: true }).selectOption("until");
    await page.getByLabel("Last date").fill("2027-12-31");
    await expect
      .poll(
        async () => (await page.getByTestId("recurrence-preview").textContent())?.replace(/\s/g, " "),
        SLOW,
      )
      .toContain("Every 2nd Sunday at 10:00 AM, until 31 Dec 2027");
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
    await expect
      .poll(() => visitor.getByRole("heading", { level: 1, name: "Marriage Retreat Day" }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(visitor);
    const email = uniqueEmail("party");
    await visitor.getByLabel("Name").fill("The Morgans");
    await visitor.getByLabel("Email").fill(email);
    await visitor.getByLabel("People").fill("3");
    await visitor.getByLabel("Do you need childcare?").selectOption("NO");
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
    await second.getByLabel("Do you need childcare?").selectOption("YES");
    await second.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => second.getByText(/On the waitlist: 1\./).isVisible(), SLOW).toBe(true);

    // The party cancels from the mail link, signed out: the waiting person gets a seat and a mail.
    const link = linkFrom(mail, "/events/registration/");
    const cancelContext = await newContext(browser);
    const cancelPage = await cancelContext.newPage();
    await cancelPage.goto(new URL(link).pathname);
    await expect
      .poll(() => cancelPage.getByTestId("registration-status").textContent(), SLOW)
      .toBe("Confirmed for 2.");
    // The party's answers to the event's questions are on the page too.
    expect(await cancelPage.locator(".registration-answers").textContent()).toBe("Do you need childcare?No");
    await expectAccessible(cancelPage);
    await cancelPage.getByRole("button", { name: "Cancel registration" }).click();
    await expect
      .poll(() => cancelPage.getByTestId("registration-status").textContent(), SLOW)
      .toBe("Cancelled.");
    await waitForMail(catcherUrl(), secondEmail, /A seat is yours: Marriage Retreat Day/);
    await expect.poll(() => seats.textContent(), SLOW).toBe("Seats left: 1");
    expect(errors).toEqual([]);
    await Promise.all([
      memberContext.close(),
      visitorContext.close(),
      secondContext.close(),
      cancelContext.close(),
    ]);
  });

  it("staff add a question to the registration form; a visitor must answer it; staff read the answers and the CSV", async () => {
    const staffContext = await newContext(browser);
    const staff = await staffContext.newPage();
    const staffErrors = watchErrors(staff);
    await signIn(staff, "pastor@grace.example", DEMO_PASSWORD);
    await staff.goto("/admin/events");
    // The staff list: status, next date and sign-ups at a glance, sortable, filterable.
    const retreatRow = staff.getByRole("row").filter({ hasText: "Marriage Retreat Day" });
    await expect.poll(() => retreatRow.textContent(), SLOW).toMatch(/\d+ of 12 seats/);
    expect(await retreatRow.getByText("Published", { exact: true }).count()).toBe(1);
    await staff.getByRole("button", { name: /^Title/ }).click();
    expect(await staff.getByRole("columnheader", { name: /^Title/ }).getAttribute("aria-sort")).toBe(
      "ascending",
    );
    await staff.getByLabel("Status", { exact: true }).selectOption("DRAFT");
    await expect.poll(() => retreatRow.count(), SLOW).toBe(0);
    await staff.getByLabel("Status", { exact: true }).selectOption("");
    await expectAccessible(staff);
    await staff.getByRole("link", { name: "Marriage Retreat Day" }).click();
    // The seeded questions, then a new one: a choice.
    await expect
      .poll(() => staff.getByLabel("Question 2", { exact: true }).inputValue(), SLOW)
      .toBe("Do you need childcare?");
    await staff.getByRole("button", { name: "Add a question" }).click();
    await staff.getByLabel("Question 3", { exact: true }).fill("Which workshop?");
    await staff.getByLabel("Answer", { exact: true }).nth(2).selectOption("CHOICE");
    await staff.getByLabel("Choices, one per line").fill("Communication\nFinances");
    await staff.getByLabel("Required", { exact: true }).nth(2).check();
    await expectAccessible(staff);
    await staff.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => staff.getByText("Saved.").isVisible(), SLOW).toBe(true);

    // A visitor: the form asks it, and will not take the registration without the required answers.
    const visitorContext = await newContext(browser);
    const visitor = await visitorContext.newPage();
    const errors = watchErrors(visitor);
    await visitor.goto("/events/marriage-retreat");
    const workshop = visitor.getByLabel("Which workshop?");
    await expect.poll(() => workshop.isVisible(), SLOW).toBe(true);
    const email = uniqueEmail("asked");
    await visitor.getByLabel("Name").fill("Ada Answer");
    await visitor.getByLabel("Email").fill(email);
    await visitor.getByLabel("Dietary needs for lunch").fill("No nuts, please");
    await visitor.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => visitor.getByText("This field is required.").count(), SLOW).toBe(2);
    // Nothing typed is lost.
    expect(await visitor.getByLabel("Dietary needs for lunch").inputValue()).toBe("No nuts, please");
    await expectAccessible(visitor);
    await workshop.selectOption("Finances");
    await visitor.getByLabel("Do you need childcare?").selectOption("NO");
    await visitor.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => visitor.getByText(/Your confirmation code:/).isVisible(), SLOW).toBe(true);

    // Staff: the answers beside the name, and a column per question in the CSV.
    await staff.reload();
    await staff.locator(".event-date").first().getByRole("button", { name: "Attendees" }).click();
    const row = staff.getByRole("row").filter({ hasText: "Ada Answer" });
    await expect.poll(() => row.textContent(), SLOW).toContain("Which workshop?Finances");
    expect(await row.textContent()).toContain("Dietary needs for lunch" + "No nuts, please");
    const csv = decodeURIComponent(
      (await staff.getByRole("link", { name: "Download CSV" }).getAttribute("href"))!
        .split(",")
        .slice(1)
        .join(","),
    );
    const [header, ...lines] = csv.split("\r\n");
    expect(header).toContain("Dietary needs for lunch,Do you need childcare?,Which workshop?");
    expect(lines.find((line) => line.startsWith("Ada Answer,"))).toMatch(/,"No nuts, please",NO,Finances$/);
    expect(errors).toEqual([]);
    expect(staffErrors).toEqual([]);
    await Promise.all([staffContext.close(), visitorContext.close()]);
  });

  it("a visitor's RSVP is changed and withdrawn from the mail link, in another browser", async () => {
    const answerContext = await newContext(browser);
    const answering = await answerContext.newPage();
    const errors = watchErrors(answering);
    await answering.goto("/events/midweek-prayer");
    await expect
      .poll(() => answering.getByRole("heading", { name: "Will you come?" }).isVisible(), SLOW)
      .toBe(true);
    const email = uniqueEmail("rsvp");
    await answering.getByLabel("Name").fill("Rosa Visitor");
    await answering.getByLabel("Email").fill(email);
    await answering.getByLabel("Guests coming with you").fill("1");
    await answering.getByRole("button", { name: "Yes", exact: true }).click();
    await expect.poll(() => answering.getByText("Your answer: Yes").isVisible(), SLOW).toBe(true);
    const mail = await waitForMail(catcherUrl(), email, /Your answer for Midweek Prayer Meeting: going/);
    expect(mail.text).toContain("from any browser");

    // Another browser (a phone, say) opens the mail's link: the answer is there, and can be changed.
    const phoneContext = await newContext(browser, "phone");
    const phone = await phoneContext.newPage();
    const phoneErrors = watchErrors(phone);
    const link = new URL(linkFrom(mail, "/events/midweek-prayer?date="));
    await phone.goto(link.pathname + link.search);
    await expect.poll(() => phone.getByText("Your answer: Yes").isVisible(), SLOW).toBe(true);
    expect(await phone.getByLabel("Name").inputValue()).toBe("Rosa Visitor");
    expect(await phone.getByLabel("Guests coming with you").inputValue()).toBe("1");
    // The secret leaves the address bar (and so the history and any copied link).
    expect(new URL(phone.url()).searchParams.has("rsvp")).toBe(false);
    await expectAccessible(phone);
    await phone.getByRole("button", { name: "Maybe", exact: true }).click();
    await expect.poll(() => phone.getByText("Your answer: Maybe").isVisible(), SLOW).toBe(true);
    await waitForMail(catcherUrl(), email, /Your answer for Midweek Prayer Meeting: maybe/);
    // The first browser sees the change too, and the phone keeps the answer after a reload.
    await answering.reload();
    await expect.poll(() => answering.getByText("Your answer: Maybe").isVisible(), SLOW).toBe(true);
    await phone.reload();
    await expect.poll(() => phone.getByText("Your answer: Maybe").isVisible(), SLOW).toBe(true);
    await phone.getByRole("button", { name: "Withdraw my answer" }).click();
    await expect.poll(() => phone.getByText("Your answer was withdrawn.").isVisible(), SLOW).toBe(true);
    expect(await phone.getByText(/Your answer:/).count()).toBe(0);
    expect(errors).toEqual([]);
    expect(phoneErrors).toEqual([]);
    await Promise.all([answerContext.close(), phoneContext.close()]);
  });

  it("staff add a cover image, cancel and move single dates, move a registration, and change this and following", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, "editor@grace.example", DEMO_PASSWORD);
    await page.goto("/admin/events/new");
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "New event" }).isVisible(), SLOW)
      .toBe(true);
    const day = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const title = `Cooking class ${uniqueEmail("c").slice(2, 8)}`;
    await page.getByLabel("Title", { exact: true }).fill(title);
    await page.getByLabel("Starts (local time)").fill(`${day}T18:00`);
    await page.getByLabel("Ends (local time)").fill(`${day}T20:00`);
    await page.getByLabel("Repeats", { exact: true }).selectOption("WEEKLY");
    await page.getByLabel("Sign-up").selectOption("REGISTRATION");
    await page.getByLabel("Seats per date").fill("1");
    // Registration closes at noon, 60 days on, in the event's own zone.
    const closeDay = new Date(Date.now() + 60 * 86_400_000).toISOString().slice(0, 10);
    await page.getByLabel("Closes").fill(`${closeDay}T12:00`);
    // The Young Adults' event: listed on their page.
    await page.getByLabel("Group (optional)").selectOption({ label: "Young Adults" });
    await page.getByRole("button", { name: "Create event" }).click();
    await expect.poll(() => page.getByRole("button", { name: "Publish" }).isVisible(), SLOW).toBe(true);
    const eventUrl = page.url();
    await page.getByRole("button", { name: "Publish" }).click();
    await expect
      .poll(() => page.getByRole("link", { name: "View on the site" }).isVisible(), SLOW)
      .toBe(true);
    const slug = (await page.getByRole("link", { name: "View on the site" }).getAttribute("href"))!
      .split("/")
      .pop()!;

    // The cover image.
    await page
      .getByLabel("Cover image")
      .setInputFiles({ name: "kitchen.png", mimeType: "image/png", buffer: png(1200, 630) });
    await expect.poll(() => page.getByText("Image saved.").isVisible(), SLOW).toBe(true);
    await expect
      .poll(() => page.locator(".event-cover__img").getAttribute("src"), SLOW)
      .toMatch(/^\/files\/events\/\w+\/kitchen_\w+\.png/);
    await expectAccessible(page);

    // A visitor registers for the first date (the only seat).
    const visitorContext = await newContext(browser);
    const visitor = await visitorContext.newPage();
    await visitor.goto(`/events/${slug}`);
    await expect
      .poll(() => visitor.getByRole("heading", { level: 1, name: title }).isVisible(), SLOW)
      .toBe(true);
    expect(await visitor.locator(".event-cover-hero").getAttribute("src")).toMatch(/^\/files\/events\//);
    const closing = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" }).format(
      new Date(`${closeDay}T12:00:00Z`),
    );
    expect(await visitor.getByTestId("registration-window").textContent()).toBe(
      `Open until ${closing}, 12:00 PM`,
    );
    await visitor.getByLabel("Name").fill("Chris Cook");
    await visitor.getByLabel("Email").fill(uniqueEmail("cook"));
    await visitor.getByRole("button", { name: "Register" }).click();
    await expect.poll(() => visitor.getByText("Confirmed: 1.").isVisible(), SLOW).toBe(true);
    await visitor.goto("/groups/young-adults");
    await expect.poll(() => visitor.getByRole("link", { name: title }).isVisible(), SLOW).toBe(true);

    // Cancel the second date with a note; move the third one an hour later.
    const dates = page.locator(".event-date");
    await dates.nth(1).getByRole("button", { name: "Cancel this date" }).click();
    await dates.nth(1).getByLabel("Note").fill("The kitchen is being painted");
    await dates.nth(1).getByRole("button", { name: "Cancel the date" }).click();
    await expect.poll(() => dates.nth(1).textContent(), SLOW).toContain("The kitchen is being painted");
    expect(await dates.nth(1).textContent()).toContain("Cancelled");
    const third = (await dates.nth(2).locator(".event-date__when").textContent())!;
    await dates.nth(2).getByRole("button", { name: "Move this date" }).click();
    const start = dates.nth(2).getByLabel("Starts (local time)");
    const moved = (await start.inputValue()).replace("T18:00", "T19:00");
    await start.fill(moved);
    await dates.nth(2).getByLabel("Ends (local time)").fill(moved.replace("T19:00", "T21:00"));
    await dates.nth(2).getByRole("button", { name: "Move the date" }).click();
    await expect.poll(() => dates.nth(2).textContent(), SLOW).toContain("Moved");
    expect(await dates.nth(2).textContent()).toContain("7:00");
    expect(third).toContain("6:00");

    // The visitor's page for the cancelled date says so.
    const cancelledDate =
      (await page.evaluate(() => document.querySelectorAll(".event-date")[1]?.getAttribute("data-date"))) ??
      "";
    expect(cancelledDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    await visitor.goto(`/events/${slug}?date=${cancelledDate}`);
    await expect.poll(() => visitor.getByText(/The kitchen is being painted/).isVisible(), SLOW).toBe(true);

    // Move the registration from the first date to the fourth.
    await dates.nth(0).getByRole("button", { name: "Attendees" }).click();
    await expect
      .poll(() => page.getByRole("cell", { name: "Chris Cook", exact: true }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(page);
    const fourth = (await dates.nth(3).getAttribute("data-original-start"))!;
    const eventId = new URL(eventUrl).pathname.split("/").pop()!;
    await page.getByLabel("Move Chris Cook to another date").selectOption(`${eventId}|${fourth}`);
    await expect.poll(() => page.getByText(/Chris Cook moved to/).isVisible(), SLOW).toBe(true);
    await expect
      .poll(() => page.getByRole("cell", { name: "Chris Cook", exact: true }).count(), SLOW)
      .toBe(0);
    await expect.poll(() => dates.nth(3).textContent(), SLOW).toContain("Seats left: 0");

    // This and following, from the fifth date: the series is split into a new event.
    const fifthDate = (await dates.nth(4).getAttribute("data-date"))!;
    await dates.nth(4).getByRole("button", { name: "Change this and following" }).click();
    await expect
      .poll(() => page.getByText(/You are changing this date and the following ones/).isVisible(), SLOW)
      .toBe(true);
    await page.getByLabel("Title", { exact: true }).fill(`${title} (new kitchen)`);
    await page.getByRole("button", { name: "Save this and following dates" }).click();
    await expect.poll(() => page.url(), SLOW).not.toBe(eventUrl);
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: `${title} (new kitchen)` }).isVisible(), SLOW)
      .toBe(true);
    await expect
      .poll(() => page.locator(".event-date").first().getAttribute("data-date"), SLOW)
      .toBe(fifthDate);
    // The old series ends before the fifth date.
    await page.goto(new URL(eventUrl).pathname);
    await expect.poll(() => page.locator(".event-date").count(), SLOW).toBe(4);
    expect(errors).toEqual([]);
    await Promise.all([context.close(), visitorContext.close()]);
  });
});
