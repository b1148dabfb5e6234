/**
 * Online giving (issue 29) with the real PocketBase and the real `stripe` library, no network: the
 * library's client talks to a local fake of Stripe's API that records each request (scripts/lib/fake-stripe.ts),
 * and Stripe's webhooks are the library's own signed test events, posted to the gateway's real HTTP
 * endpoint. A gift is recorded once however often (and however concurrently) its event arrives; a bad
 * signature writes nothing; a failed invoice is the webhook event gift.recurring_failed; a member pauses,
 * resumes and cancels their own recurring gift (the provider asked first) and nobody else's; who reads and
 * writes recurring_gifts and giving_provider_events, as a table through REST and GraphQL.
 */
import { randomUUID } from "node:crypto";
import { EventSource } from "eventsource";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import type { RecurringGiftRecord } from "../src/pocketbase/records.ts";
import { coverFee } from "@flock/shared/money";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import {
  createUser,
  errorCode,
  fieldErrors,
  GqlClient,
  pbAs,
  restStatus,
  system,
  testGateway,
  type TestUser,
  createUserWithPermissions,
} from "./helpers.ts";
import {
  GivingCancelRecurringDocument,
  GivingMyRecurringDocument,
  GivingOnlineOptionsDocument,
  GivingPauseRecurringDocument,
  GivingResumeRecurringDocument,
  GivingStartGiftDocument,
} from "./__generated__/operations.ts";
import {
  completedSession,
  FakeStripe,
  signedEvent,
  subscriptionInvoice,
  type FakeSession,
} from "../../scripts/lib/fake-stripe.ts";
import { describeRealtimeColumn } from "./realtime-recording.ts";

// The PocketBase SDK's realtime needs an EventSource (Node 20 has none).
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

const stripe = new FakeStripe();
let gateway: Gateway;
let baseUrl: string;
let su: PocketBase;
const run = randomUUID().slice(0, 6);

let general: { id: string; name: string };
let hidden: { id: string };
let closed: { id: string };
let member: TestUser;
let otherMember: TestUser;
let treasurer: TestUser;
let pastor: TestUser;
let tableGift: RecurringGiftRecord;

beforeAll(async () => {
  su = await system();
  await stripe.start();
  gateway = await testGateway({ payments: stripe.settings() });
  baseUrl = await gateway.listen();
  general = await su
    .collection("funds")
    .create({ name: `General ${run}`, deductible: true, visibility: "public", sort: 1 });
  hidden = await su.collection("funds").create({ name: `Hidden ${run}`, visibility: "hidden", sort: 2 });
  closed = await su.collection("funds").create({ name: `Closed ${run}`, visibility: "closed", sort: 3 });
  member = await createUser();
  otherMember = await createUser();
  treasurer = await createUserWithPermissions(["giving.view", "giving.manage"]);
  pastor = await createUser({ roles: ["Pastor"] });
  // The authorization tables' recurring gift: otherMember's, made as the provider's events make one.
  tableGift = await su.collection("recurring_gifts").create<RecurringGiftRecord>({
    person: otherMember.personId,
    fund: general.id,
    amountCents: 500,
    currency: "USD",
    interval: "monthly",
    status: "active",
    providerRef: `sub_table_${run}`,
  });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await stripe.stop();
});

const gql = (user: TestUser | null, ip = "203.0.113.50") =>
  new GqlClient(gateway, { token: user?.token, ip });

/** POST a signed event to the gateway's webhook endpoint, over real HTTP (the raw body matters). */
async function deliver(event: { payload: string; signature: string }, signature = event.signature) {
  const response = await fetch(`${baseUrl}/giving/webhooks/stripe`, {
    method: "POST",
    headers: { "content-type": "application/json", "stripe-signature": signature },
    body: event.payload,
  });
  return { status: response.status, body: (await response.json()) as { duplicate?: boolean } };
}

const donationsOf = (providerRef: string) =>
  su.collection("donations").getFullList({ filter: su.filter("providerRef = {:ref}", { ref: providerRef }) });
