import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { DEMO_PASSWORD, expectAccessible, graphql, newContext, signIn, watchErrors } from "./support/app.ts";

// Child check-in (issue 28) in a real browser, on the demo church. A session of its own, open now,
// with two rooms of its own. Erin Editor serves in the little ones' room and watches its list; at a
// self station (Paul Pastor signed in) the García family (phone ending 0109) checks its two children
// in by the phone's digits: the pickup code, a child label per child and a parent tag at 62 mm are
// produced (their text and size checked); Erin sees Valentina arrive, asthma note included, without
// reloading; checkout with a wrong code is refused and with the right one succeeds, and Erin sees it.
// Then a first-time family is added at a staffed station and checked in. axe-core on every screen.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const PASTOR = "pastor@grace.example";
const EDITOR = "editor@grace.example";
/** Polls wait for the app (page loads, GraphQL, live updates) rather than vitest's 1 s default. */
const SLOW = { timeout: 15_000 };
/** CSS pixels per millimetre (96 per inch). */
const PX_PER_MM = 96 / 25.4;

/** Two rooms and a session open now, made by an operator through the API the staff screens use. */
async function setUp(page: Page) {
  const run = randomUUID().slice(0, 6);
  const room = async (name: string, minAgeMonths: number, maxAgeMonths: number) =>
    (
      await graphql<{ createCheckinRoom: { id: string } }>(
        page,
        `
          mutation ($input: CheckinRoomInput!) {
            createCheckinRoom(input: $input) {
              id
            }
          }
        `,
        { input: { name, minAgeMonths, maxAgeMonths, capacity: 10 } },
      )
    ).createCheckinRoom.id;
  const little = await room(`Little ones ${run}`, 24, 71);
  const big = await room(`Big kids ${run}`, 72, 131);
  const session = (
    await graphql<{ createCheckinSession: { id: string } }>(
      page,
      `
        mutation ($input: CheckinSessionInput!) {
          createCheckinSession(input: $input) {
            id
          }
        }
      `,
      { input: { name: `E2E ${run}`, startsAt: new Date().toISOString(), roomIds: [little, big] } },
    )
  ).createCheckinSession.id;
  return { run, little, big, session };
}

async function chooseSession(page: Page, name: string) {
  await page.goto("/checkin");
  const select = page.getByLabel("Session");
  await expect.poll(() => select.isVisible(), SLOW).toBe(true);
  const value = await select.locator("option", { hasText: `${name} ·` }).getAttribute("value");
  await select.selectOption(value!);
}

