import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { DEMO_PASSWORD, expectAccessible, newContext, signIn, watchErrors } from "./support/app.ts";

// The staff screens for serving teams (issue 27) in a real browser, on the demo church: the
// administrator creates a team in the drawer (an empty name is refused on the field), gives it a
// position, puts Ngozi Okafor on it as its leader in that position, records her background check in
// her drawer (a future day refused on the field), sees her in the roster and the
// teams list, and archives the team with the list's bulk action. axe-core on every screen.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const ADMIN = "admin@grace.example";
/** Polls wait for the app (page loads, GraphQL, the search pause) rather than vitest's 1 s default. */
const SLOW = { timeout: 15_000 };

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

describe("serving teams for staff", () => {
  it("create a team (an empty name refused on the field) → a position → a member in it → the roster → archived from the list", async () => {
    const team = `Parking ${randomUUID().slice(0, 6)}`;
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, ADMIN, DEMO_PASSWORD);

    // The list: the demo church's teams, with their leaders.
    await page.goto("/admin/serving");
    await expect.poll(() => heading(page, "Serving teams").isVisible(), SLOW).toBe(true);
    const worship = page.getByRole("row").filter({ has: page.getByRole("link", { name: "Worship" }) });
    await expect.poll(() => worship.isVisible(), SLOW).toBe(true);
    expect(await worship.textContent()).toContain("Chidi Okafor");
    await expectAccessible(page);

    // New team, in the drawer: an empty name comes back from the gateway as an error on the field.
    await page.getByRole("button", { name: "New team" }).click();
    const drawer = page.getByRole("dialog", { name: "New team" });
    await expect.poll(() => drawer.isVisible(), SLOW).toBe(true);
    await expectAccessible(page);
    await drawer.getByRole("button", { name: "Create team" }).click();
    const name = drawer.getByLabel("Name", { exact: true });
    await expect.poll(() => name.getAttribute("aria-invalid"), SLOW).toBe("true");
    expect(await drawer.getByText("This field is required.").isVisible()).toBe(true);
    await expectAccessible(page);
    await name.fill(team);
    await drawer.getByLabel(/What the team does/).fill("Guiding cars into the lot on Sunday mornings.");
    await drawer.getByLabel("Reminder (days before)").fill("3");
    await drawer.getByLabel("Members may put themselves into open places").check();
    await drawer.getByRole("button", { name: "Create team" }).click();

    // The new team opens on its own page.
    await page.waitForURL(/\/admin\/serving\/teams\/[a-z0-9]{15}$/, SLOW);
    await expect.poll(() => heading(page, team).isVisible(), SLOW).toBe(true);
    expect(await page.getByText("The team was created.").isVisible()).toBe(true);
    expect(await page.getByLabel("Reminder (days before)").inputValue()).toBe("3");
    expect(await page.getByLabel("Members may put themselves into open places").isChecked()).toBe(true);
    await expectAccessible(page);

    // A position.
    await page.getByRole("button", { name: "Add position" }).click();
    const positionForm = page.getByRole("form", { name: "New position" });
    await positionForm.getByLabel("Position name").fill("Lot attendant");
    await positionForm.getByLabel("Requires current training").check();
    await expectAccessible(page);
    await positionForm.getByRole("button", { name: "Add position" }).click();
    await expect.poll(() => page.getByText("“Lot attendant” was added.").isVisible(), SLOW).toBe(true);
    const positions = page.getByRole("region", { name: /^Positions/ });
    expect(
      await positions.getByRole("listitem").filter({ hasText: "Lot attendant" }).textContent(),
    ).toContain("Training");

    // A member: found by name, made the leader, able to fill the new position.
    await page.getByRole("button", { name: "Add member" }).click();
    const adding = page.getByRole("dialog", { name: "Add a member" });
    await expect.poll(() => adding.isVisible(), SLOW).toBe(true);
    await adding.getByLabel("Find a person by name or email").fill("Ngozi");
    const ngozi = adding.getByRole("radio", { name: /^Ngozi Okafor/ });
    await expect.poll(() => ngozi.isVisible(), SLOW).toBe(true);
    await ngozi.check();
    await adding.getByLabel("Role").selectOption("LEADER");
    await adding.getByLabel("Lot attendant").check();
    await expectAccessible(page);
    await adding.getByRole("button", { name: "Add to the team" }).click();
    await expect
      .poll(() => page.getByText("Ngozi Okafor was added to the team.").isVisible(), SLOW)
      .toBe(true);
    expect(await adding.isVisible()).toBe(false);

    // The roster shows her, as leader, in the position, serving.
    const row = page.getByRole("row").filter({ hasText: "Ngozi Okafor" });
    await expect.poll(() => row.isVisible(), SLOW).toBe(true);
    const cells = await row.getByRole("cell").allTextContents();
    expect(cells).toEqual(["Ngozi Okafor", "Leader", "Lot attendant", "Serving"]);
    await expectAccessible(page);

    // Her drawer: a background check recorded (a day in the future refused on the field), then current.
    await row.getByRole("button", { name: "Ngozi Okafor" }).click();
    const herDrawer = page.getByRole("dialog", { name: "Ngozi Okafor" });
    const checks = herDrawer.getByRole("region", { name: "Background check and training" });
    await expect.poll(() => checks.isVisible(), SLOW).toBe(true);
    await checks.getByLabel("Passed on").fill("2099-01-01");
    await checks.getByRole("button", { name: "Record it" }).click();
    await expect
      .poll(() => checks.getByText("This date can't be in the future.").isVisible(), SLOW)
      .toBe(true);
    await checks.getByLabel("Passed on").fill("2026-01-15");
    await checks.getByRole("button", { name: "Record it" }).click();
    await expect.poll(() => checks.getByText("Current").isVisible(), SLOW).toBe(true);
    expect(await checks.getByText(/Passed on January 15, 2026, does not expire/).isVisible()).toBe(true);
    await expectAccessible(page);
    await page.keyboard.press("Escape");
    await expect.poll(() => herDrawer.isVisible(), SLOW).toBe(false);

    // Back to the list: the new team with its counts and leader; archived with the bulk action.
    await page.getByRole("link", { name: "All serving teams" }).click();
    await expect.poll(() => heading(page, "Serving teams").isVisible(), SLOW).toBe(true);
    const listed = page.getByRole("row").filter({ has: page.getByRole("link", { name: team }) });
    await expect.poll(() => listed.isVisible(), SLOW).toBe(true);
    await expect
      .poll(async () => (await listed.getByRole("cell").allTextContents()).slice(1), SLOW)
      .toEqual([team, "1", "1", "Ngozi Okafor", "Active"]);
    await listed.getByRole("checkbox", { name: `Choose ${team}` }).check();
    const bulk = page.getByRole("region", { name: "Act on the chosen rows" });
    await bulk.getByRole("button", { name: "Archive" }).click();
    await expect.poll(() => page.getByText("1 team archived.").isVisible(), SLOW).toBe(true);
    await expect
      .poll(async () => (await listed.getByRole("cell").last().textContent())?.trim(), SLOW)
      .toBe("Archived");
    await expectAccessible(page);

    expect(errors).toEqual([]);
    await context.close();
  });
});