const claimsOf = (eventId: string) =>
  su
    .collection("giving_provider_events")
    .getFullList({ filter: su.filter("eventId = {:id}", { id: eventId }) });

/** Start a gift through GraphQL and return the session the fake provider was asked for. */
async function startGift(user: TestUser | null, input: Record<string, unknown>): Promise<FakeSession> {
  const answer = await gql(user).execute(GivingStartGiftDocument, {
    input: { fundId: general.id, amountCents: 2500, interval: "ONCE", ...input } as never,
  });
  expect(answer.errors).toBeUndefined();
  const id = answer.data!.startGift.url.split("/pay/")[1]!;
  return stripe.sessions.get(id)!;
}

describe("starting a gift", () => {
  it("offers the public funds, the currency and the fee to cover", async () => {
    const answer = await gql(null).execute(GivingOnlineOptionsDocument);
    expect(answer.errors).toBeUndefined();
    const options = answer.data!.onlineGiving;
    expect(options).toMatchObject({ enabled: true, feePercent: 2.9, feeFixedCents: 30 });
    expect(options.maxCents).toBe(GIVING_LIMITS.onlineGiftCentsMax);
    const ids = options.funds.map((f) => f.id);
    expect(ids).toContain(general.id);
    expect(ids).not.toContain(hidden.id);
    expect(ids).not.toContain(closed.id);
  });

  it("sends a visitor to the provider's checkout with the fee covered to the cent, and records nothing yet", async () => {
    const before = stripe.requests.length;
    const answer = await gql(null).execute(GivingStartGiftDocument, {
      input: {
        fundId: general.id,
        amountCents: 5000,
        interval: "ONCE",
        coverFee: true,
        email: "Visitor@Example.org",
      },
    });
    expect(answer.errors).toBeUndefined();
    // 2.9 % + 30¢ on 50.00: the smallest charge that leaves the whole gift is 51.80.
    expect(answer.data!.startGift).toMatchObject({ chargeCents: 5180, coveredFeeCents: 180 });
    expect(coverFee(5000, { percent: 2.9, fixedCents: 30 })).toBe(5180);
    const request = stripe.requests.slice(before);
    expect(request).toHaveLength(1);
    expect(request[0]).toMatchObject({ method: "POST", path: "/v1/checkout/sessions" });
    expect(request[0]!.form).toMatchObject({
      mode: "payment",
      "line_items[0][price_data][unit_amount]": "5180",
      "line_items[0][price_data][currency]": "usd",
      "metadata[flock_fund]": general.id,
      "metadata[flock_person]": "",
      "metadata[flock_interval]": "once",
      "metadata[flock_covered_fee_cents]": "180",
      customer_email: "visitor@example.org",
      success_url: "http://flock.test/give/thanks",
      cancel_url: "http://flock.test/give",
    });
    expect(answer.data!.startGift.url).toBe(
      `${stripe.base}/pay/${answer.data!.startGift.url.split("/pay/")[1]}`,
    );
  });

  it("refuses bad input with field errors, asking the provider nothing", async () => {
    const before = stripe.requests.length;
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ amountCents: 0 }, "amountCents", "out_of_range"],
      [{ amountCents: -500 }, "amountCents", "out_of_range"],
      [{ amountCents: 10.5 }, "amountCents", "out_of_range"],
      [{ amountCents: GIVING_LIMITS.onlineGiftCentsMax + 1 }, "amountCents", "out_of_range"],
      // Within the most, but not with the fee added.
      [{ amountCents: GIVING_LIMITS.onlineGiftCentsMax, coverFee: true }, "amountCents", "out_of_range"],
      [{ fundId: hidden.id }, "fundId", "fund_unavailable"],
      [{ fundId: closed.id }, "fundId", "fund_unavailable"],
      [{ fundId: "nosuchfund12345" }, "fundId", "fund_unavailable"],
      [{ email: "not-an-address" }, "email", "invalid_email"],
      // A visitor's recurring gift: nobody could pause or cancel it.
      [{ interval: "MONTHLY" }, "interval", "sign_in_required"],
    ];
    for (const [input, field, code] of cases) {
      const answer = await gql(null, "203.0.113.51").execute(GivingStartGiftDocument, {
        input: { fundId: general.id, amountCents: 2500, interval: "ONCE", ...input } as never,
      });
      expect(errorCode(answer), JSON.stringify(input)).toBe("BAD_USER_INPUT");
      expect(answer.errors?.[0]?.extensions?.fieldErrorCodes, JSON.stringify(input)).toMatchObject({
        [field]: code,
      });
      expect(fieldErrors(answer)[field]).toBeTruthy();
    }
    expect(stripe.requests.length).toBe(before);
  });

  it("says online giving is not set up when no provider is configured", async () => {
    const off = await testGateway({ payments: null });
    try {
      const client = new GqlClient(off, { ip: "203.0.113.52" });
      const options = await client.execute(GivingOnlineOptionsDocument);
      expect(options.data!.onlineGiving.enabled).toBe(false);
      const answer = await client.execute(GivingStartGiftDocument, {
        input: { fundId: general.id, amountCents: 2500, interval: "ONCE" },
      });
      expect(errorCode(answer)).toBe("SERVICE_UNAVAILABLE");
      expect(answer.errors?.[0]?.extensions?.reason).toBe("online_giving_off");
    } finally {
      await off.close();
    }
  });
});

