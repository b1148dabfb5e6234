import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, BrowserContext, Locator, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { recordEventStreams } from "./support/event-streams.ts";
import {
  catcherUrl,
  DEMO_PASSWORD,
  expectAccessible,
  newContext,
  recordGraphqlResponses,
  signIn,
  uniqueEmail,
  waitForMail,
  watchErrors,
} from "./support/app.ts";

// The prayer wall in real browsers (issue 5, "Done when"): a visitor asks for prayer, a moderator
// approves it, it appears live on a member's open wall, the member prays, the count moves live in the
// visitor's still-open page, and the visitor is told by email. Then a member's own request with the
// bell's live unread count, and an anonymous request whose requester reaches nobody but the pastors.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const PASTOR = "pastor@grace.example";
const MEMBER = "member@grace.example";
const EDITOR = "editor@grace.example";
/** Polls wait for the app (page loads, GraphQL, live events) rather than vitest's 1 s default. */
const SLOW = { timeout: 15_000 };

/** A request text nobody else wrote (the e2e church is shared by the files and their runs). */
const uniqueBody = (what: string) => `${what} (${randomUUID().slice(0, 8)})`;

interface Browsing {
  context: BrowserContext;
  page: Page;
  errors: string[];
}

async function open(viewport: "desktop" | "phone" = "desktop"): Promise<Browsing> {
  const context = await newContext(browser, viewport);
  const page = await context.newPage();
  return { context, page, errors: watchErrors(page) };
}

/**
 * Marks the loaded document: the mark survives everything but a reload or a full navigation, so
 * finding it again proves that a change arrived live.
 */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { __sameDocument?: boolean }).__sameDocument = true;
  });
}
const isSameDocument = (page: Page) =>
  page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument === true);

/** /prayer with its wall loaded (the filter buttons and at least one request from the demo church). */
async function openWall(page: Page): Promise<void> {
  await page.goto("/prayer");
  await expect
    .poll(() => page.getByRole("heading", { level: 1, name: "Prayer wall" }).isVisible(), SLOW)
    .toBe(true);
  await expect.poll(() => page.getByRole("article").count(), SLOW).toBeGreaterThan(0);
}

/**
 * axe on the page once its finite animations are over: cards fade in (0.4 s) as they arrive, and
 * axe would measure the contrast of half-transparent text. Endless ones (a spinner) are not waited for.
 */
async function accessible(page: Page): Promise<void> {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every(
        (animation) =>
          animation.playState !== "running" || animation.effect?.getTiming().iterations === Infinity,
      ),
  );
  await expectAccessible(page);
}

const card = (page: Page, body: string): Locator => page.getByRole("article").filter({ hasText: body });

/** The wall's polite live region (not the bell's): what a screen reader hears without asking. */
const wallAnnouncement = (page: Page) =>
  page.locator(".prayer > p[role=status][aria-live=polite]").textContent();

/** A request's row in the moderation table (one row per request). */
const queueRow = (pastor: Page, body: string): Locator => pastor.getByRole("row").filter({ hasText: body });

/** The name the wall shows for a queue row ("Anonymous" when hidden), in its "From" cell. */
const shownName = (item: Locator) => item.locator(".prayer-row__name").textContent();

/** The pastor's queue row for a request, on the "To review" tab. */
async function findInQueue(pastor: Page, body: string): Promise<Locator> {
  await pastor.goto("/admin/prayer");
  await expect
    .poll(() => pastor.getByRole("heading", { level: 1, name: "Prayer requests" }).isVisible(), SLOW)
    .toBe(true);
  expect(await pastor.getByRole("button", { name: "To review" }).getAttribute("aria-pressed")).toBe("true");
  const item = queueRow(pastor, body);
  await expect.poll(() => item.isVisible(), SLOW).toBe(true);
  return item;
}

async function approve(pastor: Page, item: Locator): Promise<void> {
  await item.getByRole("button", { name: "Approve" }).click();
  await expect
    .poll(() => pastor.getByRole("status").filter({ hasText: "Approved." }).isVisible(), SLOW)
    .toBe(true);
  await expect.poll(() => item.count(), SLOW).toBe(0);
}

