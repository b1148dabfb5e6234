import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Browser, Page } from "playwright-core";
import { coverFee } from "@flock/shared/money";
import { launchChromium } from "./support/browser.ts";
import { baseUrl, DEMO_PASSWORD, expectAccessible, newContext, signIn, watchErrors } from "./support/app.ts";
import { fakeStripeUrl } from "./support/environment.ts";
import {
  completedSession,
  signedEvent,
  subscriptionInvoice,
  type FakeSession,
} from "../scripts/lib/fake-stripe.ts";

// A visitor gives online (issue 29) in a real browser, on the demo church: /give (a public fund, an amount,
// once, the fee covered with its exact total shown), sent to the payment provider's hosted page — replaced
// at the boundary by a local fake of Stripe's API, which the church's real `stripe` client talks to
// (e2e/global-setup.ts) — then the provider's checkout.session.completed, signed by the `stripe` library
// itself, posted to the church's webhook; the gift is in the treasurer's figures, once even when the event
// comes twice, and the visitor lands on /give/thanks. axe-core on each page.

let browser: Browser;
beforeAll(async () => {
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
});

const SLOW = { timeout: 15_000 };
const TREASURER = "treasurer@grace.example";
const MEMBER = "member@grace.example";
const FEE = { percent: 2.9, fixedCents: 30 };

/** A GraphQL call from the page (its session cookie), as the web app makes it. */
async function graphql<T>(page: Page, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const body = await page.evaluate(
    async ({ query, variables }) => {
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", "x-graphql-yoga-csrf": "1" },
        body: JSON.stringify({ query, variables }),
      });
      return (await response.json()) as { data?: unknown; errors?: unknown };
    },
    { query, variables },
  );
  if (body.errors) throw new Error(JSON.stringify(body.errors));
  return body.data as T;
}

const SUMMARY = `query ($from: String!, $to: String!) { givingSummary(from: $from, to: $to) { fund { name } amountCents gifts } }`;
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/** The General Fund's giving around today, as the treasurer reads it (totals without donors). */
async function generalFundTotal(page: Page) {
  const data = await graphql<{
    givingSummary: { fund: { name: string }; amountCents: number; gifts: number }[];
  }>(page, SUMMARY, { from: day(-40), to: day(40) });
  const rows = data.givingSummary.filter((row) => row.fund.name === "General Fund");
  return {
    cents: rows.reduce((sum, row) => sum + row.amountCents, 0),
    gifts: rows.reduce((sum, row) => sum + row.gifts, 0),
  };
}