describe("the provider's webhook", () => {
  it("records a visitor's paid checkout once, anonymous, however often it is delivered", async () => {
    const session = await startGift(null, { amountCents: 4200 });
    const object = completedSession(session);
    const event = signedEvent("checkout.session.completed", object);
    const first = await deliver(event);
    expect(first).toEqual({ status: 200, body: { received: true, duplicate: false } });
    const again = await deliver(event);
    expect(again).toEqual({ status: 200, body: { received: true, duplicate: true } });
    const gifts = await donationsOf(object.payment_intent as string);
    expect(gifts).toHaveLength(1);
    expect(gifts[0]).toMatchObject({
      amountCents: 4200,
      method: "online",
      source: "online",
      person: "",
      batch: "",
      currency: "USD",
      splits: [{ fund: general.id, amountCents: 4200 }],
    });
    // The claim is kept as handled, under the provider's name for the event.
    expect((await claimsOf(event.id)).map((c) => [c.type, c.status])).toEqual([
      ["checkout.session.completed", "done"],
    ]);
  });

  it("records a gift once when the same event arrives five times at the same moment", async () => {
    const session = await startGift(null, { amountCents: 1234 });
    const object = completedSession(session);
    const event = signedEvent("checkout.session.completed", object);
    const answers = await Promise.all(Array.from({ length: 5 }, () => deliver(event)));
    // One handles it; the others find it handled (200) or being handled (409: the provider retries).
    for (const answer of answers) expect([200, 409]).toContain(answer.status);
    expect(answers.filter((a) => a.status === 200 && a.body.duplicate === false)).toHaveLength(1);
    expect(await donationsOf(object.payment_intent as string)).toHaveLength(1);
    expect(await claimsOf(event.id)).toHaveLength(1);
    // A redelivery afterwards is a duplicate, and still one gift.
    expect((await deliver(event)).body.duplicate).toBe(true);
    expect(await donationsOf(object.payment_intent as string)).toHaveLength(1);
  });

  it("answers 409 while another delivery holds the event, and a failed one leaves it for the provider's retry", async () => {
    const session = await startGift(null, { amountCents: 555 });
    const object = completedSession(session);
    const event = signedEvent("checkout.session.completed", object);
    // Another delivery of this event is being handled right now (its claim is fresh).
    const held = await su
      .collection("giving_provider_events")
      .create({ eventId: event.id, type: "gift_paid", status: "processing" });
    expect((await deliver(event)).status).toBe(409);
    expect(await donationsOf(object.payment_intent as string)).toHaveLength(0);
    // That delivery failed and let go: the provider's retry records it.
    await su.collection("giving_provider_events").delete(held.id);
    expect((await deliver(event)).status).toBe(200);
    expect(await donationsOf(object.payment_intent as string)).toHaveLength(1);

    // A payment PocketBase's hook refuses (a fund that does not exist): 500, and no claim is kept.
    const broken = signedEvent("checkout.session.completed", {
      ...completedSession(session),
      payment_intent: `pi_test_broken_${run}`,
      metadata: { ...session.metadata, flock_fund: "nosuchfund00000" },
    });
    expect((await deliver(broken)).status).toBe(500);
    expect(await claimsOf(broken.id)).toHaveLength(0);
    expect(await donationsOf(`pi_test_broken_${run}`)).toHaveLength(0);
  });

  it("records one gift per payment even when two different events tell of it", async () => {
    const session = await startGift(null, { amountCents: 999 });
    const object = completedSession(session);
    await deliver(signedEvent("checkout.session.completed", object));
    await deliver(signedEvent("checkout.session.async_payment_succeeded", object));
    expect(await donationsOf(object.payment_intent as string)).toHaveLength(1);
  });

  it("records a payment whose fund closed after the donor's checkout: the money was taken", async () => {
    const fund = await su
      .collection("funds")
      .create({ name: `Appeal ${run}`, visibility: "public", sort: 4 });
    const session = await startGift(null, { fundId: fund.id, amountCents: 3100 });
    await su.collection("funds").update(fund.id, { visibility: "closed" });
    const object = completedSession(session);
    expect((await deliver(signedEvent("checkout.session.completed", object))).status).toBe(200);
    const gifts = await donationsOf(object.payment_intent as string);
    expect(gifts.map((g) => g.splits)).toEqual([[{ fund: fund.id, amountCents: 3100 }]]);
    // A treasurer's own gift into the closed fund is still refused by the hook.
    const manual = await restStatus(() =>
      pbAs(treasurer)
        .collection("donations")
        .create({
          date: "2026-11-29 00:00:00.000Z",
          amountCents: 100,
          method: "cash",
          splits: [{ fund: fund.id, amountCents: 100 }],
        }),
    );
    expect(manual).toBe(400);
  });

  it("refuses an event whose signature does not verify, writing nothing", async () => {
    const session = await startGift(null, { amountCents: 777 });
    const object = completedSession(session);
    const forged = signedEvent("checkout.session.completed", object, { secret: "whsec_not_the_church_s" });
    expect((await deliver(forged)).status).toBe(400);
    const genuine = signedEvent("checkout.session.completed", object);
    // Signed, then changed on the way: the signature is over the bytes.
    const tampered = {
      ...genuine,
      payload: genuine.payload.replace('"amount_total":777', '"amount_total":1'),
    };
    expect(tampered.payload).not.toBe(genuine.payload);
    expect((await deliver(tampered)).status).toBe(400);
    expect((await deliver(genuine, "")).status).toBe(400);
    expect((await deliver(genuine, "t=1,v1=00")).status).toBe(400);
    expect(await donationsOf(object.payment_intent as string)).toHaveLength(0);
    expect(await claimsOf(forged.id)).toHaveLength(0);
    expect(await claimsOf(genuine.id)).toHaveLength(0);
    // The genuine one, as sent, is recorded.
    expect((await deliver(genuine)).status).toBe(200);
    expect(await donationsOf(object.payment_intent as string)).toHaveLength(1);
  });

  it("answers 405 to anything but POST, and 404 for another provider's path", async () => {
    expect((await fetch(`${baseUrl}/giving/webhooks/stripe`)).status).toBe(405);
    expect((await fetch(`${baseUrl}/giving/webhooks/paypal`, { method: "POST", body: "{}" })).status).toBe(
      404,
    );
  });

  it("keeps nothing of events it has no use for", async () => {
    const event = signedEvent("customer.created", { id: "cus_test_1", object: "customer" });
    expect((await deliver(event)).status).toBe(200);
    expect((await claimsOf(event.id)).map((c) => c.type)).toEqual(["customer.created"]);
  });
});