describe("child check-in", () => {
  it("a returning family checks in by phone digits at a self station; labels; the room sees them live; checkout needs the code", async () => {
    const staff = await newContext(browser);
    const station = await staff.newPage();
    const stationErrors = watchErrors(station);
    await signIn(station, PASTOR, DEMO_PASSWORD);
    const { run, little, session } = await setUp(station);

    // Erin serves in the little ones' room and keeps its list open.
    const erinContext = await newContext(browser, "phone");
    const room = await erinContext.newPage();
    const roomErrors = watchErrors(room);
    await signIn(room, EDITOR, DEMO_PASSWORD);
    await room.goto(`/checkin/rooms/${session}/${little}`);
    await room.getByRole("button", { name: "I'm serving in this room" }).click();
    await expect.poll(() => room.getByText(/No child is checked in yet/).isVisible(), SLOW).toBe(true);
    expect(await room.getByRole("heading", { level: 1 }).textContent()).toBe(
      `Little ones ${run} — E2E ${run}`,
    );
    await expectAccessible(room);

    // The station, set up once for families: self mode, 62 mm labels.
    await chooseSession(station, `E2E ${run}`);
    await station.getByText("Station settings").click();
    await station.getByLabel("Station mode").selectOption("self");
    await station.getByLabel("Label size").selectOption("62mm");
    await expectAccessible(station);
    await station.getByLabel(/Last 4 digits/).fill("0109");
    await station.getByRole("button", { name: "Find" }).click();
    const family = station.locator(".checkin-family").filter({ hasText: "García" });
    await expect.poll(() => family.isVisible(), SLOW).toBe(true);
    // Each child in the room that fits their age; a self station does not ask which.
    expect(await family.getByRole("checkbox", { name: /Mateo García/ }).isChecked()).toBe(true);
    expect(await family.getByRole("checkbox", { name: /Valentina García/ }).isChecked()).toBe(true);
    expect(await family.getByRole("combobox").count()).toBe(0);
    await expectAccessible(station);
    await family.getByRole("button", { name: "Check in 2 children" }).click();

    const codeText = station.getByTestId("pickup-code");
    await expect.poll(() => codeText.isVisible(), SLOW).toBe(true);
    const code = (await codeText.textContent())!.trim();
    expect(code).toMatch(/^[ACDEFHJKMNPRTUVWXY3479]{4}$/);
    // The labels: one per child (name, room, code, time) and the parent's tag (code and names), 62 × 40 mm.
    const childLabels = station.getByRole("article", { name: "Child label" });
    expect(await childLabels.count()).toBe(2);
    const valentina = childLabels.filter({ hasText: "Valentina García" });
    const labelText = await valentina.textContent();
    expect(labelText).toContain(`Little ones ${run}`);
    expect(labelText).toContain(code);
    const tag = station.getByRole("article", { name: "Pickup tag" });
    expect(await tag.textContent()).toMatch(
      new RegExp(`${code}.*Mateo García.*Valentina García|${code}.*Valentina García.*Mateo García`),
    );
    for (const label of [valentina, tag]) {
      const box = (await label.boundingBox())!;
      expect(Math.round(box.width / PX_PER_MM)).toBe(62);
      expect(Math.round(box.height / PX_PER_MM)).toBe(40);
    }
    // Printed, only the labels show, each on its own page of the label's size.
    await station.emulateMedia({ media: "print" });
    // (Hidden things leave the accessibility tree, so the heading is found by its place.)
    const doneHeading = station.locator(".checkin-done > h2");
    expect(await doneHeading.evaluate((h) => getComputedStyle(h).visibility)).toBe("hidden");
    expect(await valentina.evaluate((l) => getComputedStyle(l).visibility)).toBe("visible");
    await station.emulateMedia({ media: "screen" });
    await expectAccessible(station);

    // The room's list, live: Valentina arrives with her asthma note; Mateo went to the other room.
    const arrived = room.locator(".checkin-room__child").filter({ hasText: "Valentina García" });
    await expect.poll(() => arrived.isVisible(), SLOW).toBe(true);
    expect(await arrived.textContent()).toContain("Mild asthma");
    expect(await arrived.textContent()).toContain(code);
    expect(await room.getByText("Mateo García").count()).toBe(0);
    await expectAccessible(room);

    // Checkout at the station: a wrong code is refused, the right one lets both children go.
    await station.getByRole("button", { name: "Next family" }).click();
    await station.getByRole("tab", { name: "Check out" }).click();
    await station.getByLabel(/Last 4 digits/).fill("0109");
    await station.getByRole("button", { name: "Find" }).click();
    const leaving = station.locator(".checkin-family").filter({ hasText: "García" });
    await expect.poll(() => leaving.getByLabel("Code on the pickup tag").isVisible(), SLOW).toBe(true);
    const wrong = code === "AAAA" ? "CCCC" : "AAAA";
    await leaving.getByLabel("Code on the pickup tag").fill(wrong);
    await leaving.getByRole("button", { name: "Check out", exact: true }).click();
    await expect
      .poll(() => leaving.getByText("This code does not match the pickup tag.").isVisible(), SLOW)
      .toBe(true);
    // A self station offers no way around the code.
    expect(await leaving.getByLabel(/No tag\? Reason/).count()).toBe(0);
    await expectAccessible(station);
    await leaving.getByLabel("Code on the pickup tag").fill(code.toLowerCase());
    await leaving.getByRole("button", { name: "Check out", exact: true }).click();
    await expect
      .poll(() => leaving.getByText(/Valentina García is checked out\./).isVisible(), SLOW)
      .toBe(true);

    // The room sees her picked up.
    await expect.poll(() => arrived.isVisible(), SLOW).toBe(false);
    await expect
      .poll(() => room.getByRole("heading", { name: "Picked up (1)" }).isVisible(), SLOW)
      .toBe(true);

    expect(stationErrors).toEqual([]);
    expect(roomErrors).toEqual([]);
    await staff.close();
    await erinContext.close();
  });

  it("a first-time family is added at a staffed station in under a minute and checked in", async () => {
    const context = await newContext(browser, "phone");
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, PASTOR, DEMO_PASSWORD);
    const { run } = await setUp(page);
    await chooseSession(page, `E2E ${run}`);
    await page.getByText("Station settings").click();
    await page.getByLabel("Station mode").selectOption("staffed");
    await page.getByRole("button", { name: "New family" }).click();
    const form = page.locator(".checkin-family").filter({ hasText: "A new family" });
    await expect.poll(() => form.isVisible(), SLOW).toBe(true);
    // Nothing filled: the gateway's field errors.
    await form.getByRole("button", { name: "Add family" }).click();
    await expect
      .poll(() => form.getByLabel("Your first name").getAttribute("aria-invalid"), SLOW)
      .toBe("true");
    await expectAccessible(page);
    const last = `Newby${run}`;
    await form.getByLabel("Your first name").fill("Nadia");
    await form.getByLabel("Last name").fill(last);
    await form
      .getByLabel("Mobile phone")
      .fill(`(217) 555-${String(Math.floor(Math.random() * 1e4)).padStart(4, "0")}`);
    await form.getByLabel("First name", { exact: true }).fill("Noor");
    await form.getByLabel("Birth date").fill(`${new Date().getFullYear() - 4}-03-01`);
    await form.getByLabel("Allergies").fill("Tree nuts");
    await form.getByRole("button", { name: "Add family" }).click();

    const family = page.locator(".checkin-family").filter({ hasText: `${last} household` });
    await expect.poll(() => family.isVisible(), SLOW).toBe(true);
    expect(await family.textContent()).toContain("Allergy: Tree nuts");
    // A staffed station may change the room; the one that fits a four-year-old is chosen.
    expect(await family.getByLabel(`Room for Noor ${last}`).inputValue()).not.toBe("");
    await expectAccessible(page);
    await family.getByRole("button", { name: "Check in 1 child" }).click();
    await expect.poll(() => page.getByTestId("pickup-code").isVisible(), SLOW).toBe(true);
    expect(await page.getByRole("article", { name: "Child label" }).textContent()).toContain(`Noor ${last}`);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("staff add a room in the drawer (an empty name refused on the field), see it in the list, and read the reports", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, PASTOR, DEMO_PASSWORD);
    await page.goto("/admin/checkin");
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Child check-in" }).isVisible(), SLOW)
      .toBe(true);
    // The demo church's rooms and sessions on the shared table.
    await expect.poll(() => page.getByRole("button", { name: "Nursery" }).isVisible(), SLOW).toBe(true);
    await expectAccessible(page);
    await page.getByRole("button", { name: "New room" }).click();
    const drawer = page.getByRole("dialog", { name: "New room" });
    await expect.poll(() => drawer.isVisible(), SLOW).toBe(true);
    await drawer.getByRole("button", { name: "Add room" }).click();
    await expect.poll(() => drawer.getByLabel("Name").getAttribute("aria-invalid"), SLOW).toBe("true");
    await expectAccessible(page);
    const name = `Toddlers ${randomUUID().slice(0, 6)}`;
    await drawer.getByLabel("Name").fill(name);
    await drawer.getByLabel("Youngest age (months)").fill("12");
    await drawer.getByLabel("Oldest age (months)").fill("35");
    await drawer.getByLabel("Children at once").fill("6");
    await drawer.getByRole("button", { name: "Add room" }).click();
    const row = page.getByRole("row").filter({ has: page.getByRole("button", { name }) });
    await expect.poll(() => row.isVisible(), SLOW).toBe(true);
    expect(await row.textContent()).toContain("12–35 months");

    // The reports: the demo church's eight Sundays of history, week by week, and the headcounts as CSV.
    await page.getByRole("link", { name: "Check-in reports" }).click();
    const trend = page.getByRole("table", { name: "Week by week" });
    await expect.poll(() => trend.isVisible(), SLOW).toBe(true);
    expect(await trend.getByRole("row").count()).toBeGreaterThanOrEqual(9);
    const firstTimers = page.getByRole("table", { name: "First-time visitors" });
    await expect.poll(() => firstTimers.getByText("Valentina García").isVisible(), SLOW).toBe(true);
    await expectAccessible(page);
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("button", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^check-in-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
    const csv = readFileSync((await download.path())!, "utf8");
    expect(csv.split("\r\n")[0]).toBe("date,session,room,children,first time");
    expect(csv).toMatch(/\r\n\d{4}-\d{2}-\d{2},Sunday 9:00,Nursery,\d+,\d\r\n/);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a station registered with a code prints by itself, checks a family in while offline and syncs when back", async () => {
    const staff = await newContext(browser);
    const admin = await staff.newPage();
    const adminErrors = watchErrors(admin);
    await signIn(admin, PASTOR, DEMO_PASSWORD);
    const { run, big, session } = await setUp(admin);

    // Staff add the station at /admin/checkin and are shown the code to type on the device.
    await admin.goto("/admin/checkin");
    await admin.getByRole("button", { name: "Add station" }).click();
    const drawer = admin.getByRole("dialog", { name: "Add station" });
    await expect.poll(() => drawer.isVisible(), SLOW).toBe(true);
    await drawer.getByLabel("Name").fill(`Lobby ${run}`);
    await drawer.getByLabel("Mode").selectOption("SELF");
    await drawer.getByRole("button", { name: "Add station and show its code" }).click();
    const pairing = drawer.getByTestId("pairing-code");
    await expect.poll(() => pairing.isVisible(), SLOW).toBe(true);
    const pairingCode = (await pairing.textContent())!.trim();
    expect(pairingCode).toMatch(/^[A-Z0-9]{4}-[A-Z0-9]{4}$/);
    await expectAccessible(admin);

    // A tablet nobody is signed in on becomes the station (its prints counted: Chrome's --kiosk-printing
    // prints them without a dialog).
    const tablet = await newContext(browser, "tablet");
    await tablet.addInitScript(() => {
      const counted = window as unknown as { printed: number };
      counted.printed = 0;
      window.print = () => void (counted.printed += 1);
    });
    const kiosk = await tablet.newPage();
    const kioskErrors = watchErrors(kiosk);
    await kiosk.goto("/checkin");
    await kiosk.getByLabel("Station code").fill(pairingCode.toLowerCase());
    await kiosk.getByRole("button", { name: "Use this device as the station" }).click();
    await expect
      .poll(() => kiosk.getByRole("heading", { name: `Lobby ${run}` }).isVisible(), SLOW)
      .toBe(true);
    const select = kiosk.getByLabel("Session");
    const value = await select.locator("option", { hasText: `E2E ${run} ·` }).getAttribute("value");
    await select.selectOption(value!);
    await expectAccessible(kiosk);

    // The Member family is found while online; the station keeps it and the codes it holds for today.
    await kiosk.getByLabel(/Last 4 digits/).fill("0101");
    await kiosk.getByRole("button", { name: "Find" }).click();
    const family = kiosk.locator(".checkin-family").filter({ hasText: "Member" });
    await expect.poll(() => family.isVisible(), SLOW).toBe(true);
    await expect
      .poll(
        () =>
          kiosk.evaluate(
            (id) => (JSON.parse(localStorage.getItem("flock.checkin.holds") ?? "{}")[id] ?? []).length,
            session,
          ),
        SLOW,
      )
      .toBeGreaterThan(0);

    // The Wi-Fi drops: the station says so, finds the family in what it loaded, and checks Mia in.
    await tablet.setOffline(true);
    await expect
      .poll(() => kiosk.getByText(/^Offline — this station keeps checking in/).isVisible(), SLOW)
      .toBe(true);
    await kiosk.getByRole("tab", { name: "Check out" }).click();
    await kiosk.getByRole("tab", { name: "Check in" }).click();
    await kiosk.getByLabel(/Last 4 digits/).fill("0101");
    await kiosk.getByRole("button", { name: "Find" }).click();
    await expect.poll(() => family.isVisible(), SLOW).toBe(true);
    // Mia, the family's only child, is chosen with the room that fits her (the big kids', age 8).
    expect(await family.getByRole("checkbox", { name: /Mia Member/ }).isChecked()).toBe(true);
    await family.getByRole("button", { name: "Check in 1 child" }).click();
    const codeText = kiosk.getByTestId("pickup-code");
    await expect.poll(() => codeText.isVisible(), SLOW).toBe(true);
    const code = (await codeText.textContent())!.trim();
    expect(code).toMatch(/^[ACDEFHJKMNPRTUVWXY3479]{4}$/);
    expect(await kiosk.getByText(/Saved on this station/).isVisible()).toBe(true);
    const label = kiosk.getByRole("article", { name: "Child label" });
    expect(await label.textContent()).toContain("Mia Member");
    expect(await label.textContent()).toContain(code);
    expect(await label.textContent()).toContain("Peanuts");
    // The labels went to the printer by themselves.
    await expect
      .poll(() => kiosk.evaluate(() => (window as unknown as { printed: number }).printed), SLOW)
      .toBe(1);
    expect(await kiosk.getByText(/1 check-in waits to be sent/).isVisible()).toBe(true);
    await expectAccessible(kiosk);

    // Back online: the queued check-in is sent, with the code on the label.
    await tablet.setOffline(false);
    await expect.poll(() => kiosk.getByText(/1 check-in made offline was sent/).isVisible(), SLOW).toBe(true);
    const roster = await graphql<{
      checkinRoster: { children: { name: string; code: string; offlineAt: string | null }[] };
    }>(
      admin,
      `
        query ($sessionId: ID!, $roomId: ID!) {
          checkinRoster(sessionId: $sessionId, roomId: $roomId) {
            children {
              name
              code
              offlineAt
            }
          }
        }
      `,
      { sessionId: session, roomId: big },
    );
    const synced = roster.checkinRoster.children.find((c) => c.name === "Mia Member");
    expect(synced?.code).toBe(code);
    expect(synced?.offlineAt).not.toBeNull();

    expect(adminErrors).toEqual([]);
    expect(kioskErrors).toEqual([]);
    await staff.close();
    await tablet.close();
  });
});