async function deliver(event: { payload: string; signature: string }) {
  return fetch(`${baseUrl()}/giving/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": event.signature },
    body: event.payload,
  });
}

describe("giving online", () => {
  it("a visitor gives once with the fee covered, pays on the provider's page, and the gift is recorded once", async () => {
    const treasurerContext = await newContext(browser);
    const treasurer = await treasurerContext.newPage();
    await signIn(treasurer, TREASURER, DEMO_PASSWORD);
    const before = await generalFundTotal(treasurer);

    const context = await newContext(browser, "phone");
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto("/give");
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Give" }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(page);

    await page.getByLabel("Fund").selectOption({ label: "General Fund" });
    await page.getByLabel(/^Amount/).fill("25");
    await page.getByLabel("Once").check();
    const charge = coverFee(2500, FEE);
    // The exact fee shown before it is chosen, and the exact total once it is.
    await page.getByLabel(`Add $${((charge - 2500) / 100).toFixed(2)} to cover the processing fee`).check();
    await expect
      .poll(() => page.getByText(`You will give $${(charge / 100).toFixed(2)}`).isVisible(), SLOW)
      .toBe(true);
    await page.getByLabel(/Email for your receipt/).fill("visitor@e2e.example");
    await expectAccessible(page);
    await page.getByRole("button", { name: "Continue to payment" }).click();

    // The provider's hosted checkout (the fake's page), with what the church asked it to charge.
    await page.waitForURL(/\/pay\/cs_test_/, SLOW);
    const id = new URL(page.url()).pathname.split("/pay/")[1]!;
    const session = (await (
      await fetch(`${fakeStripeUrl()}/v1/checkout/sessions/${id}`)
    ).json()) as FakeSession;
    expect(session).toMatchObject({
      mode: "payment",
      amount_total: charge,
      customer_email: "visitor@e2e.example",
      metadata: { flock_person: "", flock_interval: "once", flock_covered_fee_cents: String(charge - 2500) },
    });
    expect(session.success_url).toBe(`${baseUrl()}/give/thanks`);

    // Paid: Stripe tells the church, signed by the library; told twice, it is one gift.
    const event = signedEvent("checkout.session.completed", completedSession(session));
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(event)).status).toBe(200);
    await page.goto(session.success_url);
    await expect
      .poll(() => page.getByRole("heading", { level: 1, name: "Thank you" }).isVisible(), SLOW)
      .toBe(true);
    await expectAccessible(page);

    const after = await generalFundTotal(treasurer);
    expect(after.cents - before.cents).toBe(charge);
    expect(after.gifts - before.gifts).toBe(1);
    expect(errors).toEqual([]);
    await context.close();
    await treasurerContext.close();
  });

  it("a member gives every month, then pauses and cancels it on My giving", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, MEMBER, DEMO_PASSWORD);
    await page.goto("/give");
    await page.getByLabel(/^Amount/).fill("20");
    await page.getByLabel("Every month").check();
    // A member's receipt goes to their own address: no email field.
    expect(await page.getByLabel(/Email for your receipt/).count()).toBe(0);
    await expect.poll(() => page.getByText("You will give $20.00 every month").isVisible(), SLOW).toBe(true);
    await page.getByRole("button", { name: "Continue to payment" }).click();
    await page.waitForURL(/\/pay\/cs_test_/, SLOW);
    const id = new URL(page.url()).pathname.split("/pay/")[1]!;
    const session = (await (
      await fetch(`${fakeStripeUrl()}/v1/checkout/sessions/${id}`)
    ).json()) as FakeSession;
    expect(session).toMatchObject({ mode: "subscription", recurring_interval: "month", amount_total: 2000 });
    const subscription = `sub_e2e_${id.slice(-12)}`;
    expect(
      (await deliver(signedEvent("checkout.session.completed", completedSession(session, subscription))))
        .status,
    ).toBe(200);
    expect(
      (await deliver(signedEvent("invoice.paid", subscriptionInvoice(subscription, session.metadata, 2000))))
        .status,
    ).toBe(200);

    await page.goto("/me/giving");
    const recurring = page.getByRole("region", { name: "Recurring gifts" });
    await expect.poll(() => recurring.getByText("$20.00 every month").isVisible(), SLOW).toBe(true);
    await expectAccessible(page);
    await recurring.getByRole("button", { name: "Pause" }).click();
    await expect.poll(() => recurring.getByText("Paused", { exact: true }).isVisible(), SLOW).toBe(true);
    await expect.poll(() => recurring.getByRole("button", { name: "Resume" }).isVisible(), SLOW).toBe(true);
    page.once("dialog", (dialog) => void dialog.accept());
    await recurring.getByRole("button", { name: "Cancel" }).click();
    await expect.poll(() => recurring.getByText("Cancelled", { exact: true }).isVisible(), SLOW).toBe(true);
    expect(await recurring.getByRole("button", { name: "Resume" }).count()).toBe(0);
    await expectAccessible(page);
    expect(errors).toEqual([]);
    await context.close();
  });

  it("a visitor choosing every month is asked to sign in first", async () => {
    const context = await newContext(browser);
    const page = await context.newPage();
    await page.goto("/give");
    await expect.poll(() => page.getByLabel("Every month").isVisible(), SLOW).toBe(true);
    await page.getByLabel("Every month").check();
    await expect.poll(() => page.getByRole("link", { name: "Sign in" }).first().isVisible(), SLOW).toBe(true);
    expect(await page.getByRole("button", { name: "Continue to payment" }).isDisabled()).toBe(true);
    await expectAccessible(page);
    await context.close();
  });
});
