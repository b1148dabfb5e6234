import { mkdirSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { recordEventStreams } from "./support/event-streams.ts";
import {
  catcherUrl,
  DEMO_PASSWORD,
  expectAccessible,
  linkFrom,
  newContext,
  signIn,
  waitForMail,
  watchErrors,
} from "./support/app.ts";

// Groups in two real browsers, on the demo church: Mark Member asks to join the Tuesday Bible Study
// → Paul Pastor (its leader) is mailed and approves → Mark is mailed and posts in the chat (a double
// click sends once) → the message appears live for Paul → Paul deletes it → it disappears live for
// Mark. Then the network is cut while Mark sends: the message is marked "Not sent." and is delivered
// once when the browser is back online; and Paul's stream is cut while Mark writes 40 messages: back
// online, Paul's chat shows all 40 in order. axe-core on every page; screenshots at 1280 and 390 px
// when SHOTS_DIR is set.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const SLOW = { timeout: 20_000 };
const SHOTS = process.env.SHOTS_DIR;
/** The page has its data (the group pages mark their root once the query has answered). */
const ready = (page: Page, selector = '[data-ready="true"]') =>
  page.locator(selector).first().waitFor({ timeout: 20_000 });
async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/groups-${name}.png`, fullPage: true });
}
const chatMessage = (page: Page, text: string) => page.locator(".chat-message").filter({ hasText: text });

describe("groups", () => {
  it("request (mailed) → approve (mailed) → chat live for the leader → the leader deletes it live for the member; a dropped connection resends once; a reader back from a drop catches up on 40 messages", async () => {
    const memberContext = await newContext(browser);
    const member = await memberContext.newPage();
    const memberErrors = watchErrors(member);
    await signIn(member, "member@grace.example", DEMO_PASSWORD);
    await member.goto("/groups");
    await ready(member, ".group-grid");
    await expect
      .poll(() => member.getByRole("link", { name: "Tuesday Night Bible Study" }).isVisible(), SLOW)
      .toBe(true);
    // Hidden groups are never in the finder, even for their members.
    expect(await member.getByRole("link", { name: "Elders and Deacons" }).count()).toBe(0);
    await expectAccessible(member);
    await shot(member, "finder-1280");
    await member.getByRole("link", { name: "Tuesday Night Bible Study" }).click();
    await ready(member);
    await member.getByLabel("A message for the leaders").fill("Could I join on Tuesdays?");
    await member.getByRole("button", { name: "Ask to join" }).click();
    await expect
      .poll(() => member.getByText("Your request was sent to the leaders.").isVisible(), SLOW)
      .toBe(true);

    // Paul, a leader of the group, is mailed the request; his mail's button opens the group.
    const requestMail = await waitForMail(
      catcherUrl(),
      "pastor@grace.example",
      /^Mark Member asks to join Tuesday Night Bible Study$/,
    );
    expect(requestMail.text).toContain("Could I join on Tuesdays?");
    const leaderContext = await newContext(browser);
    const leader = await leaderContext.newPage();
    const leaderErrors = watchErrors(leader);
    const leaderStreams = await recordEventStreams(leader);
    await signIn(leader, "pastor@grace.example", DEMO_PASSWORD);
    await leader.goto(new URL(linkFrom(requestMail, "/groups/tuesday-bible-study")).pathname);
    await ready(leader);
    const request = leader.locator(".group-request").filter({ hasText: "Mark Member" });
    await expect.poll(() => request.isVisible(), SLOW).toBe(true);
    await expect.poll(() => request.getByText("Could I join on Tuesdays?").isVisible(), SLOW).toBe(true);
    await expectAccessible(leader);
    await request.getByRole("button", { name: "Approve" }).click();
    await expect
      .poll(() => leader.getByText("Approved: they are now a member.").isVisible(), SLOW)
      .toBe(true);
    await waitForMail(catcherUrl(), "member@grace.example", /^Welcome to Tuesday Night Bible Study:/);
    await ready(leader, '.chat-messages[data-ready="true"]');

    await member.reload();
    await ready(member, '.chat-messages[data-ready="true"]');
    expect(await member.getByText("You are a member of this group.").isVisible()).toBe(true);
    // Now a member, Mark reads the group's prayer requests (the seed's, asked by Chidi).
    await expect.poll(() => member.getByText(/Please pray for my brother/).isVisible(), SLOW).toBe(true);
    await expectAccessible(member);
    await shot(member, "group-1280");
    const text = `Hello from Mark ${Date.now()}`;
    await member.getByLabel("Message", { exact: true }).fill(text);
    await member.getByRole("button", { name: "Send", exact: true }).dblclick();
    await expect.poll(() => chatMessage(leader, text).count(), SLOW).toBe(1);
    await expect.poll(() => chatMessage(member, text).count(), SLOW).toBe(1);
    await shot(leader, "chat-1280");

    // Enter sends, and leaves the box empty (no stray line break).
    const byEnter = `Sent with Enter ${Date.now()}`;
    const box = member.getByLabel("Message", { exact: true });
    await box.fill(byEnter);
    await box.press("Enter");
    await expect.poll(() => chatMessage(leader, byEnter).count(), SLOW).toBe(1);
    expect(await box.inputValue()).toBe("");

    await chatMessage(leader, text).getByRole("button", { name: "Delete" }).click();
    await expect.poll(() => chatMessage(member, text).count(), SLOW).toBe(0);
    await expect.poll(() => chatMessage(leader, text).count(), SLOW).toBe(0);

    // The network drops while Mark sends: marked failed, then delivered once when back online.
    const offlineText = `Sent while offline ${Date.now()}`;
    await memberContext.setOffline(true);
    await member.getByLabel("Message", { exact: true }).fill(offlineText);
    await member.getByRole("button", { name: "Send", exact: true }).click();
    await expect
      .poll(() => chatMessage(member, offlineText).getByText("Not sent.").isVisible(), SLOW)
      .toBe(true);
    await memberContext.setOffline(false);
    await expect.poll(() => chatMessage(leader, offlineText).count(), SLOW).toBe(1);
    await expect.poll(() => chatMessage(member, offlineText).getByText("Not sent.").count(), SLOW).toBe(0);
    await expect.poll(() => chatMessage(member, offlineText).count(), SLOW).toBe(1);

    // Paul's connection drops while Mark writes 40 messages (more than a page): back online, the chat
    // catches up and shows every one of them, in order, with nothing missing in between.
    const refuse = (url: URL) => url.pathname === "/graphql/stream";
    await leader.route(refuse, (route) => route.abort("internetdisconnected"));
    await leaderContext.setOffline(true);
    await leaderStreams.drop();
    await expect.poll(() => leaderStreams.openCount(), SLOW).toBe(0);
    const burst = `Said while Paul was away ${Date.now()}`;
    const posted = await member.evaluate(async (burst) => {
      const call = async (query: string, variables: Record<string, unknown>) => {
        const response = await fetch("/graphql", {
          method: "POST",
          headers: { "content-type": "application/json", "x-graphql-yoga-csrf": "1" },
          body: JSON.stringify({ query, variables }),
        });
        return (await response.json()) as { data?: Record<string, { id: string } | null> };
      };
      const group = await call("query($slug: String!) { group(slug: $slug) { id } }", {
        slug: "tuesday-bible-study",
      });
      const ids: string[] = [];
      for (let i = 1; i <= 40; i++) {
        const result = await call(
          "mutation($g: ID!, $b: String!, $k: String!) { postGroupMessage(groupId: $g, body: $b, clientKey: $k) { id } }",
          { g: group.data?.group?.id, b: `${burst} #${i}`, k: crypto.randomUUID() },
        );
        if (result.data?.postGroupMessage) ids.push(result.data.postGroupMessage.id);
      }
      return ids.length;
    }, burst);
    expect(posted).toBe(40);
    expect(await leader.locator(".chat-message").filter({ hasText: burst }).count()).toBe(0);
    await leader.unroute(refuse);
    await leaderContext.setOffline(false);
    const caughtUp = () =>
      leader
        .locator(".chat-message")
        .filter({ hasText: burst })
        .evaluateAll((items) => items.map((item) => /#(\d+)/.exec(item.textContent ?? "")?.[1]));
    await expect.poll(caughtUp, { timeout: 30_000 }).toHaveLength(40);
    expect(await caughtUp()).toEqual(Array.from({ length: 40 }, (_, i) => String(i + 1)));
    await expect.poll(() => leader.locator(".chat-messages__catch-up").count(), SLOW).toBe(0);

    // The leader changes the schedule; the member's page shows it after a reload.
    await leader.getByText("Edit the description and schedule").click();
    await leader.getByLabel("When", { exact: true }).fill("Tuesdays at 7:30 PM");
    await leader.getByRole("button", { name: "Save", exact: true }).click();
    await expect.poll(() => leader.getByText("Saved.").isVisible(), SLOW).toBe(true);
    await member.reload();
    await ready(member);
    await expect
      .poll(() => member.locator(".group-facts").textContent(), SLOW)
      .toContain("Tuesdays at 7:30 PM");

    // The leader looks for someone to add: a current member is marked as such.
    await leader.getByText("Add a member", { exact: true }).click();
    await leader.getByLabel("Search the directory").fill("Okafor");
    await leader.getByRole("button", { name: "Find", exact: true }).click();
    const candidate = leader.locator(".group-request").filter({ hasText: "Chidi Okafor" });
    await expect.poll(() => candidate.getByText("Already a member").isVisible(), SLOW).toBe(true);

    // Mark asks the group to pray: moderated first, as on the wall.
    await member.getByText("Ask the group to pray", { exact: true }).click();
    await member.getByLabel("Your request").fill("Please pray for my job interview on Friday.");
    await member.getByRole("button", { name: "Share with the group" }).click();
    await expect
      .poll(() => member.getByText(/Your request appears here once a moderator/).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(member);

    // "My groups" on /me links to the group.
    await member.goto("/me");
    await expect
      .poll(() => member.getByRole("link", { name: "Tuesday Night Bible Study" }).isVisible(), SLOW)
      .toBe(true);

    expect(memberErrors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|network/i.test(e))).toEqual(
      [],
    );
    expect(leaderErrors.filter((e) => !/ERR_INTERNET_DISCONNECTED|Failed to fetch|network/i.test(e))).toEqual(
      [],
    );
    await memberContext.close();
    await leaderContext.close();
  });

  it("on a phone: the finder, a group page and its chat", async () => {
    const context = await newContext(browser, "phone");
    const page = await context.newPage();
    await signIn(page, "pastor@grace.example", DEMO_PASSWORD);
    await page.goto("/groups?type=SMALL_GROUP");
    await ready(page, ".group-grid");
    expect(await page.getByRole("link", { name: "Newcomers Class" }).count()).toBe(0);
    await shot(page, "finder-390");
    await page.goto("/groups/tuesday-bible-study");
    await ready(page, '.chat-messages[data-ready="true"]');
    await expectAccessible(page);
    await shot(page, "group-390");
    await page.locator("#chat").scrollIntoViewIfNeeded();
    if (SHOTS) await page.locator("#chat").screenshot({ path: `${SHOTS}/groups-chat-390.png` });
    await context.close();
  });
});
