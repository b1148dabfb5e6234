import { describe, expect, it } from "vitest";
import { coverFee, providerFee } from "@flock/shared/money";
import { ConfigurationError, paymentsFromEnv } from "../config.ts";
import {
  FAKE_STRIPE_WEBHOOK_SECRET,
  signedEvent,
  subscriptionInvoice,
} from "../../../scripts/lib/fake-stripe.ts";
import { WebhookSignatureError } from "./provider.ts";
import { StripeProvider } from "./stripe.ts";

// Stripe's events read in the church's terms, verified with the library's own signature check over the
// raw body; no network (nothing here calls Stripe's API).

const provider = new StripeProvider({
  secretKey: "sk_test_unit",
  webhookSecret: FAKE_STRIPE_WEBHOOK_SECRET,
  fee: { percent: 2.9, fixedCents: 30 },
});
const metadata = {
  flock_fund: "fund1234567890a",
  flock_person: "person123456789",
  flock_interval: "monthly",
  flock_covered_fee_cents: "92",
};
const read = (type: string, object: Record<string, unknown>) => {
  const event = signedEvent(type, object, { created: 1_800_000_000 });
  return provider.parseWebhook(Buffer.from(event.payload), { "stripe-signature": event.signature });
};

describe("Stripe's webhooks", () => {
  it("verify the signature over the exact bytes: another secret, a changed body or no header are refused", () => {
    const session = { id: "cs_1", object: "checkout.session", mode: "payment", metadata };
    const forged = signedEvent("checkout.session.completed", session, { secret: "whsec_other" });
    expect(() =>
      provider.parseWebhook(Buffer.from(forged.payload), { "stripe-signature": forged.signature }),
    ).toThrow(WebhookSignatureError);
    const genuine = signedEvent("checkout.session.completed", session);
    expect(() =>
      provider.parseWebhook(Buffer.from(genuine.payload.replace("cs_1", "cs_2")), {
        "stripe-signature": genuine.signature,
      }),
    ).toThrow(WebhookSignatureError);
    expect(() => provider.parseWebhook(Buffer.from(genuine.payload), {})).toThrow(WebhookSignatureError);
    // A signature older than the library's tolerance (5 minutes) is a replay.
    const old = signedEvent("checkout.session.completed", session);
    const stale = `t=${Math.floor(Date.now() / 1000) - 3600},${old.signature.split(",")[1]}`;
    expect(() => provider.parseWebhook(Buffer.from(old.payload), { "stripe-signature": stale })).toThrow(
      WebhookSignatureError,
    );
  });

  it("read a paid one-time checkout as a gift: the payment's id, the amount paid, the fund and donor", () => {
    const event = read("checkout.session.completed", {
      id: "cs_1",
      object: "checkout.session",
      mode: "payment",
      payment_status: "paid",
      amount_total: 5180,
      currency: "usd",
      payment_intent: "pi_1",
      metadata: { ...metadata, flock_interval: "once", flock_covered_fee_cents: "180" },
    });
    expect(event).toEqual({
      kind: "gift_paid",
      eventId: expect.stringMatching(/^evt_test_/),
      type: "checkout.session.completed",
      paymentRef: "pi_1",
      amountCents: 5180,
      coveredFeeCents: 180,
      currency: "USD",
      fundId: metadata.flock_fund,
      personId: metadata.flock_person,
      paidAt: new Date(1_800_000_000_000),
      recurring: null,
    });
  });

  it("leave an unpaid checkout (a bank debit still clearing) and one without the church's metadata alone", () => {
    const base = {
      id: "cs_1",
      object: "checkout.session",
      mode: "payment",
      amount_total: 100,
      currency: "usd",
    };
    expect(read("checkout.session.completed", { ...base, payment_status: "unpaid", metadata }).kind).toBe(
      "ignored",
    );
    expect(read("checkout.session.completed", { ...base, payment_status: "paid", metadata: {} }).kind).toBe(
      "ignored",
    );
    expect(read("charge.refunded", { id: "ch_1", object: "charge" })).toMatchObject({
      kind: "ignored",
      type: "charge.refunded",
    });
  });

  it("read a subscription's checkout as a recurring gift, and its invoices as payments and failures", () => {
    const started = read("checkout.session.completed", {
      id: "cs_2",
      object: "checkout.session",
      mode: "subscription",
      payment_status: "paid",
      amount_total: 2092,
      currency: "usd",
      subscription: "sub_1",
      metadata,
    });
    const recurring = {
      ref: "sub_1",
      personId: metadata.flock_person,
      fundId: metadata.flock_fund,
      amountCents: 2092,
      coveredFeeCents: 92,
      currency: "USD",
      interval: "monthly",
    };
    expect(started).toMatchObject({ kind: "recurring_started", recurring });
    const paid = read("invoice.paid", subscriptionInvoice("sub_1", metadata, 2092, { id: "in_1" }));
    expect(paid).toMatchObject({ kind: "gift_paid", paymentRef: "in_1", amountCents: 2092, recurring });
    const failed = read(
      "invoice.payment_failed",
      subscriptionInvoice("sub_1", metadata, 2092, { paid: false }),
    );
    expect(failed).toMatchObject({
      kind: "recurring_failed",
      recurring,
      failedAt: new Date(1_800_000_000_000),
    });
    // An invoice of someone else's subscription (no metadata of ours) is not the church's.
    expect(read("invoice.paid", subscriptionInvoice("sub_9", {}, 500)).kind).toBe("ignored");
  });

  it("read a subscription paused, resumed or cancelled at the provider", () => {
    const sub = { id: "sub_1", object: "subscription", status: "active", metadata };
    expect(
      read("customer.subscription.updated", { ...sub, pause_collection: { behavior: "void" } }),
    ).toMatchObject({
      kind: "recurring_changed",
      ref: "sub_1",
      status: "paused",
    });
    expect(read("customer.subscription.updated", { ...sub, pause_collection: null })).toMatchObject({
      status: "active",
    });
    expect(read("customer.subscription.deleted", { ...sub, status: "canceled" })).toMatchObject({
      status: "cancelled",
    });
  });
});

