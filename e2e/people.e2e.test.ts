import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import {
  catcherUrl,
  DEMO_PASSWORD,
  expectAccessible,
  linkFrom,
  newContext,
  recordGraphqlResponses,
  signIn,
  uniqueEmail,
  waitForMail,
  watchErrors,
} from "./support/app.ts";

// People and the directory in a real browser (issue 4, "Done when"): a sign-up is approved by staff,
// the new member chooses who sees their phone and email, another member finds them in the directory
// (phone yes, email no) and writes to them through the Contact button without ever receiving their
// address. Plus the plan-a-visit form and the directory at phone width.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const PASTOR = "pastor@grace.example";
const MEMBER = "member@grace.example";
/** Polls wait for the app (page loads, GraphQL, the 300 ms search pause) rather than vitest's 1 s default. */
const SLOW = { timeout: 15_000 };

/** Letters only, so the name is a name (and unique in the shared e2e church). */
const uniqueLetters = () =>
  randomUUID()
    .replace(/-/g, "")
    .slice(0, 6)
    .replace(/\d/g, (d) => "ghijklmnop"[Number(d)]!);

const visible = (page: Page, text: string | RegExp) => page.getByText(text).first().isVisible();

describe("people and the directory in a real browser", () => {
  it("sign-up → staff approve → the member shares their phone but not their email → another member sees only the phone and writes through Contact", async () => {
    const first = "Junia";
    const last = `Andronicus-${uniqueLetters()}`;
    const displayName = `${first} ${last}`;
    const email = uniqueEmail("junia");
    const password = "faithful servant 16";
    const typedPhone = "(217) 555-0177";
    const formattedPhone = "+1 217 555 0177";

    // 1. A visitor signs up, confirms their address, and finds the directory closed until approval.
    const newcomerContext = await newContext(browser);
    const newcomer = await newcomerContext.newPage();
    const newcomerErrors = watchErrors(newcomer);
    await newcomer.goto("/signup");
    await expectAccessible(newcomer);
    await newcomer.getByLabel("First name").fill(first);
    await newcomer.getByLabel("Last name").fill(last);
    await newcomer.getByLabel("Email").fill(email);
    await newcomer.getByLabel("Password", { exact: true }).fill(password);
    await newcomer.getByLabel("Confirm password").fill(password);
    await newcomer.getByRole("button", { name: "Create account" }).click();
    await expect.poll(() => visible(newcomer, "Check your email"), SLOW).toBe(true);
    await expectAccessible(newcomer);

    const verification = await waitForMail(catcherUrl(), email, /Confirm your email for/);
    const verifyLink = new URL(linkFrom(verification, "/verify-email"));
    await newcomer.goto(verifyLink.pathname + verifyLink.search);
    await expect
      .poll(() => visible(newcomer, "Thank you, your email address is confirmed."), SLOW)
      .toBe(true);
    await expectAccessible(newcomer);
    // Sign-up signs nobody in (its answer is the same for a taken address): sign in now.
    await newcomer.goto("/login");
    await newcomer.getByLabel("Email").fill(email);
    await newcomer.getByLabel("Password", { exact: true }).fill(password);
    await newcomer.getByRole("button", { name: "Sign in" }).click();
    await newcomer.waitForURL(/\/me$/);
    await expect.poll(() => visible(newcomer, /waiting for the church office/), SLOW).toBe(true);

    await newcomer.goto("/directory");
    await expect.poll(() => visible(newcomer, "Your membership is waiting for approval"), SLOW).toBe(true);
    expect(await newcomer.getByRole("searchbox").count()).toBe(0);
    await expectAccessible(newcomer);

    // 2. The pastor finds the pending sign-up and approves it as a new person (new household, member).
    const pastorContext = await newContext(browser);
    const pastor = await pastorContext.newPage();
    const pastorErrors = watchErrors(pastor);
    await signIn(pastor, PASTOR, DEMO_PASSWORD);
    await pastor.goto("/admin/people");
    await expect
      .poll(() => pastor.getByRole("heading", { level: 1, name: "People" }).isVisible(), SLOW)
      .toBe(true);
    await expect.poll(() => visible(pastor, /sign-ups? (is|are) waiting for approval\./), SLOW).toBe(true);
    await expectAccessible(pastor);
    await pastor.getByRole("button", { name: /^Pending sign-ups/ }).click();
    await pastor.waitForURL(/record=pending/);
    await pastor.getByRole("searchbox", { name: "Search by name or email" }).fill(last);
    const pendingLink = pastor.getByRole("link", { name: `${last}, ${first}` });
    await expect.poll(() => pendingLink.isVisible(), SLOW).toBe(true);
    await expect.poll(() => pastor.getByRole("status").filter({ hasText: /^1 / }).count(), SLOW).toBe(1);
    await expectAccessible(pastor);
    await pendingLink.click();

    await pastor.waitForURL(/\/admin\/people\/[a-z0-9]{15}$/);
    const panel = pastor.getByRole("region", { name: "Approve this sign-up" });
    await expect.poll(() => panel.isVisible(), SLOW).toBe(true);
    expect(await panel.textContent()).toContain(email);
    // The suggestions load separately; a brand-new name and address match nobody the church knows.
    await expect
      .poll(
        () => panel.getByText("No existing person has the same email, phone or a similar name.").isVisible(),
        SLOW,
      )
      .toBe(true);
    expect(
      await panel.getByRole("radio", { name: `A new household named after them (${last})` }).isChecked(),
    ).toBe(true);
    // A sign-up is a visitor (not listed in the directory) until staff decide otherwise; this pastor does.
    expect(await panel.getByLabel("Membership status").inputValue()).toBe("VISITOR");
    await panel.getByLabel("Membership status").selectOption("MEMBER");
    await expectAccessible(pastor);
    await panel.getByRole("button", { name: "Approve as a new person" }).click();
    await expect.poll(() => visible(pastor, `${displayName} is approved.`), SLOW).toBe(true);
    await expect.poll(() => panel.count(), SLOW).toBe(0);
    await expect
      .poll(
        () =>
          pastor
            .getByRole("link", { name: `${last} household` })
            .first()
            .isVisible(),
        SLOW,
      )
      .toBe(true);
    await expectAccessible(pastor);

    const approval = await waitForMail(catcherUrl(), email, /Your membership is approved/);
    expect(approval.text).toContain(`Hello ${first},`);
    expect(linkFrom(approval, "/me")).toMatch(/\/me$/);

    // 3. The new member (now approved) adds a phone on their profile, then chooses who sees what.
    await newcomer.reload();
    await expect
      .poll(() => newcomer.getByRole("searchbox", { name: "Search by name" }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(newcomer);

    await newcomer.goto("/me/profile");
    const phones = newcomer.getByRole("region", { name: "Phone numbers" });
    await expect.poll(() => phones.isVisible(), SLOW).toBe(true);
    await expectAccessible(newcomer);
    await phones.getByLabel("Add a phone number").fill(typedPhone);
    await phones.getByRole("button", { name: "Add", exact: true }).click();
    await expect.poll(() => phones.getByText("Phone number added.").isVisible(), SLOW).toBe(true);
    // Typed the local way, stored and shown in the international form.
    expect(await phones.getByRole("link", { name: formattedPhone }).getAttribute("href")).toBe(
      "tel:+12175550177",
    );
    await expectAccessible(newcomer);

    await newcomer.goto("/me/privacy");
    const emailChoice = newcomer.getByLabel(email);
    const phoneChoice = newcomer.getByLabel(formattedPhone);
    const preview = newcomer.getByRole("complementary", { name: "What other members see" });
    await expect.poll(() => emailChoice.isVisible(), SLOW).toBe(true);
    // The sign-up address starts private; a new phone follows the church's default (all members).
    expect(await emailChoice.inputValue()).toBe("PRIVATE");
    expect(await phoneChoice.inputValue()).toBe("MEMBERS");
    await expectAccessible(newcomer);
    const save = newcomer.getByRole("button", { name: "Save privacy settings" });
    const saved = newcomer.getByRole("status").filter({ hasText: "Saved." });

    // First the other way round (email shared, phone hidden), saved, so that the final choice is a
    // real change on the server and not just the defaults left alone.
    await emailChoice.selectOption({ label: "All members" });
    await phoneChoice.selectOption({ label: "Only me" });
    await expect.poll(() => preview.textContent(), SLOW).toContain(email);
    expect(await preview.textContent()).not.toContain(formattedPhone);
    await save.click();
    await expect.poll(() => saved.isVisible(), SLOW).toBe(true);

    // Then the choice the test is about: phone for all members, email only me.
    await phoneChoice.selectOption({ label: "All members" });
    await emailChoice.selectOption({ label: "Only me" });
    await expect.poll(() => preview.textContent(), SLOW).toContain(formattedPhone);
    expect(await preview.textContent()).not.toContain(email);
    await expectAccessible(newcomer);
    await save.click();
    await expect.poll(() => saved.isVisible(), SLOW).toBe(true);
    await newcomer.reload();
    await expect.poll(() => emailChoice.isVisible(), SLOW).toBe(true);
    expect(await emailChoice.inputValue()).toBe("PRIVATE");
    expect(await phoneChoice.inputValue()).toBe("MEMBERS");
    await expectAccessible(newcomer);

    // 4. Another member searches the directory: the phone is there, the email is nowhere in the page.
    const memberContext = await newContext(browser);
    const member = await memberContext.newPage();
    const memberErrors = watchErrors(member);
    const graphql = await recordGraphqlResponses(member);
    await signIn(member, MEMBER, DEMO_PASSWORD);
    await member.goto("/directory");
    const search = member.getByRole("searchbox", { name: "Search by name" });
    await expect
      .poll(
        () =>
          member
            .getByRole("status")
            .filter({ hasText: /households$/ })
            .isVisible(),
        SLOW,
      )
      .toBe(true);
    await expectAccessible(member);
    await search.fill(last);
    await expect.poll(() => visible(member, `1 household matches “${last}”`), SLOW).toBe(true);
    await member.waitForURL((url) => url.searchParams.get("q") === last);
    const card = member.getByRole("article", { name: `${last} household` });
    await expect.poll(() => card.isVisible(), SLOW).toBe(true);
    expect(await card.getByRole("link", { name: formattedPhone }).getAttribute("href")).toBe(
      "tel:+12175550177",
    );
    expect(await member.getByRole("article").count()).toBe(1);
    expect((await member.content()).toLowerCase()).not.toContain(email);
    await expectAccessible(member);

    // 5. Their directory page, and a message through the Contact button.
    await card.getByRole("link", { name: `${last} household` }).click();
    await member.waitForURL(/\/directory\/[a-z0-9]{15}$/);
    await expect
      .poll(() => member.getByRole("heading", { level: 1, name: displayName }).isVisible(), SLOW)
      .toBe(true);
    expect(await member.getByRole("link", { name: formattedPhone }).isVisible()).toBe(true);
    expect((await member.content()).toLowerCase()).not.toContain(email);
    await expectAccessible(member);

    const message = `Welcome to Grace, ${first}! Would you like to join our Tuesday supper? (${uniqueLetters()})`;
    await member.getByRole("button", { name: `Contact ${displayName}` }).click();
    const dialog = member.getByRole("dialog", { name: `Write to ${displayName}` });
    await expect.poll(() => dialog.isVisible(), SLOW).toBe(true);
    // The sender is told their own address goes with the message; the recipient's is not shown.
    expect(await dialog.textContent()).toContain(MEMBER);
    await expectAccessible(member);
    await dialog.getByLabel("Message").fill(message);
    await dialog.getByRole("button", { name: "Send message" }).click();
    await expect.poll(() => dialog.getByText("Message sent").isVisible(), SLOW).toBe(true);
    await expectAccessible(member);

    const relayed = await waitForMail(catcherUrl(), email, /sent you a message through/);
    expect(relayed.to).toEqual([email]);
    expect(relayed.text).toContain(message);
    expect(relayed.replyTo).toContain(MEMBER);
    expect(relayed.subject).toContain("Mark Member");

    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => dialog.isVisible(), SLOW).toBe(false);
    expect((await member.content()).toLowerCase()).not.toContain(email);

    // Nothing the member's browser received from the API held the address. The directory's own
    // answers are among those read (they carry the phone), so the check is not vacuous.
    const responses = await graphql.texts();
    expect(responses.some((body) => body.includes("+12175550177"))).toBe(true);
    expect(responses.filter((body) => body.toLowerCase().includes(email))).toEqual([]);

    expect(newcomerErrors).toEqual([]);
    expect(pastorErrors).toEqual([]);
    expect(memberErrors).toEqual([]);
    await memberContext.close();
    await pastorContext.close();
    await newcomerContext.close();
  });

  it("a visitor plans a visit and gets a confirmation by email; staff open it from the requests table, note and move it on", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const email = uniqueEmail("guest");
    const name = `Cornelius ${uniqueLetters()}`;

    await page.goto("/visit");
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Plan a visit" }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(page);
    await page.getByLabel("Your name").fill(name);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Phone").fill("(217) 555-0199");
    await page.getByLabel("Date of your visit").fill("2030-06-02");
    await page.getByLabel("How many people?").fill("3");
    await page.getByLabel("Anything we should know?").fill("We have a toddler.");
    await page.getByRole("button", { name: "Plan my visit" }).click();

    const thanks = page.getByRole("heading", { level: 1, name: `Thank you, ${name}!` });
    await expect.poll(() => thanks.isVisible(), SLOW).toBe(true);
    // Focus moves to the thank-you so a screen reader announces it.
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName), SLOW).toBe("H1");
    expect(
      await page.getByRole("alert").or(page.getByRole("status")).filter({ hasText: email }).count(),
    ).toBeGreaterThan(0);
    await expectAccessible(page);

    const confirmation = await waitForMail(catcherUrl(), email, /Your visit to/);
    expect(confirmation.text).toContain(`Hello ${name},`);
    expect(confirmation.text).toContain("Sunday, June 2, 2030");
    expect(confirmation.text).toContain("a party of 3");
    expect(errors).toEqual([]);
    await context.close();

    // Staff see it in the visit requests table, open it beside the list, note what happened, and move it on.
    const staffContext = await newContext(browser);
    const staff = await staffContext.newPage();
    const staffErrors = watchErrors(staff);
    await signIn(staff, PASTOR, DEMO_PASSWORD);
    await staff.goto("/admin/visits");
    const open = staff.getByRole("button", { name, exact: true });
    await expect.poll(() => open.isVisible(), SLOW).toBe(true);
    await expectAccessible(staff);
    await open.click();
    const drawer = staff.getByRole("dialog", { name });
    await expect.poll(() => drawer.getByText("We have a toddler.").isVisible(), SLOW).toBe(true);
    expect(new URL(staff.url()).searchParams.get("visit")).toMatch(/^[a-z0-9]{15}$/);
    await expectAccessible(staff);
    await drawer.getByLabel("Staff note").fill("Called; they will come at 10:30.");
    await drawer.getByRole("button", { name: "Save" }).click();
    await expect.poll(() => drawer.getByRole("status").textContent(), SLOW).toContain("Saved");
    await staff.keyboard.press("Escape");
    await expect.poll(() => drawer.isVisible(), SLOW).toBe(false);
    // The address follows (React updates it after the dialog's close event).
    await expect.poll(() => new URL(staff.url()).searchParams.get("visit"), SLOW).toBeNull();
    // Focus is back where it was: the request's name in the table.
    await expect.poll(() => staff.evaluate(() => document.activeElement?.textContent), SLOW).toBe(name);

    await staff.getByRole("checkbox", { name: `Choose ${name}` }).check();
    await staff
      .getByRole("region", { name: "Act on the chosen rows" })
      .getByRole("button", { name: "Mark contacted" })
      .click();
    await expect.poll(() => staff.getByText("1 request now “Contacted”.").isVisible(), SLOW).toBe(true);
    await expect.poll(() => open.count(), SLOW).toBe(0);
    await staff.getByRole("button", { name: "Contacted", exact: true }).click();
    const row = staff.getByRole("row").filter({ has: staff.getByRole("button", { name, exact: true }) });
    await expect.poll(() => row.getByText("Staff note").isVisible(), SLOW).toBe(true);
    expect(staffErrors).toEqual([]);
    await staffContext.close();
  });

  it("the directory at phone width: no sideways scrolling, accessible, and a person's page with Contact", async () => {
    const context = await newContext(browser, "phone");
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, MEMBER, DEMO_PASSWORD);
    await page.goto("/directory");
    await expect
      .poll(
        () =>
          page
            .getByRole("status")
            .filter({ hasText: /households$/ })
            .isVisible(),
        SLOW,
      )
      .toBe(true);
    await expect.poll(() => page.getByRole("article").count(), SLOW).toBeGreaterThan(1);
    const overflow = () =>
      page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(await overflow()).toBe(0);
    await expectAccessible(page);

    await page.getByRole("searchbox", { name: "Search by name" }).fill("Pastor");
    await expect.poll(() => visible(page, /households? match(es)? “Pastor”/), SLOW).toBe(true);
    await page.getByRole("link", { name: "Paul Pastor" }).click();
    await page.waitForURL(/\/directory\/[a-z0-9]{15}$/);
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Paul Pastor" }).isVisible(), SLOW)
      .toBe(true);
    expect(await overflow()).toBe(0);
    await expectAccessible(page);
    await page.getByRole("button", { name: "Contact Paul Pastor" }).click();
    await expect
      .poll(() => page.getByRole("dialog", { name: "Write to Paul Pastor" }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });
});
