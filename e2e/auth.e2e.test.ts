import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser } from "playwright-core";
import { launchChromium } from "./support/browser.ts";
import {
  catcherUrl,
  expectAccessible,
  linkFrom,
  newContext,
  uniqueEmail,
  waitForMail,
  watchErrors,
} from "./support/app.ts";

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

describe("accounts in a real browser", () => {
  it("sign-up → verification mail → sign-in → sign-out", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    const email = uniqueEmail("newcomer");
    const password = "green pastures 23";

    await page.goto("/signup");
    await expectAccessible(page);
    await page.getByLabel("First name").fill("Lydia");
    await page.getByLabel("Last name").fill("Thyatira");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByLabel("Confirm password").fill("not the same 123");
    await page.getByRole("button", { name: "Create account" }).click();
    // A field error, and nothing typed is lost.
    await expect.poll(() => page.getByText("The passwords don't match.").isVisible()).toBe(true);
    expect(await page.getByLabel("Email").inputValue()).toBe(email);
    await expectAccessible(page);
    await page.getByLabel("Confirm password").fill(password);
    await page.getByRole("button", { name: "Create account" }).click();

    // The answer is the same for a taken address (issue 10): check your email, nobody signed in.
    await expect.poll(() => page.getByRole("heading", { name: "Check your email" }).isVisible()).toBe(true);
    expect(await page.getByText(`We sent a message to ${email}.`, { exact: false }).isVisible()).toBe(true);
    await expectAccessible(page);
    expect((await context.cookies()).map((c) => c.name)).not.toContain("flock_session");

    const mail = await waitForMail(catcherUrl(), email, /Confirm your email for Grace Community Church/);
    const link = new URL(linkFrom(mail, "/verify-email"));
    await page.goto(link.pathname + link.search);
    await expect
      .poll(() => page.getByText("Thank you, your email address is confirmed.").isVisible())
      .toBe(true);
    await expectAccessible(page);
    // Continuing leads to sign-in, since sign-up signed nobody in.
    await page.getByRole("link", { name: "Continue" }).click();
    await page.waitForURL(/\/login\?next=%2Fme/);

    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("wrong password 99");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect
      .poll(() => page.getByRole("alert").textContent())
      .toContain("The email or password is incorrect.");
    await expectAccessible(page);
    await page.getByLabel("Password", { exact: true }).fill(password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/me$/);
    await expect.poll(() => page.getByRole("heading", { name: "Hello, Lydia" }).isVisible()).toBe(true);
    await expect.poll(() => page.getByText(/waiting for the church office/).isVisible()).toBe(true);
    expect(await page.getByText(/Please confirm your email address/).count()).toBe(0);
    await expectAccessible(page);

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await expect.poll(() => page.getByRole("link", { name: "Sign in", exact: true }).isVisible()).toBe(true);
    // The session is gone: the account page sends us to sign in.
    await page.goto("/me");
    await page.waitForURL(/\/login\?next=%2Fme/);

    // Signing up again with the same address gets the very same answer; the owner gets a mail instead.
    await page.goto("/signup");
    await page.getByLabel("First name").fill("Someone");
    await page.getByLabel("Last name").fill("Else");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("another secret phrase");
    await page.getByLabel("Confirm password").fill("another secret phrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Check your email" }).isVisible()).toBe(true);
    const notice = await waitForMail(catcherUrl(), email, /Someone tried to sign up/);
    expect(notice.text).toContain("/forgot-password");

    // The session cookie is httpOnly: page scripts cannot read it.
    expect(await page.evaluate(() => document.cookie)).not.toContain("flock_session");
    expect(errors).toEqual([]);
    await context.close();
  });

  it("password reset through the caught mail", async () => {
    const context = await newContext(browser, "phone");
    const page = await context.newPage();
    const errors = watchErrors(page);
    // An account to reset, made through the sign-up page like a real member's.
    const email = uniqueEmail("forgetful");
    await page.goto("/signup");
    await page.getByLabel("First name").fill("Thomas");
    await page.getByLabel("Last name").fill("Didymus");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("first secret phrase");
    await page.getByLabel("Confirm password").fill("first secret phrase");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect.poll(() => page.getByRole("heading", { name: "Check your email" }).isVisible()).toBe(true);
    await expectAccessible(page);
    // The account exists once its confirmation mail is out (sign-up completes after its answer).
    await waitForMail(catcherUrl(), email, /Confirm your email/);

    await page.goto("/forgot-password");
    await expectAccessible(page);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect.poll(() => page.getByText(/a reset link is on its way/).isVisible()).toBe(true);

    const mail = await waitForMail(catcherUrl(), email, /Reset your Grace Community Church password/);
    const link = new URL(linkFrom(mail, "/reset-password"));
    await page.goto(link.pathname + link.search);
    await expectAccessible(page);
    await page.getByLabel("New password").fill("password123");
    await page.getByLabel("Confirm password").fill("password123");
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect
      .poll(() => page.getByText("This password is too easy to guess. Choose another.").isVisible())
      .toBe(true);
    await page.getByLabel("New password").fill("second secret phrase");
    await page.getByLabel("Confirm password").fill("second secret phrase");
    await page.getByRole("button", { name: "Save new password" }).click();
    await expect.poll(() => page.getByText(/Your password has been changed/).isVisible()).toBe(true);
    await expectAccessible(page);

    await page.getByRole("link", { name: "Sign in" }).last().click();
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password", { exact: true }).fill("second secret phrase");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/me$/);
    expect(errors).toEqual([]);
    await context.close();
  });
});