describe("covering the fee (shared/src/money.ts#coverFee, docs/DEPLOYMENT.md)", () => {
  // The fee as the provider takes it, worked out apart from money.ts: in exact decimals (BigInt, the
  // percent in hundredths), rounded half up to the cent, plus the fixed part.
  const leaves = (charge: number, fee: { percent: number; fixedCents: number }) => {
    const exact = BigInt(charge) * BigInt(Math.round(fee.percent * 100)); // in 1/10,000 of a cent
    const cents = exact / 10000n + (exact % 10000n >= 5000n ? 1n : 0n);
    return charge - Number(cents) - fee.fixedCents;
  };

  it("charges the least whole-cent amount that leaves the whole gift, for every gift up to 200.00", () => {
    for (const fee of [
      { percent: 2.9, fixedCents: 30 },
      { percent: 1.5, fixedCents: 20 },
      { percent: 3.4, fixedCents: 0 },
      { percent: 0, fixedCents: 0 },
    ]) {
      for (let gift = 1; gift <= 20_000; gift++) {
        const charge = coverFee(gift, fee);
        if (!Number.isInteger(charge) || leaves(charge, fee) < gift || leaves(charge - 1, fee) >= gift)
          expect.fail(`${gift} cents with ${fee.percent}% + ${fee.fixedCents}: charged ${charge}`);
        // The documented formula, ceil((gift + fixed) / (1 − rate)), is within a cent of it.
        const formula = Math.ceil((gift + fee.fixedCents) / (1 - fee.percent / 100));
        if (Math.abs(formula - charge) > 1) expect.fail(`${gift}: formula ${formula}, charged ${charge}`);
      }
    }
  });

  it("gives the figures /give shows, and a fee of exactly half a cent rounds up", () => {
    const fee = { percent: 2.9, fixedCents: 30 };
    // 2.9 % of 5.00 is 14.5¢: the provider takes 15¢ (floating point says 14.499…).
    expect(providerFee(500, fee)).toBe(45);
    expect(coverFee(456, fee)).toBe(501);
    expect(coverFee(2500, fee)).toBe(2606);
    expect(coverFee(5000, fee)).toBe(5180);
    expect(coverFee(4000, fee)).toBe(4150);
    expect(coverFee(1, fee)).toBe(32);
  });
});

describe("Stripe's settings from the environment", () => {
  it("are both secrets or neither, with the fee and another API host if given", () => {
    expect(paymentsFromEnv({})).toBeNull();
    expect(() => paymentsFromEnv({ STRIPE_SECRET_KEY: "sk_x" })).toThrow(ConfigurationError);
    expect(() => paymentsFromEnv({ STRIPE_WEBHOOK_SECRET: "whsec_x" })).toThrow(ConfigurationError);
    expect(paymentsFromEnv({ STRIPE_SECRET_KEY: "sk_x", STRIPE_WEBHOOK_SECRET: "whsec_x" })).toEqual({
      secretKey: "sk_x",
      webhookSecret: "whsec_x",
      fee: { percent: 2.9, fixedCents: 30 },
    });
    expect(
      paymentsFromEnv({
        STRIPE_SECRET_KEY: "sk_x",
        STRIPE_WEBHOOK_SECRET: "whsec_x",
        STRIPE_FEE_PERCENT: "1.5",
        STRIPE_FEE_FIXED_CENTS: "20",
        STRIPE_API_BASE: "http://127.0.0.1:12111",
      }),
    ).toEqual({
      secretKey: "sk_x",
      webhookSecret: "whsec_x",
      fee: { percent: 1.5, fixedCents: 20 },
      api: { host: "127.0.0.1", port: 12111, protocol: "http" },
    });
    for (const bad of [
      { STRIPE_FEE_PERCENT: "-1" },
      { STRIPE_FEE_PERCENT: "abc" },
      { STRIPE_API_BASE: "::" },
    ])
      expect(() =>
        paymentsFromEnv({ STRIPE_SECRET_KEY: "sk_x", STRIPE_WEBHOOK_SECRET: "whsec_x", ...bad }),
      ).toThrow(ConfigurationError);
  });
});