describe("recurring gifts", () => {
  let subscription: string;
  let metadata: Record<string, string>;
  let gift: RecurringGiftRecord;

  it("are set up by a signed-in member and recorded as theirs, each payment a gift", async () => {
    const session = await startGift(member, { amountCents: 2000, interval: "MONTHLY", coverFee: true });
    expect(session.mode).toBe("subscription");
    expect(session.recurring_interval).toBe("month");
    expect(session.metadata).toMatchObject({ flock_person: member.personId, flock_interval: "monthly" });
    // The member's own address for the receipt.
    expect(session.customer_email).toBe(member.email);
    subscription = `sub_test_${run}`;
    metadata = session.metadata;
    const charge = coverFee(2000, { percent: 2.9, fixedCents: 30 });
    expect(session.amount_total).toBe(charge);
    // The first invoice may arrive before the completed checkout: either one creates the recurring gift.
    const invoice = subscriptionInvoice(subscription, metadata, charge);
    expect((await deliver(signedEvent("invoice.paid", invoice))).status).toBe(200);
    expect(
      (await deliver(signedEvent("checkout.session.completed", completedSession(session, subscription))))
        .status,
    ).toBe(200);
    const rows = await su
      .collection("recurring_gifts")
      .getFullList<RecurringGiftRecord>({ filter: su.filter("providerRef = {:ref}", { ref: subscription }) });
    expect(rows).toHaveLength(1);
    gift = rows[0]!;
    expect(gift).toMatchObject({
      person: member.personId,
      fund: general.id,
      amountCents: charge,
      coveredFeeCents: charge - 2000,
      interval: "monthly",
      status: "active",
      currency: "USD",
    });
    const gifts = await donationsOf(invoice.id as string);
    expect(gifts).toHaveLength(1);
    expect(gifts[0]).toMatchObject({ person: member.personId, amountCents: charge, method: "online" });
    // The member sees it among their gifts and their recurring gifts.
    const mine = await gql(member).execute(GivingMyRecurringDocument);
    expect(mine.data!.myRecurringGifts).toEqual([
      expect.objectContaining({
        id: gift.id,
        fund: { id: general.id },
        interval: "MONTHLY",
        status: "ACTIVE",
        can: { pause: true, resume: false, cancel: true },
      }),
    ]);
  });

  it("a failed payment is the webhook event gift.recurring_failed (the recurring gift's id only)", async () => {
    const hook = await su.collection("webhooks").create({
      url: "https://receiver.example/hooks",
      events: ["gift.recurring_failed"],
      secret: `whsec_${randomUUID().replace(/-/g, "")}`,
      enabled: true,
      createdBy: treasurer.id,
    });
    const invoice = subscriptionInvoice(subscription, metadata, gift.amountCents, { paid: false });
    const event = signedEvent("invoice.payment_failed", invoice);
    expect((await deliver(event)).status).toBe(200);
    expect((await deliver(event)).body.duplicate).toBe(true);
    const deliveries = await su.collection("webhook_deliveries").getFullList({
      filter: su.filter("webhook = {:hook}", { hook: hook.id }),
    });
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({
      type: "gift.recurring_failed",
      payload: expect.objectContaining({ id: gift.id }),
    });
    expect(Object.keys(deliveries[0]!.payload as object).sort()).toEqual(["id", "occurredAt"]);
    const after = await su.collection("recurring_gifts").getOne<RecurringGiftRecord>(gift.id);
    expect(after.failures).toBe(1);
    expect(after.lastFailedAt).not.toBe("");
    expect(await donationsOf(invoice.id as string)).toHaveLength(0);
    await su.collection("webhooks").delete(hook.id);
  });

  it("a member pauses, resumes and cancels their own, the provider asked first", async () => {
    const before = stripe.requests.length;
    const paused = await gql(member).execute(GivingPauseRecurringDocument, { id: gift.id });
    expect(paused.errors).toBeUndefined();
    expect(paused.data!.pauseRecurringGift).toMatchObject({
      status: "PAUSED",
      can: { pause: false, resume: true, cancel: true },
    });
    const resumed = await gql(member).execute(GivingResumeRecurringDocument, { id: gift.id });
    expect(resumed.data!.resumeRecurringGift.status).toBe("ACTIVE");
    const calls = stripe.requests.slice(before);
    expect(calls.map((c) => [c.method, c.path])).toEqual([
      ["POST", `/v1/subscriptions/${subscription}`],
      ["POST", `/v1/subscriptions/${subscription}`],
    ]);
    expect(calls[0]!.form).toEqual({ "pause_collection[behavior]": "void" });
    expect(calls[1]!.form).toEqual({ pause_collection: "" });

    // The provider refusing: nothing changes here either.
    stripe.failing = true;
    const refused = await gql(member).execute(GivingPauseRecurringDocument, { id: gift.id });
    stripe.failing = false;
    expect(errorCode(refused)).toBe("SERVICE_UNAVAILABLE");
    expect((await su.collection("recurring_gifts").getOne(gift.id)).status).toBe("active");

    const cancelled = await gql(member).execute(GivingCancelRecurringDocument, { id: gift.id });
    expect(cancelled.data!.cancelRecurringGift).toMatchObject({
      status: "CANCELLED",
      can: { pause: false, resume: false, cancel: false },
    });
    expect(stripe.requests.at(-1)).toMatchObject({
      method: "DELETE",
      path: `/v1/subscriptions/${subscription}`,
    });
    // A cancelled gift is not brought back, by the member or by a late provider event.
    expect(errorCode(await gql(member).execute(GivingResumeRecurringDocument, { id: gift.id }))).toBe(
      "BAD_USER_INPUT",
    );
    const late = signedEvent("customer.subscription.updated", {
      id: subscription,
      object: "subscription",
      status: "active",
      pause_collection: null,
      metadata,
    });
    expect((await deliver(late)).status).toBe(200);
    expect((await su.collection("recurring_gifts").getOne(gift.id)).status).toBe("cancelled");
  });

  it("follows a cancellation made at the provider", async () => {
    const ref = `sub_test_${run}_b`;
    const session = await startGift(member, { amountCents: 1500, interval: "WEEKLY" });
    await deliver(signedEvent("checkout.session.completed", completedSession(session, ref)));
    const row = await su
      .collection("recurring_gifts")
      .getFirstListItem<RecurringGiftRecord>(su.filter("providerRef = {:ref}", { ref }));
    expect(row).toMatchObject({
      interval: "weekly",
      status: "active",
      amountCents: 1500,
      coveredFeeCents: 0,
    });
    await deliver(
      signedEvent("customer.subscription.deleted", {
        id: ref,
        object: "subscription",
        status: "canceled",
        metadata: session.metadata,
      }),
    );
    expect((await su.collection("recurring_gifts").getOne(row.id)).status).toBe("cancelled");
  });

  it("nobody changes someone else's: another member, finance and a visitor are refused, the provider not asked", async () => {
    const ref = `sub_test_${run}_c`;
    const session = await startGift(member, { amountCents: 1000, interval: "MONTHLY" });
    await deliver(signedEvent("checkout.session.completed", completedSession(session, ref)));
    const row = await su
      .collection("recurring_gifts")
      .getFirstListItem<RecurringGiftRecord>(su.filter("providerRef = {:ref}", { ref }));
    const before = stripe.requests.length;
    for (const [who, user, code] of [
      ["another member", otherMember, "NOT_FOUND"],
      ["a treasurer", treasurer, "NOT_FOUND"],
      ["a pastor", pastor, "NOT_FOUND"],
      ["a visitor", null, "UNAUTHENTICATED"],
    ] as const) {
      expect(errorCode(await gql(user).execute(GivingPauseRecurringDocument, { id: row.id })), who).toBe(
        code,
      );
      expect(errorCode(await gql(user).execute(GivingCancelRecurringDocument, { id: row.id })), who).toBe(
        code,
      );
    }
    expect(stripe.requests.length).toBe(before);
    expect((await su.collection("recurring_gifts").getOne(row.id)).status).toBe("active");
  });
});

