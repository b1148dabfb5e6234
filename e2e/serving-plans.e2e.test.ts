import { mkdirSync } from "node:fs";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import { DEMO_PASSWORD, expectAccessible, graphql, newContext, signIn, watchErrors } from "./support/app.ts";

// Serving plans (issue 27) in a real browser, on the demo church: Paul Pastor (staff) creates a plan in
// the drawer (a plan without a day is refused on the field), with a service time and the order of
// service; on its page a count of 60 greeters is refused on the field, 1 is kept; he publishes it. Mark
// Member, asked to greet on it, opens the plan from My serving, reads the notes and says yes there.
// axe-core on every screen. Screenshots of the new screens at 1280 and 390 px when SHOTS_DIR is set.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const PASTOR = "pastor@grace.example";
const MEMBER = "member@grace.example";
/** Polls wait for the app (page loads, GraphQL) rather than vitest's 1 s default. */
const SLOW = { timeout: 15_000 };
const SHOTS = process.env.SHOTS_DIR;

async function shot(page: Page, name: string) {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/serving-plans-${name}.png`, fullPage: true });
}

const heading = (page: Page, name: string) => page.getByRole("heading", { level: 1, name, exact: true });

/** A day `days` after today in the church's zone (the demo church is in Chicago), as YYYY-MM-DD. */
function dayFromToday(days: number): string {
  const today = new Intl.DateTimeFormat("en-CA", {
    timeZone: "America/Chicago",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
  }).format(new Date());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

describe("serving plans", () => {
  it("staff create a plan (no day: refused on the field) with a service and notes, set a need (60 refused), publish; the volunteer asked reads the notes and says yes", async () => {
    const title = `Harvest service ${randomUUID().slice(0, 6)}`;
    // A Sunday at least ten days out: the demo's Sunday Worship takes place then (the plan serves it).
    const day = [10, 11, 12, 13, 14, 15, 16]
      .map(dayFromToday)
      .find((d) => new Date(`${d}T12:00:00Z`).getUTCDay() === 0)!;
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, PASTOR, DEMO_PASSWORD);

    // From the serving teams to the plans: the demo church's Sundays.
    await page.goto("/admin/serving");
    await expect.poll(() => heading(page, "Serving teams").isVisible(), SLOW).toBe(true);
    await page.getByRole("link", { name: "Plans", exact: true }).click();
    await expect.poll(() => heading(page, "Serving plans").isVisible(), SLOW).toBe(true);
    await expect
      .poll(() => page.getByRole("row").filter({ hasText: "Sunday services" }).count(), SLOW)
      .toBeGreaterThan(4);
    await expectAccessible(page);
    await shot(page, "list-1280");

    // New plan: without a day the gateway refuses it, on the field.
    await page.getByRole("button", { name: "New plan" }).click();
    const drawer = page.getByRole("dialog", { name: "New plan" });
    await expect.poll(() => drawer.isVisible(), SLOW).toBe(true);
    await drawer.getByLabel("Title").fill(title);
    await drawer.getByRole("button", { name: "Create plan" }).click();
    const dayField = drawer.getByLabel("Day", { exact: true });
    await expect.poll(() => dayField.getAttribute("aria-invalid"), SLOW).toBe("true");
    expect(await drawer.getByText("This field is required.").isVisible()).toBe(true);
    await expectAccessible(page);

    // The day, a service at 10:00–11:30 and the order of service.
    await dayField.fill(day);
    await drawer.getByRole("button", { name: "Add a time" }).click();
    const time = drawer.getByRole("group", { name: "Time 1" });
    expect(await time.getByLabel("Kind").inputValue()).toBe("SERVICE");
    await time.getByLabel(/^Name/).fill("Harvest worship");
    await time.getByLabel("Starts").fill("10:00");
    await time.getByLabel("Ends").fill("11:30");
    // The event it serves, among that day's.
    const event = drawer.getByLabel(/^Event it serves/);
    await expect.poll(() => event.locator("option", { hasText: "Sunday Worship" }).count(), SLOW).toBe(1);
    await event.selectOption({ label: "Sunday Worship · 9:00 AM" });
    await drawer
      .getByLabel(/^Notes for the teams/)
      .fill(
        "## Order of service\n\n1. Welcome\n2. Hymn: *Come, Ye Thankful People, Come*\n3. Sermon: The Sower\n4. Harvest lunch",
      );
    await expectAccessible(page);
    await shot(page, "new-1280");
    await drawer.getByRole("button", { name: "Create plan" }).click();

    // The new plan opens on its own page, a draft, with what was typed.
    await page.waitForURL(/\/admin\/serving\/plans\/[a-z0-9]{15}$/, SLOW);
    const planId = new URL(page.url()).pathname.split("/").pop()!;
    await expect.poll(() => heading(page, title).isVisible(), SLOW).toBe(true);
    expect(await page.getByText("The plan was created as a draft.").isVisible()).toBe(true);
    expect(await page.locator(".serving-team__title .badge").textContent()).toBe("Draft");
    const details = page.getByRole("region", { name: "Details" });
    expect(await details.getByLabel("Day", { exact: true }).inputValue()).toBe(day);
    expect(await details.getByLabel("Starts").inputValue()).toBe("10:00");
    expect(await details.getByLabel("Ends").inputValue()).toBe("11:30");
    expect(await details.getByLabel(/^Name/).inputValue()).toBe("Harvest worship");
    expect(await page.getByRole("link", { name: "Sunday Worship" }).getAttribute("href")).toBe(
      `/events/sunday-worship?date=${day}`,
    );
    await details.getByText("How the teams see the saved notes").click();
    await expect
      .poll(() => details.getByRole("heading", { name: "Order of service" }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(page);

    // Places: 60 greeters is refused on the field (1–50); 1 is kept.
    const welcome = page.getByRole("region", { name: "Welcome", exact: true });
    const greeters = welcome.getByLabel("Greeter");
    await greeters.fill("60");
    await welcome.getByRole("button", { name: "Save places for Welcome" }).click();
    await expect.poll(() => greeters.getAttribute("aria-invalid"), SLOW).toBe("true");
    expect(await welcome.getByText("This number is out of range.").isVisible()).toBe(true);
    await expectAccessible(page);
    await greeters.fill("1");
    await welcome.getByRole("button", { name: "Save places for Welcome" }).click();
    await expect.poll(() => welcome.getByText("0 of 1 filled · 0 asked").isVisible(), SLOW).toBe(true);
    expect(await greeters.getAttribute("aria-invalid")).toBeNull();
    // The team's schedule on that day is one link away.
    expect(
      await welcome.getByRole("link", { name: "The schedule of Welcome on this day" }).getAttribute("href"),
    ).toContain(`&from=${day}&to=${day}`);

    // Published.
    await page.getByRole("button", { name: "Publish", exact: true }).click();
    await expect.poll(() => page.getByText("The plan was published.").isVisible(), SLOW).toBe(true);
    expect(await page.locator(".serving-team__title .badge").textContent()).toBe("Published");
    await expectAccessible(page);
    await shot(page, "plan-1280");

    // The list shows it with its place and status.
    await page.getByRole("link", { name: "All plans" }).click();
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: title }) });
    await expect.poll(() => row.isVisible(), SLOW).toBe(true);
    // (The time's space may be a narrow no-break space, as Intl writes it.)
    const cells = (await row.getByRole("cell").allTextContents()).map((cell) => cell.replace(/\s/g, " "));
    expect(cells.slice(2)).toEqual([title, "10:00 AM", "0 of 1 filled", "Published"]);
    expect(errors).toEqual([]);

    // Mark Member is asked to greet on it (the leader's schedule does this; here through the API).
    const { servingPlan } = await graphql<{ servingPlan: { needs: { id: string }[] } }>(
      page,
      `
        query ($id: ID!) {
          servingPlan(id: $id) {
            needs {
              id
            }
          }
        }
      `,
      { id: planId },
    );
    const { servingTeams } = await graphql<{
      servingTeams: { name: string; members: { personId: string; name: string }[] }[];
    }>(
      page,
      `
        {
          servingTeams {
            name
            members {
              personId
              name
            }
          }
        }
      `,
    );
    const mark = servingTeams
      .find((team) => team.name === "Welcome")!
      .members.find((member) => member.name === "Mark Member")!;
    await graphql(
      page,
      `
        mutation ($need: ID!, $people: [ID!]!) {
          askToServe(needId: $need, personIds: $people) {
            id
          }
        }
      `,
      {
        need: servingPlan.needs[0]!.id,
        people: [mark.personId],
      },
    );

    if (SHOTS) {
      // The staff screens on a phone.
      const phone = await newContext(browser, "phone");
      const small = await phone.newPage();
      await signIn(small, PASTOR, DEMO_PASSWORD);
      await small.goto("/admin/serving/plans");
      await expect.poll(() => heading(small, "Serving plans").isVisible(), SLOW).toBe(true);
      await expect.poll(() => small.getByRole("link", { name: title }).isVisible(), SLOW).toBe(true);
      await shot(small, "list-390");
      await small.getByRole("button", { name: "New plan" }).click();
      await small
        .getByRole("dialog", { name: "New plan" })
        .getByRole("button", { name: "Add a time" })
        .click();
      await shot(small, "new-390");
      await small.goto(`/admin/serving/plans/${planId}`);
      await expect.poll(() => heading(small, title).isVisible(), SLOW).toBe(true);
      await expect.poll(() => small.getByText("0 of 1 filled · 1 asked").isVisible(), SLOW).toBe(true);
      await shot(small, "plan-390");
      await phone.close();
    }
    await context.close();

    // Mark opens the plan from My serving (on a phone), reads the order of service and says yes there.
    const memberContext = await newContext(browser, "phone");
    const member = await memberContext.newPage();
    const memberErrors = watchErrors(member);
    await signIn(member, MEMBER, DEMO_PASSWORD);
    await member.goto("/me/serving");
    const card = member.locator(".serving-request").filter({ hasText: title });
    await expect.poll(() => card.isVisible(), SLOW).toBe(true);
    await card.getByRole("link", { name: "The plan and its order of service" }).click();
    await member.waitForURL(new RegExp(`/serving/plans/${planId}$`), SLOW);
    await expect.poll(() => heading(member, title).isVisible(), SLOW).toBe(true);
    const notes = member.getByRole("region", { name: "Notes and order of service" });
    await expect.poll(() => notes.getByText("Come, Ye Thankful People, Come").isVisible(), SLOW).toBe(true);
    expect(await notes.getByText("Sermon: The Sower").isVisible()).toBe(true);
    expect(await member.getByText("Harvest worship").isVisible()).toBe(true);
    const mine = member.getByRole("region", { name: "Your places" });
    expect(await mine.getByRole("heading", { name: "Greeter · Welcome" }).isVisible()).toBe(true);
    expect(await mine.getByText("Waiting for your answer").isVisible()).toBe(true);
    await expectAccessible(member);
    await shot(member, "volunteer-390");
    await mine.getByRole("button", { name: "Yes, I'll serve" }).click();
    await expect.poll(() => mine.getByText("You're serving").isVisible(), SLOW).toBe(true);
    await expectAccessible(member);
    if (SHOTS) {
      await member.setViewportSize({ width: 1280, height: 900 });
      await shot(member, "volunteer-1280");
      await member.setViewportSize({ width: 390, height: 844 });
    }

    // On the coming Sunday (the demo church's first plan), where Denise greets with him, the Welcome
    // team shows names: he sees who else said yes.
    const { myServingRequests } = await graphql<{
      myServingRequests: { plan: { id: string; title: string; date: string } }[];
    }>(
      member,
      `
        {
          myServingRequests {
            plan {
              id
              title
              date
            }
          }
        }
      `,
    );
    const sunday = myServingRequests
      .map((request) => request.plan)
      .filter((plan) => plan.title === "Sunday services")
      .sort((a, b) => a.date.localeCompare(b.date))[0]!;
    await member.goto(`/serving/plans/${sunday.id}`);
    await expect.poll(() => heading(member, "Sunday services").isVisible(), SLOW).toBe(true);
    const others = member.getByRole("region", { name: "Who serves" });
    await expect.poll(() => others.getByText("Greeter · Welcome").isVisible(), SLOW).toBe(true);
    await expectAccessible(member);
    await shot(member, "volunteer-sunday-390");
    expect(memberErrors).toEqual([]);
    await memberContext.close();
  });
});