const bell = (page: Page) => page.getByRole("button", { name: /^Notifications/ });

describe("the prayer wall in real browsers", () => {
  it("a visitor asks → the pastor approves → it appears live on a member's open wall → the member prays → the count moves live for the visitor, who gets the approval by email", async () => {
    const name = `Lydia ${randomUUID().slice(0, 4)}`;
    const email = uniqueEmail("lydia");
    const body = uniqueBody(
      "Please pray for my sister's new job in Thyatira, that she finds good friends there",
    );

    // 1. A member already has the wall open (and keeps it open: no reload from here on).
    const member = await open();
    await signIn(member.page, MEMBER, DEMO_PASSWORD);
    await openWall(member.page);
    expect(await card(member.page, body).count()).toBe(0);
    await accessible(member.page);
    await markDocument(member.page);

    // 2. A visitor asks for prayer. Too short first: the error is shown and nothing typed is lost.
    const visitor = await open();
    await openWall(visitor.page);
    await accessible(visitor.page);
    const form = visitor.page.getByRole("form", { name: "Ask for prayer" });
    await form.getByLabel("Your request").fill("Pray");
    await form.getByLabel("Your name").fill(name);
    await form.getByLabel("Email").fill(email);
    await form.getByRole("button", { name: "Send request" }).click();
    await expect
      .poll(() => form.getByText("Please correct the highlighted fields.").isVisible(), SLOW)
      .toBe(true);
    expect(await form.getByText("Write at least 10 characters.").isVisible()).toBe(true);
    expect(await form.getByLabel("Your request").getAttribute("aria-invalid")).toBe("true");
    expect(await form.getByLabel("Your request").inputValue()).toBe("Pray");
    expect(await form.getByLabel("Your name").inputValue()).toBe(name);
    expect(await form.getByLabel("Email").inputValue()).toBe(email);
    await accessible(visitor.page);

    await form.getByLabel("Your request").fill(body);
    await form.getByRole("button", { name: "Send request" }).click();
    const thanks = visitor.page.getByRole("heading", { level: 2, name: "Thank you" });
    await expect.poll(() => thanks.isVisible(), SLOW).toBe(true);
    expect(
      await visitor.page
        .getByText("Thank you — a moderator will review it before it appears on the wall.")
        .isVisible(),
    ).toBe(true);
    // Focus moves to the thank-you so a screen reader announces it.
    await expect
      .poll(() => visitor.page.evaluate(() => document.activeElement?.textContent), SLOW)
      .toBe("Thank you");
    // Waiting for review: on nobody's wall yet.
    expect(await card(visitor.page, body).count()).toBe(0);
    await accessible(visitor.page);
    await markDocument(visitor.page);

    // 3. The pastor finds it in the moderation queue, with who asked, and approves it.
    const pastor = await open();
    await signIn(pastor.page, PASTOR, DEMO_PASSWORD);
    const item = await findInQueue(pastor.page, body);
    expect(await shownName(item)).toBe(name);
    expect(await item.getByRole("link", { name: email }).getAttribute("href")).toBe(`mailto:${email}`);
    await accessible(pastor.page);
    await approve(pastor.page, item);
    await accessible(pastor.page);

    // 4. It appears on the member's open wall, and the polite live region says so.
    const onMemberWall = card(member.page, body);
    await expect.poll(() => onMemberWall.isVisible(), SLOW).toBe(true);
    expect(await onMemberWall.getByRole("heading", { name }).isVisible()).toBe(true);
    expect(await onMemberWall.getByText("Be the first to pray").isVisible()).toBe(true);
    await expect.poll(() => wallAnnouncement(member.page), SLOW).toBe("New prayer request");
    expect(await isSameDocument(member.page)).toBe(true);
    await accessible(member.page);

    // The visitor's wall got it the same way (public, approved).
    const onVisitorWall = card(visitor.page, body);
    await expect.poll(() => onVisitorWall.isVisible(), SLOW).toBe(true);
    expect(await onVisitorWall.getByText("Be the first to pray").isVisible()).toBe(true);

    // 5. The member prays; the count moves in their page and, live, in the visitor's.
    await onMemberWall.getByRole("button", { name: "I prayed" }).click();
    await expect.poll(() => onMemberWall.getByText("1 person prayed").isVisible(), SLOW).toBe(true);
    await expect
      .poll(() => onMemberWall.getByRole("button", { name: "You prayed today" }).isVisible(), SLOW)
      .toBe(true);
    await expect
      .poll(() => wallAnnouncement(member.page), SLOW)
      .toBe("Thank you for praying. 1 person prayed");
    await accessible(member.page);

    await expect.poll(() => onVisitorWall.getByText("1 person prayed").isVisible(), SLOW).toBe(true);
    // The visitor has not prayed: their button still offers it.
    expect(await onVisitorWall.getByRole("button", { name: "I prayed" }).isVisible()).toBe(true);
    expect(await isSameDocument(visitor.page)).toBe(true);
    expect(await isSameDocument(member.page)).toBe(true);
    await accessible(visitor.page);

    // 6. The visitor (no account) is told by email, with a link to the request on the wall.
    const mail = await waitForMail(catcherUrl(), email, /^Your prayer request at .+ was approved$/);
    expect(mail.to).toEqual([email]);
    expect(mail.text).toContain("now on the prayer wall");
    expect(mail.text).toContain(body);
    expect(mail.html).toMatch(/href="[^"]*\/prayer\/[a-z0-9]{15}"/);

    expect(visitor.errors).toEqual([]);
    expect(member.errors).toEqual([]);
    expect(pastor.errors).toEqual([]);
    await pastor.context.close();
    await visitor.context.close();
    await member.context.close();
  });

  it("a member's request: approved, someone prays → the bell's unread count moves live, the menu lists both, and Mark all read clears it", async () => {
    const body = uniqueBody(
      "Please pray for our church's food pantry as winter comes and more families visit",
    );

    const requester = await open();
    await signIn(requester.page, MEMBER, DEMO_PASSWORD);
    await openWall(requester.page);
    const button = bell(requester.page);
    await expect.poll(() => button.isVisible(), SLOW).toBe(true);
    await accessible(requester.page);
    // Start from nothing unread (the demo church is shared with the other tests).
    if ((await button.getAttribute("aria-label")) !== "Notifications") {
      await button.click();
      await requester.page.getByRole("button", { name: "Mark all read" }).click();
      await expect.poll(() => button.getAttribute("aria-label"), SLOW).toBe("Notifications");
      await button.click();
    }
    expect(await button.getAttribute("aria-expanded")).toBe("false");

    // 1. The member asks (signed in: no name or email fields, their account is the requester).
    const form = requester.page.getByRole("form", { name: "Ask for prayer" });
    expect(await form.getByLabel("Your name").count()).toBe(0);
    expect(await form.getByLabel("Email").count()).toBe(0);
    await form.getByLabel("Your request").fill(body);
    await form.getByRole("button", { name: "Send request" }).click();
    await expect
      .poll(() => requester.page.getByRole("heading", { level: 2, name: "Thank you" }).isVisible(), SLOW)
      .toBe(true);
    const mine = requester.page.getByRole("region", { name: "My requests" });
    await expect
      .poll(
        () =>
          mine.getByRole("listitem").filter({ hasText: body }).getByText("Waiting for review").isVisible(),
        SLOW,
      )
      .toBe(true);
    await accessible(requester.page);
    await markDocument(requester.page);

    // 2. The pastor approves it: the member's bell shows one unread, live.
    const pastor = await open();
    await signIn(pastor.page, PASTOR, DEMO_PASSWORD);
    const item = await findInQueue(pastor.page, body);
    expect(await shownName(item)).toBe("Mark Member");
    await accessible(pastor.page);
    await approve(pastor.page, item);

    await expect.poll(() => button.getAttribute("aria-label"), SLOW).toBe("Notifications, 1 unread");
    expect(await button.getByText("1", { exact: true }).isVisible()).toBe(true);
    await expect
      .poll(
        () =>
          requester.page
            .getByRole("status")
            .filter({ hasText: "New notification: Your prayer request was approved" })
            .count(),
        SLOW,
      )
      .toBe(1);
    // Their own request appears on their wall too, and its state in "My requests" follows.
    await expect.poll(() => card(requester.page, body).isVisible(), SLOW).toBe(true);
    await accessible(requester.page);
    // Approval is important news: it is mailed too.
    const approvalMail = await waitForMail(catcherUrl(), MEMBER, /^Your prayer request at .+ was approved$/);
    expect(approvalMail.text).toContain(body);

    // 3. Another signed-in user prays for it: a second unread notification, live.
    const other = await open();
    await signIn(other.page, EDITOR, DEMO_PASSWORD);
    await openWall(other.page);
    const theirCard = card(other.page, body);
    await expect.poll(() => theirCard.isVisible(), SLOW).toBe(true);
    await accessible(other.page);
    await theirCard.getByRole("button", { name: "I prayed" }).click();
    await expect.poll(() => theirCard.getByText("1 person prayed").isVisible(), SLOW).toBe(true);

    await expect.poll(() => button.getAttribute("aria-label"), SLOW).toBe("Notifications, 2 unread");
    await expect
      .poll(() => card(requester.page, body).getByText("1 person prayed").isVisible(), SLOW)
      .toBe(true);
    expect(await isSameDocument(requester.page)).toBe(true);

    // 4. The menu lists both, newest first, as unread.
    await button.click();
    const menu = requester.page.getByRole("region", { name: "Notifications" });
    await expect.poll(() => menu.isVisible(), SLOW).toBe(true);
    expect(await button.getAttribute("aria-expanded")).toBe("true");
    const entries = menu.getByRole("listitem");
    await expect.poll(() => entries.count(), SLOW).toBeGreaterThanOrEqual(2);
    expect(await entries.nth(0).textContent()).toContain("Unread: Someone prayed for your request");
    expect(await entries.nth(1).textContent()).toContain("Unread: Your prayer request was approved");
    // Both point at the request on the wall.
    expect(await entries.nth(0).getByRole("link").getAttribute("href")).toMatch(/^\/prayer\/[a-z0-9]{15}$/);
    expect(await entries.nth(1).getByRole("link").getAttribute("href")).toBe(
      await entries.nth(0).getByRole("link").getAttribute("href"),
    );
    await accessible(requester.page);

    // 5. Mark all read: the badge goes, the button's name says nothing is unread.
    await menu.getByRole("button", { name: "Mark all read" }).click();
    await expect.poll(() => button.getAttribute("aria-label"), SLOW).toBe("Notifications");
    expect(await requester.page.locator(".bell__badge").count()).toBe(0);
    expect(await menu.getByRole("button", { name: "Mark all read" }).count()).toBe(0);
    expect(await entries.nth(0).textContent()).not.toContain("Unread:");
    // The focused button is gone: focus stays in the menu (on its title), and the change is spoken.
    await expect
      .poll(
        () =>
          menu
            .getByRole("heading", { name: "Notifications" })
            .evaluate((element) => element === document.activeElement),
        SLOW,
      )
      .toBe(true);
    await expect
      .poll(() => requester.page.getByRole("status").filter({ hasText: "All read." }).count(), SLOW)
      .toBe(1);
    await accessible(requester.page);
    // Escape closes the menu and puts focus back on the bell.
    await requester.page.keyboard.press("Escape");
    await expect.poll(() => menu.isVisible(), SLOW).toBe(false);
    expect(await button.evaluate((element) => element === document.activeElement)).toBe(true);

    // Read stays read after a reload (the server's state, not just the cache).
    await requester.page.reload();
    await expect.poll(() => bell(requester.page).isVisible(), SLOW).toBe(true);
    await expect.poll(() => bell(requester.page).getAttribute("aria-label"), SLOW).toBe("Notifications");

    expect(requester.errors).toEqual([]);
    expect(pastor.errors).toEqual([]);
    expect(other.errors).toEqual([]);
    await other.context.close();
    await pastor.context.close();
    await requester.context.close();
  });

  it("an anonymous request: another member's wall and everything their browser received never name the requester; the pastor does", async () => {
    // Erin Editor asks: the demo wall never shows her name (her seeded request is anonymous too), so
    // finding it anywhere in the member's browser would be this request leaking it.
    const requesterName = "Erin Editor";
    const body = uniqueBody("Please pray for me as I face a hard conversation with my family this week");

    // The member's wall is open before the request exists, recording everything it receives.
    const member = await open();
    const graphql = await recordGraphqlResponses(member.page);
    const streams = await recordEventStreams(member.page);
    await signIn(member.page, MEMBER, DEMO_PASSWORD);
    await openWall(member.page);
    await accessible(member.page);
    await markDocument(member.page);

    // 1. The editor asks anonymously; the form says who will still know.
    const requester = await open();
    await signIn(requester.page, EDITOR, DEMO_PASSWORD);
    await openWall(requester.page);
    const form = requester.page.getByRole("form", { name: "Ask for prayer" });
    await form.getByLabel("Your request").fill(body);
    await form.getByLabel("Don't show my name").check();
    expect(
      await form
        .getByText(`Shown as “Anonymous” instead of ${requesterName}. Only the pastors know who asked.`)
        .isVisible(),
    ).toBe(true);
    await accessible(requester.page);
    await form.getByRole("button", { name: "Send request" }).click();
    await expect
      .poll(() => requester.page.getByRole("heading", { level: 2, name: "Thank you" }).isVisible(), SLOW)
      .toBe(true);
    await accessible(requester.page);

    // 2. The pastor sees who asked (pastoral staff may), marked anonymous, and approves it.
    const pastor = await open();
    await signIn(pastor.page, PASTOR, DEMO_PASSWORD);
    const item = await findInQueue(pastor.page, body);
    expect(await shownName(item)).toBe("Anonymous");
    const requesterLine = item.getByText("Asked by");
    expect(await requesterLine.isVisible()).toBe(true);
    const line = await item.locator(".prayer-row__requester").textContent();
    expect(line).toContain(requesterName);
    expect(line).toContain(EDITOR);
    expect(await item.getByText("Anonymous", { exact: true }).count()).toBeGreaterThan(1);
    await accessible(pastor.page);
    await approve(pastor.page, item);

    // 3. It arrives live on the member's wall as "Anonymous"; the member prays for it.
    const onWall = card(member.page, body);
    await expect.poll(() => onWall.isVisible(), SLOW).toBe(true);
    expect(await onWall.getByRole("heading", { name: "Anonymous" }).isVisible()).toBe(true);
    await expect.poll(() => wallAnnouncement(member.page), SLOW).toBe("New prayer request");
    await onWall.getByRole("button", { name: "I prayed" }).click();
    await expect.poll(() => onWall.getByText("1 person prayed").isVisible(), SLOW).toBe(true);
    expect(await isSameDocument(member.page)).toBe(true);
    await accessible(member.page);
    // The page's record of live events ends with the document: keep it before navigating.
    const events = await streams.texts();

    // A fresh load of the wall (query, not live event) and the request's own page say the same.
    await openWall(member.page);
    await expect.poll(() => card(member.page, body).isVisible(), SLOW).toBe(true);
    await accessible(member.page);
    await card(member.page, body).getByRole("heading", { name: "Anonymous" }).waitFor();
    const requestLink = requester.page
      .getByRole("region", { name: "My requests" })
      .getByRole("link", { name: body });
    await expect.poll(() => requestLink.isVisible(), SLOW).toBe(true);
    const requestId = (await requestLink.getAttribute("href"))?.replace(/^\/prayer\//, "");
    expect(requestId).toMatch(/^[a-z0-9]{15}$/);
    await member.page.goto(`/prayer/${requestId}`);
    await expect.poll(() => card(member.page, body).isVisible(), SLOW).toBe(true);
    expect(await card(member.page, body).getByRole("heading", { name: "Anonymous" }).isVisible()).toBe(true);
    await accessible(member.page);

    // 4. Nothing the member's browser received named the requester: not the page, not a query or
    //    mutation answer, not a live event. The request itself is among what was read (not vacuous).
    const page = (await member.page.content()).toLowerCase();
    expect(page).not.toContain(requesterName.toLowerCase());
    expect(page).not.toContain(EDITOR);
    const responses = await graphql.texts();
    events.push(...(await streams.texts()));
    expect(responses.some((text) => text.includes(body))).toBe(true);
    expect(events.some((text) => text.includes(body))).toBe(true);
    for (const text of [...responses, ...events]) {
      expect(text.toLowerCase()).not.toContain(requesterName.toLowerCase());
      expect(text.toLowerCase()).not.toContain(EDITOR);
    }

    expect(member.errors).toEqual([]);
    expect(requester.errors).toEqual([]);
    expect(pastor.errors).toEqual([]);
    await pastor.context.close();
    await requester.context.close();
    await member.context.close();
  });

  it("the pastor chooses two pending requests by their checkboxes and approves both at once: the status line counts them, they leave the queue for the Approved tab, and that tab reads on a phone", async () => {
    const bodies = [
      uniqueBody("Please pray for the new families joining our church this autumn, that they feel at home"),
      uniqueBody("Please pray for our neighbours who lost their home in the storm last night"),
    ];

    // 1. A member asks twice; both wait for review.
    const requester = await open();
    await signIn(requester.page, MEMBER, DEMO_PASSWORD);
    await openWall(requester.page);
    const form = requester.page.getByRole("form", { name: "Ask for prayer" });
    for (const body of bodies) {
      await form.getByLabel("Your request").fill(body);
      await form.getByRole("button", { name: "Send request" }).click();
      await expect
        .poll(() => requester.page.getByRole("heading", { level: 2, name: "Thank you" }).isVisible(), SLOW)
        .toBe(true);
      await requester.page.getByRole("button", { name: "Ask for something else" }).click();
    }

    // 2. The pastor has both in the queue and chooses them with their checkboxes (named after the
    //    request, so a screen reader tells the rows apart); the bulk bar counts them.
    const pastor = await open();
    await signIn(pastor.page, PASTOR, DEMO_PASSWORD);
    await findInQueue(pastor.page, bodies[0]!);
    const rows = bodies.map((body) => queueRow(pastor.page, body));
    await expect.poll(() => rows[1]!.isVisible(), SLOW).toBe(true);
    for (const row of rows) {
      await row.getByRole("checkbox", { name: /^Choose Mark Member: Please pray for / }).check();
    }
    const bar = pastor.page.getByRole("region", { name: "Act on the chosen rows" });
    expect(await bar.getByText("2 chosen").isVisible()).toBe(true);
    await accessible(pastor.page);

    // 3. "Approve" in the bar approves both: the status line says how many, both rows leave the
    //    queue, the bar goes with the choice, and focus is not lost (the next request, or the heading).
    await bar.getByRole("button", { name: "Approve" }).click();
    await expect
      .poll(
        () => pastor.page.getByRole("status").filter({ hasText: "2 requests approved." }).isVisible(),
        SLOW,
      )
      .toBe(true);
    for (const row of rows) await expect.poll(() => row.count(), SLOW).toBe(0);
    expect(await bar.count()).toBe(0);
    await expect
      .poll(
        () => pastor.page.evaluate(() => document.activeElement?.matches(".prayer-row__request, h1")),
        SLOW,
      )
      .toBe(true);
    await accessible(pastor.page);

    // 4. Both are on the Approved tab (its own address), with "Take down" instead of "Approve".
    await pastor.page.getByRole("button", { name: "Approved", exact: true }).click();
    await expect.poll(() => new URL(pastor.page.url()).search, SLOW).toBe("?status=approved");
    for (const row of rows) {
      await expect.poll(() => row.isVisible(), SLOW).toBe(true);
      expect(await row.getByRole("button", { name: "Take down" }).isVisible()).toBe(true);
      expect(await row.getByRole("button", { name: "Approve" }).count()).toBe(0);
    }
    await accessible(pastor.page);

    // 5. On a phone the table's cells stack, each under its column's name, and nothing scrolls sideways.
    const phone = await open("phone");
    await signIn(phone.page, PASTOR, DEMO_PASSWORD);
    await phone.page.goto("/admin/prayer?status=approved");
    const onPhone = queueRow(phone.page, bodies[1]!);
    await expect.poll(() => onPhone.isVisible(), SLOW).toBe(true);
    expect(await onPhone.locator("td[data-label=Request]").textContent()).toContain(bodies[1]);
    expect(await onPhone.getByRole("button", { name: "Take down" }).isVisible()).toBe(true);
    expect(await phone.page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await accessible(phone.page);

    expect(requester.errors).toEqual([]);
    expect(pastor.errors).toEqual([]);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
    await pastor.context.close();
    await requester.context.close();
  });

  it("a member's wall loses its live stream while the pastor approves a request → once it may connect again it reconnects, refetches, and the request appears without a reload", async () => {
    const body = uniqueBody(
      "Please pray for our youth retreat in the mountains next month, for safe roads and open hearts",
    );

    // The member's wall is open and live, recording its event streams (to see the drop and what they carried).
    const member = await open();
    const streams = await recordEventStreams(member.page);
    await signIn(member.page, MEMBER, DEMO_PASSWORD);
    await openWall(member.page);
    await expect.poll(() => streams.openCount(), SLOW).toBe(1);
    await accessible(member.page);
    await markDocument(member.page);

    // A request waits for review, and the pastor has it in the queue, ready to approve (the outage
    // below stays short: graphql-sse waits longer between each failed retry).
    const requester = await open();
    await signIn(requester.page, EDITOR, DEMO_PASSWORD);
    await openWall(requester.page);
    const form = requester.page.getByRole("form", { name: "Ask for prayer" });
    await form.getByLabel("Your request").fill(body);
    await form.getByRole("button", { name: "Send request" }).click();
    await expect
      .poll(() => requester.page.getByRole("heading", { level: 2, name: "Thank you" }).isVisible(), SLOW)
      .toBe(true);
    const pastor = await open();
    await signIn(pastor.page, PASTOR, DEMO_PASSWORD);
    const item = await findInQueue(pastor.page, body);

    // 1. The member's stream is lost: reconnections are refused, and the open stream breaks the way a
    //    lost network breaks it (Chromium's offline emulation leaves an open stream alone) …
    const refuse = (url: URL) => url.pathname === "/graphql/stream";
    await member.page.route(refuse, (route) => route.abort("internetdisconnected"));
    await streams.drop();
    await expect.poll(() => streams.openCount(), SLOW).toBe(0);

    // 2. … while the pastor approves: the live event for it is sent while the member cannot receive it.
    await approve(pastor.page, item);
    await accessible(pastor.page);
    expect(await card(member.page, body).count()).toBe(0);

    // 3. The stream may connect again: it reconnects and the wall is refetched, so the request appears
    //    in the same document. The first retries back off for seconds, hence the longer wait.
    await member.page.unroute(refuse);
    const onWall = card(member.page, body);
    await expect.poll(() => onWall.isVisible(), { timeout: 30_000 }).toBe(true);
    expect(await isSameDocument(member.page)).toBe(true);
    // One event stream per tab again (graphql-sse in non-lazy single connection mode: the lazy mode
    // left one stream per subscription open after a drop).
    await expect.poll(() => streams.openCount(), SLOW).toBe(1);
    // It came through the refetch: no event stream ever carried it.
    expect((await streams.texts()).some((text) => text.includes(body))).toBe(false);
    await accessible(member.page);

    expect(member.errors).toEqual([]);
    expect(requester.errors).toEqual([]);
    expect(pastor.errors).toEqual([]);
    await pastor.context.close();
    await requester.context.close();
    await member.context.close();
  });
});