describe("who reads and writes the online giving collections", () => {
  const own = () => tableGift;
  it("recurring_gifts: the member reads their own, finance reads all, nobody writes (REST and GraphQL)", async () => {
    // persona → [sees the gift through REST list, REST view status]
    const table: Array<[string, TestUser | null, boolean, number]> = [
      ["visitor", null, false, 404],
      ["the gift's member", otherMember, true, 200],
      ["another member", member, false, 404],
      ["pastor (no finance)", pastor, false, 404],
      ["treasurer (giving.view)", treasurer, true, 200],
    ];
    for (const [who, user, sees, view] of table) {
      const pb = pbAs(user);
      const listed = await pb
        .collection("recurring_gifts")
        .getFullList()
        .catch(() => []);
      expect(
        listed.some((r) => r.id === own().id),
        `${who} list`,
      ).toBe(sees);
      expect(await restStatus(() => pb.collection("recurring_gifts").getOne(own().id)), `${who} view`).toBe(
        view,
      );
      // Writes are the system's: a status flipped here would leave the card charged at the provider.
      expect(
        await restStatus(() => pb.collection("recurring_gifts").update(own().id, { status: "cancelled" })),
        `${who} update`,
      ).not.toBe(200);
      expect(
        await restStatus(() =>
          pb.collection("recurring_gifts").create({
            person: user?.personId ?? otherMember.personId,
            fund: general.id,
            amountCents: 1,
            interval: "monthly",
            status: "active",
            providerRef: `sub_forged_${randomUUID()}`,
          }),
        ),
        `${who} create`,
      ).not.toBe(200);
      expect(
        await restStatus(() => pb.collection("recurring_gifts").delete(own().id)),
        `${who} delete`,
      ).not.toBe(200);
    }
    expect((await su.collection("recurring_gifts").getOne(own().id)).status).toBe("active");
    // GraphQL: myRecurringGifts is the caller's own, whoever reads all through REST.
    const mine = await gql(otherMember).execute(GivingMyRecurringDocument);
    expect(mine.data!.myRecurringGifts.map((g) => g.id)).toContain(own().id);
    for (const user of [member, treasurer, pastor]) {
      const theirs = await gql(user).execute(GivingMyRecurringDocument);
      expect(theirs.data!.myRecurringGifts.map((g) => g.id)).not.toContain(own().id);
    }
    expect(errorCode(await gql(null).execute(GivingMyRecurringDocument))).toBe("UNAUTHENTICATED");
  });

  it("giving_provider_events: the system's alone", async () => {
    for (const user of [null, member, treasurer]) {
      const pb = pbAs(user);
      expect(await restStatus(() => pb.collection("giving_provider_events").getList(1, 1))).not.toBe(200);
      expect(
        await restStatus(() =>
          pb
            .collection("giving_provider_events")
            .create({ eventId: `evt_forged_${randomUUID()}`, status: "done" }),
        ),
      ).not.toBe(200);
    }
  });
});

// PocketBase's own realtime: a change to a recurring gift reaches its member and finance, nobody else.
const PERSONAS = ["visitor", "owner", "member", "pastor", "treasurer"] as const;
type Persona = (typeof PERSONAS)[number];
const personaUser = (who: Persona): TestUser | null =>
  ({ visitor: null, owner: otherMember, member, pastor, treasurer })[who];
describeRealtimeColumn({
  personas: PERSONAS,
  collections: ["recurring_gifts"] as const,
  targetKeys: () => ["gift"],
  targetId: () => tableGift.id,
  allowedTargets: (_, who) => (who === "owner" || who === "treasurer" ? ["gift"] : []),
  client: (who) => pbAs(personaUser(who)),
  su: () => su,
});
