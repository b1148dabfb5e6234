/**
 * Webhooks (issue 16, QUALITY.md I2): signed per Standard Webhooks (verified here with the
 * `standardwebhooks` library, not our own code), delivered at least once from the queue in the
 * database, retried with backoff, nothing lost when the gateway restarts, private addresses refused
 * (SSRF) unless an administrator allows the host, and a webhook disabled after repeated failures.
 */
import { randomUUID } from "node:crypto";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import { Webhook as StandardWebhook } from "standardwebhooks";
import type { Gateway } from "../src/index.ts";
import { createGateway, prepareGateway } from "../src/index.ts";
import { createUser, errorCode, GqlClient, pbAs, system, testConfig, type TestUser } from "./helpers.ts";
import { runExample, stopExamples } from "./run-example.ts";
import { freePort } from "../../scripts/lib/stack.ts";

/** A local receiver: records every request; answers `answer` (503 while "down"). */
class Receiver {
  readonly requests: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  answer = 204;
  private server: Server | null = null;
  port = 0;
  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      let body = "";
      req.on("data", (chunk: Buffer) => (body += chunk.toString()));
      req.on("end", () => {
        this.requests.push({ headers: req.headers, body });
        res.writeHead(this.answer).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(this.port, "127.0.0.1", resolve));
    this.port = (this.server!.address() as AddressInfo).port;
  }
  async stop(): Promise<void> {
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = null;
  }
  get url() {
    return `http://127.0.0.1:${this.port}/hooks/flock`;
  }
  /** The requests whose event is about record `id`. */
  about(id: string) {
    return this.requests.filter((r) => (JSON.parse(r.body) as { data: { id: string } }).data.id === id);
  }
}

const FAST = { intervalMs: 100, retryDelaysMs: [300, 300, 300, 300] };
let gateway: Gateway;
let su: PocketBase;
let admin: TestUser;
const receiver = new Receiver();
const run = randomUUID().slice(0, 8);

async function startGateway(webhookDelivery: typeof FAST | false = FAST): Promise<Gateway> {
  const g = createGateway(testConfig({ webhookDelivery }));
  await prepareGateway(g);
  await g.listen();
  return g;
}

const CREATE = `mutation ($input: WebhookInput!) { createWebhook(input: $input) { secret webhook { id url events enabled allowPrivateHost } } }`;
async function createWebhook(input: Record<string, unknown>) {
  return new GqlClient(gateway, { token: admin.token }).request<{
    createWebhook: { secret: string; webhook: { id: string; enabled: boolean } };
  }>(CREATE, { input });
}

async function publishPost(title: string, audience: "public" | "members" = "public") {
  const post = await su.collection("posts").create({
    title,
    slug: `${title.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`,
    status: "draft",
    audience,
    author: admin.id,
    revision: 1,
  });
  await su
    .collection("posts")
    .update(post.id, { status: "published", publishedAt: new Date().toISOString() });
  return post;
}

beforeAll(async () => {
  su = await system();
  admin = await createUser({ roles: ["Administrator"] });
  await receiver.start();
  gateway = await startGateway();
}, 60_000);

afterAll(async () => {
  stopExamples();
  await gateway?.close();
  await receiver.stop();
});

describe("webhooks", () => {
  it("refuse private and local addresses unless an administrator allows the host", async () => {
    for (const url of [
      "http://127.0.0.1:9/x",
      "http://localhost:9/x",
      "http://10.1.2.3/x",
      "http://169.254.169.254/latest/meta-data",
      "http://[::1]:9/x",
      "http://192.168.0.10/x",
      "ftp://example.org/x",
    ]) {
      const refused = await createWebhook({ url, events: ["POST_PUBLISHED"] });
      expect(refused.errors?.[0]?.extensions, url).toMatchObject({
        code: "BAD_USER_INPUT",
        fieldErrorCodes: { url: url.startsWith("ftp:") ? "unsupported_scheme" : "private_address" },
      });
    }
    const allowed = await createWebhook({
      url: receiver.url,
      events: ["POST_PUBLISHED"],
      allowPrivateHost: true,
    });
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data!.createWebhook.webhook).toMatchObject({ enabled: true, allowPrivateHost: true });
    expect(allowed.data!.createWebhook.secret).toMatch(/^whsec_[A-Za-z0-9+/=]{32}$/);
    await new GqlClient(gateway, { token: admin.token }).request(
      `mutation { deleteWebhook(id: "${allowed.data!.createWebhook.webhook.id}") }`,
    );
  });

  it("refuse every spelling of a loopback, private, link-local, unique-local, mapped or NAT64 address, when saved and when sent", async () => {
    const port = receiver.port;
    // Each of these reaches (or translates to) a private or local address; the receiver listens on 127.0.0.1.
    const spellings = [
      `http://127.0.0.1:${port}/x`,
      `http://127.1:${port}/x`, // WHATWG URL: 127.0.0.1
      `http://2130706433:${port}/x`, // 127.0.0.1 as one number
      `http://0x7f000001:${port}/x`,
      `http://0.0.0.0:${port}/x`,
      `http://localhost:${port}/x`, // resolved: every address it names is checked
      `http://[::1]:${port}/x`,
      `http://[::]:${port}/x`,
      `http://[::127.0.0.1]:${port}/x`, // IPv4-compatible (::/96)
      `http://[::ffff:127.0.0.1]:${port}/x`, // IPv4-mapped (::ffff:0:0/96)
      `http://[::ffff:7f00:1]:${port}/x`,
      `http://[::ffff:0:127.0.0.1]:${port}/x`, // IPv4-translated (::ffff:0:0:0/96)
      `http://[64:ff9b::127.0.0.1]:${port}/x`, // NAT64 well-known prefix
      `http://[64:ff9b::a00:1]:${port}/x`, // NAT64 of 10.0.0.1
      `http://[64:ff9b:1::a00:1]:${port}/x`, // NAT64 local-use prefix (RFC 8215)
      `http://[2002:7f00:1::]:${port}/x`, // 6to4 of 127.0.0.1
      `http://[fd00::1]:${port}/x`, // unique local
      `http://[fe80::1]:${port}/x`, // link-local
      `http://169.254.169.254/latest/meta-data`,
      `http://100.64.0.1/x`, // carrier-grade NAT
      `http://172.16.5.4/x`,
      `http://[::ffff:169.254.169.254]/x`,
    ];
    for (const url of spellings) {
      const refused = await createWebhook({ url, events: ["POST_PUBLISHED"] });
      expect(refused.errors?.[0]?.extensions, url).toMatchObject({
        code: "BAD_USER_INPUT",
        fieldErrorCodes: { url: "private_address" },
      });
    }
    // A webhook stored by another path (REST, an older version) is checked again before each send:
    // nothing reaches the receiver, and the delivery records why.
    const before = receiver.requests.length;
    const stored: Array<{ id: string }> = [];
    for (const url of [
      `http://[::127.0.0.1]:${port}/hooks/flock`,
      `http://[::ffff:0:127.0.0.1]:${port}/hooks/flock`,
      `http://[::ffff:127.0.0.1]:${port}/hooks/flock`,
      `http://localhost:${port}/hooks/flock`,
    ]) {
      stored.push(
        await su.collection("webhooks").create({
          url,
          events: ["page.published"],
          secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
          enabled: true,
          allowPrivateHost: false,
          consecutiveFailures: 0,
          createdBy: admin.id,
        }),
      );
    }
    try {
      const page = await su.collection("pages").create({
        title: `Guarded page ${run}`,
        slug: `guarded-page-${run}`,
        status: "published",
        revision: 1,
        publishedAt: new Date().toISOString(),
      });
      // This page's deliveries (a page an earlier file scheduled may publish meanwhile: its deliveries
      // are these webhooks' too).
      const rowsOf = async () =>
        (
          await su.collection("webhook_deliveries").getFullList<{
            attempts: number;
            error: string;
            payload: { id?: string } | null;
          }>({
            filter: stored.map((w) => su.filter("webhook = {:w}", { w: w.id })).join(" || "),
          })
        ).filter((row) => row.payload?.id === page.id);
      await expect
        .poll(async () => (await rowsOf()).filter((r) => r.attempts >= 1).length, { timeout: 5000 })
        .toBe(stored.length);
      for (const row of await rowsOf()) expect(row.error).toMatch(/private or local/);
      expect(receiver.requests.length).toBe(before);
    } finally {
      for (const w of stored) await su.collection("webhooks").delete(w.id);
    }
  });

  it("are managed only with api.manage (GraphQL and REST), and never show their secret again", async () => {
    const member = await createUser();
    const client = new GqlClient(gateway, { token: member.token });
    expect(errorCode(await client.request("{ webhooks { id } }"))).toBe("FORBIDDEN");
    expect(
      errorCode(
        await client.request(CREATE, {
          input: { url: "https://example.org/hook", events: ["POST_PUBLISHED"] },
        }),
      ),
    ).toBe("FORBIDDEN");
    const created = await createWebhook({
      url: receiver.url,
      events: ["PAGE_PUBLISHED"],
      allowPrivateHost: true,
    });
    const { id } = created.data!.createWebhook.webhook;
    const asMember = pbAs(member);
    await expect(asMember.collection("webhooks").getFullList()).resolves.toEqual([]);
    const asAdmin = pbAs(admin);
    const record = await asAdmin.collection("webhooks").getOne(id);
    expect(record.secret).toBeUndefined();
    expect(
      JSON.stringify(
        await new GqlClient(gateway, { token: admin.token }).request("{ webhooks { id url events } }"),
      ),
    ).not.toContain(created.data!.createWebhook.secret);
    await new GqlClient(gateway, { token: admin.token }).request(`mutation { deleteWebhook(id: "${id}") }`);
  });

  it("deliver a signed event that the Standard Webhooks library verifies, with the post's absolute URL", async () => {
    const created = await createWebhook({
      url: receiver.url,
      events: ["POST_PUBLISHED", "POST_UPDATED"],
      allowPrivateHost: true,
    });
    const { secret, webhook } = created.data!.createWebhook;
    try {
      const post = await publishPost(`Signed news ${run}`);
      await expect.poll(() => receiver.about(post.id).length, { timeout: 5000 }).toBe(1);
      const [request] = receiver.about(post.id);
      const verified = new StandardWebhook(secret).verify(
        request!.body,
        request!.headers as Record<string, string>,
      ) as { type: string; timestamp: string; data: Record<string, unknown> };
      expect(verified).toMatchObject({
        type: "post.published",
        data: {
          id: post.id,
          title: `Signed news ${run}`,
          audience: "public",
          url: `http://flock.test/news/signed-news-${run}`,
        },
      });
      expect(Date.parse(verified.timestamp)).toBeGreaterThan(Date.now() - 60_000);
      // A tampered body or another secret fails verification (the check is real).
      expect(() =>
        new StandardWebhook(secret).verify(
          request!.body.replace("Signed", "Forged"),
          request!.headers as Record<string, string>,
        ),
      ).toThrow();
      expect(() =>
        new StandardWebhook(`whsec_${Buffer.from("another secret, 24 bytes!").toString("base64")}`).verify(
          request!.body,
          request!.headers as Record<string, string>,
        ),
      ).toThrow();
      // A members-only post's event names no title.
      const members = await publishPost(`Members news ${run}`, "members");
      await expect.poll(() => receiver.about(members.id).length, { timeout: 5000 }).toBe(1);
      const data = (JSON.parse(receiver.about(members.id)[0]!.body) as { data: Record<string, unknown> })
        .data;
      expect(data).toMatchObject({ id: members.id, audience: "members" });
      expect(data.title).toBeUndefined();
      // The delivery log shows it.
      const log = await new GqlClient(gateway, { token: admin.token }).request<{
        webhooks: Array<{
          id: string;
          deliveries: Array<{ event: string; status: string; attempts: number; responseStatus: number }>;
        }>;
      }>("{ webhooks { id deliveries { event status attempts responseStatus } } }");
      expect(log.data!.webhooks.find((w) => w.id === webhook.id)!.deliveries).toEqual(
        expect.arrayContaining([
          { event: "POST_PUBLISHED", status: "SUCCEEDED", attempts: 1, responseStatus: 204 },
        ]),
      );
    } finally {
      await new GqlClient(gateway, { token: admin.token }).request(
        `mutation { deleteWebhook(id: "${webhook.id}") }`,
      );
    }
  });

  it("never tell an integration about a group's prayer request", async () => {
    const created = await createWebhook({
      url: receiver.url,
      events: ["PRAYER_APPROVED"],
      allowPrivateHost: true,
    });
    const { webhook } = created.data!.createWebhook;
    try {
      const group = await su.collection("groups").create({
        name: `Hooks ${run}`,
        slug: `hooks-${run}`,
        type: "team",
        locationDisplay: "hidden",
        visibility: "public",
        joinPolicy: "closed",
        rosterVisibility: "leaders",
        status: "active",
      });
      const request = (fields: Record<string, unknown>) =>
        su.collection("prayer_requests").create({
          body: "Please pray for the week ahead.",
          visibility: "members",
          anonymous: true,
          authorName: "",
          status: "pending",
          prayedCount: 0,
          flagCount: 0,
          ...fields,
        });
      const [onWall, forGroup] = [await request({}), await request({ group: group.id })];
      // The delivery rows are written inside the approving save.
      for (const r of [onWall, forGroup])
        await su.collection("prayer_requests").update(r.id, { status: "approved" });
      const rows = await su
        .collection("webhook_deliveries")
        .getFullList<{ payload: { id: string } }>({ filter: su.filter("webhook = {:w}", { w: webhook.id }) });
      expect(rows.map((row) => row.payload.id)).toEqual([onWall.id]);
    } finally {
      await new GqlClient(gateway, { token: admin.token }).request(
        `mutation { deleteWebhook(id: "${webhook.id}") }`,
      );
    }
  });

  it("tell an integration when someone answers a request to serve or takes a place: ids only, no names", async () => {
    const created = await createWebhook({
      url: receiver.url,
      events: ["SERVING_ACCEPTED", "SERVING_DECLINED"],
      allowPrivateHost: true,
    });
    const { webhook } = created.data!.createWebhook;
    try {
      const team = await su
        .collection("serving_teams")
        .create({ name: `Hooks team ${run}`, status: "active" });
      const position = await su.collection("serving_positions").create({ team: team.id, name: "Greeter" });
      const people = await Promise.all(
        ["Ann", "Bo"].map((firstName) =>
          su.collection("people").create({ firstName, lastName: run, recordStatus: "active" }),
        ),
      );
      for (const person of people)
        await su.collection("serving_members").create({
          team: team.id,
          person: person.id,
          role: "member",
          status: "active",
          positions: [position.id],
        });
      const plan = await su
        .collection("serving_plans")
        .create({ title: "Sunday", date: "2031-02-02 00:00:00.000Z", status: "published" });
      const need = await su
        .collection("serving_needs")
        .create({ plan: plan.id, position: position.id, count: 2 });
      const [yes, no] = await Promise.all(
        people.map((person) =>
          su.collection("serving_requests").create({ need: need.id, person: person.id }),
        ),
      );
      // Asking is no event; answering is, written inside the answering save.
      await su.collection("serving_requests").update(yes!.id, { status: "accepted" });
      await su.collection("serving_requests").update(no!.id, { status: "declined", declineReason: "Away" });
      // A place taken by a swap is accepted at once: an event too (the place it replaced is not).
      await su.collection("serving_requests").update(yes!.id, { swapOpen: true });
      const third = await su
        .collection("people")
        .create({ firstName: "Cy", lastName: run, recordStatus: "active" });
      await su.collection("serving_members").create({
        team: team.id,
        person: third.id,
        role: "member",
        status: "active",
        positions: [position.id],
      });
      const taken = await su.collection("serving_requests").create({
        need: need.id,
        person: third.id,
        source: "swap",
        replaces: yes!.id,
        status: "accepted",
      });
      const rows = await su
        .collection("webhook_deliveries")
        .getFullList<{ type: string; payload: Record<string, unknown> }>({
          filter: su.filter("webhook = {:w}", { w: webhook.id }),
          sort: "created",
        });
      expect(rows.map((row) => [row.type, row.payload.id])).toEqual([
        ["serving.accepted", yes!.id],
        ["serving.declined", no!.id],
        ["serving.accepted", taken.id],
      ]);
      expect(rows[1]!.payload).toMatchObject({ plan: plan.id, position: position.id, person: people[1]!.id });
      expect(JSON.stringify(rows.map((row) => row.payload))).not.toMatch(/Ann|Bo|Cy|Away/);
    } finally {
      await new GqlClient(gateway, { token: admin.token }).request(
        `mutation { deleteWebhook(id: "${webhook.id}") }`,
      );
    }
  });

  it("tell an integration when a child is checked in and out: ids only, never a name or a code", async () => {
    const created = await createWebhook({
      url: receiver.url,
      events: ["CHECKIN_CHECKED_IN", "CHECKIN_CHECKED_OUT"],
      allowPrivateHost: true,
    });
    const { webhook } = created.data!.createWebhook;
    try {
      const room = await su.collection("checkin_rooms").create({ name: `Hook room ${run}`, active: true });
      const session = await su.collection("checkin_sessions").create({
        name: `Hook session ${run}`,
        startsAt: new Date().toISOString().replace("T", " "),
        opensMinutes: 30,
        closesMinutes: 30,
        rooms: [room.id],
      });
      const child = await su
        .collection("people")
        .create({ firstName: "Kit", lastName: `Hook${run}`, recordStatus: "active", householdRole: "child" });
      const checkin = await su
        .collection("checkins")
        .create({ session: session.id, room: room.id, person: child.id, kind: "child" });
      await su
        .collection("checkins")
        .update(checkin.id, { checkedOutAt: new Date().toISOString(), pickupCode: checkin.code });
      const rows = await su
        .collection("webhook_deliveries")
        .getFullList<{ type: string; payload: Record<string, unknown> }>({
          filter: su.filter("webhook = {:w}", { w: webhook.id }),
          sort: "created",
        });
      expect(rows.map((row) => row.type)).toEqual(["checkin.checked_in", "checkin.checked_out"]);
      expect(rows[0]!.payload).toMatchObject({
        id: checkin.id,
        session: session.id,
        room: room.id,
        firstTime: true,
      });
      // Delivered signed, as every event is.
      await expect
        .poll(() => receiver.about(checkin.id).length, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(2);
      expect(JSON.stringify(rows.map((row) => row.payload))).not.toContain("Kit");
      expect(JSON.stringify(rows.map((row) => row.payload))).not.toContain(checkin.code);
    } finally {
      await new GqlClient(gateway, { token: admin.token }).request(
        `mutation { deleteWebhook(id: "${webhook.id}") }`,
      );
    }
  });

  it("tell an integration a gift was recorded: its id only, never a donor or an amount", async () => {
    const created = await createWebhook({
      url: receiver.url,
      events: ["GIFT_RECEIVED"],
      allowPrivateHost: true,
    });
    const { webhook } = created.data!.createWebhook;
    try {
      const fund = await su.collection("funds").create({ name: `Hook fund ${run}`, visibility: "hidden" });
      const donor = await su
        .collection("people")
        .create({ firstName: "Gus", lastName: `Giver${run}`, recordStatus: "active" });
      const gift = await su.collection("donations").create({
        person: donor.id,
        date: "2026-11-29 00:00:00.000Z",
        amountCents: 12345,
        method: "cash",
        splits: [{ fund: fund.id, amountCents: 12345 }],
      });
      // A change of the gift is not a new gift.
      await su.collection("donations").update(gift.id, { note: "counted twice" });
      const rows = await su
        .collection("webhook_deliveries")
        .getFullList<{ type: string; payload: Record<string, unknown> }>({
          filter: su.filter("webhook = {:w}", { w: webhook.id }),
        });
      expect(rows.map((row) => row.type)).toEqual(["gift.received"]);
      expect(rows[0]!.payload).toEqual({ id: gift.id, occurredAt: expect.any(String) });
      await expect.poll(() => receiver.about(gift.id).length, { timeout: 10_000 }).toBe(1);
      expect(JSON.stringify(receiver.about(gift.id))).not.toMatch(/Gus|12345|123\.45/);
    } finally {
      await new GqlClient(gateway, { token: admin.token }).request(
        `mutation { deleteWebhook(id: "${webhook.id}") }`,
      );
    }
  });

  it("tell an integration a recurring gift's payment failed: the recurring gift's id only", async () => {
    const created = await createWebhook({
      url: receiver.url,
      events: ["GIFT_RECURRING_FAILED"],
      allowPrivateHost: true,
    });
    const { webhook } = created.data!.createWebhook;
    try {
      const fund = await su.collection("funds").create({ name: `Hook fund ${run} b`, visibility: "public" });
      const donor = await su
        .collection("people")
        .create({ firstName: "Rita", lastName: `Regular${run}`, recordStatus: "active" });
      // As online-records.ts writes it when the provider says an invoice failed.
      const recurring = await su.collection("recurring_gifts").create({
        person: donor.id,
        fund: fund.id,
        amountCents: 5000,
        currency: "USD",
        interval: "monthly",
        status: "active",
        providerRef: `sub_hook_${run}`,
      });
      await su.collection("recurring_gifts").update(recurring.id, { status: "paused" });
      await su
        .collection("recurring_gifts")
        .update(recurring.id, { lastFailedAt: "2026-11-29 10:00:00.000Z", failures: 1 });
      const rows = await su
        .collection("webhook_deliveries")
        .getFullList<{ type: string; payload: Record<string, unknown> }>({
          filter: su.filter("webhook = {:w}", { w: webhook.id }),
        });
      expect(rows.map((row) => row.type)).toEqual(["gift.recurring_failed"]);
      expect(rows[0]!.payload).toEqual({ id: recurring.id, occurredAt: expect.any(String) });
      await expect.poll(() => receiver.about(recurring.id).length, { timeout: 10_000 }).toBe(1);
      expect(JSON.stringify(receiver.about(recurring.id))).not.toMatch(/Rita|5000|50\.00/);
    } finally {
      await new GqlClient(gateway, { token: admin.token }).request(
        `mutation { deleteWebhook(id: "${webhook.id}") }`,
      );
    }
  });

  it("retry while the receiver is down, and a gateway restart in between loses nothing", async () => {
    const created = await createWebhook({
      url: receiver.url,
      events: ["PAGE_PUBLISHED"],
      allowPrivateHost: true,
    });
    const { secret, webhook } = created.data!.createWebhook;
    try {
      receiver.answer = 503;
      const page = await su.collection("pages").create({
        title: `Restart page ${run}`,
        slug: `restart-page-${run}`,
        status: "published",
        revision: 1,
        publishedAt: new Date().toISOString(),
      });
      // At least one attempt fails while the receiver is down…
      await expect.poll(() => receiver.about(page.id).length, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
      // …then the gateway goes away (its queue is the database) and the receiver comes back.
      await gateway.close();
      const failedAttempts = receiver.about(page.id).length;
      receiver.answer = 200;
      gateway = await startGateway();
      await expect.poll(() => receiver.about(page.id).length, { timeout: 5000 }).toBe(failedAttempts + 1);
      const attempts = receiver.about(page.id);
      // Every attempt is the same message: the same webhook-id (receivers dedupe by it) and body.
      expect(new Set(attempts.map((a) => a.headers["webhook-id"])).size).toBe(1);
      expect(new Set(attempts.map((a) => a.body)).size).toBe(1);
      expect(
        new StandardWebhook(secret).verify(
          attempts.at(-1)!.body,
          attempts.at(-1)!.headers as Record<string, string>,
        ),
      ).toMatchObject({ type: "page.published" });
      // The page's own row (its webhook-id): the restarted gateway also publishes what an earlier file
      // scheduled, and such a page's delivery is this webhook's too.
      const row = await su
        .collection("webhook_deliveries")
        .getOne(String(attempts[0]!.headers["webhook-id"]));
      expect(row).toMatchObject({ status: "succeeded", attempts: failedAttempts + 1, responseStatus: 200 });
    } finally {
      receiver.answer = 204;
      await new GqlClient(gateway, { token: admin.token }).request(
        `mutation { deleteWebhook(id: "${webhook.id}") }`,
      );
    }
  });

  it("disable a webhook after 3 deliveries in a row fail for good, tell its managers, and redeliver on request", async () => {
    const created = await createWebhook({
      url: receiver.url,
      events: ["SERMON_PUBLISHED"],
      allowPrivateHost: true,
    });
    const { webhook } = created.data!.createWebhook;
    try {
      receiver.answer = 500;
      const sermons = [];
      for (let i = 0; i < 3; i++) {
        sermons.push(
          await su.collection("sermons").create({
            title: `Failing sermon ${i} ${run}`,
            slug: `failing-sermon-${i}-${run}`,
            status: "published",
            publishedAt: new Date().toISOString(),
          }),
        );
      }
      const rowsOf = () =>
        su
          .collection("webhook_deliveries")
          .getFullList({ filter: su.filter("webhook = {:w}", { w: webhook.id }) });
      // Each delivery: 1 attempt + 4 retries, then it fails; the third failure disables the webhook.
      // Another sermon may be published meanwhile (one an earlier file scheduled, published on time by
      // this listening gateway's scheduler): its delivery is this webhook's too, so the assertions go by
      // order, not count.
      await expect
        .poll(async () => (await su.collection("webhooks").getOne(webhook.id)).enabled, { timeout: 15_000 })
        .toBe(false);
      const failedInOrder = (await rowsOf())
        .filter((r) => r.status === "failed")
        .sort((a, b) => String(a.lastAttemptAt).localeCompare(String(b.lastAttemptAt)));
      // The three that disabled it each failed only after all its attempts.
      expect(failedInOrder.length).toBeGreaterThanOrEqual(3);
      expect(failedInOrder.slice(0, 3).map((r) => r.attempts)).toEqual([5, 5, 5]);
      // Ours all end failed (one still queued when the webhook went off fails at its next turn).
      const ours = new Set(sermons.map((s) => s.id));
      await expect
        .poll(
          async () =>
            (await rowsOf()).filter(
              (r) => ours.has((r.payload as { id?: string }).id ?? "") && r.status === "failed",
            ).length,
          { timeout: 5000 },
        )
        .toBe(3);
      const after = await su.collection("webhooks").getOne(webhook.id);
      expect(after).toMatchObject({ enabled: false, consecutiveFailures: 3 });
      expect(after.disabledReason).toMatch(/3 deliveries failed in a row/);
      // Every manager is told (the test database holds many administrators: this one is among them).
      await expect
        .poll(
          async () =>
            (
              await su.collection("notifications").getFullList({
                filter: su.filter("user = {:u} && kind = 'webhook_disabled'", { u: admin.id }),
              })
            ).length,
          { timeout: 5000 },
        )
        .toBeGreaterThanOrEqual(1);

      // While disabled nothing is queued; back on, a failed delivery can be sent again.
      receiver.answer = 204;
      const admin$ = new GqlClient(gateway, { token: admin.token });
      const on = await admin$.request<{
        setWebhookEnabled: { enabled: boolean; consecutiveFailures: number };
      }>(
        `mutation { setWebhookEnabled(id: "${webhook.id}", enabled: true) { enabled consecutiveFailures } }`,
      );
      expect(on.data?.setWebhookEnabled).toEqual({ enabled: true, consecutiveFailures: 0 });
      const failed = (await rowsOf())[0]!;
      const redeliver = await admin$.request<{ redeliverWebhook: { status: string } }>(
        `mutation { redeliverWebhook(deliveryId: "${failed.id}") { status } }`,
      );
      expect(redeliver.data?.redeliverWebhook.status).toBe("PENDING");
      await expect
        .poll(async () => (await su.collection("webhook_deliveries").getOne(failed.id)).status, {
          timeout: 5000,
        })
        .toBe("succeeded");
      const sent = receiver.requests.filter((r) => r.headers["webhook-id"] === failed.id);
      expect(sent.at(-1)!.headers["webhook-id"]).toBe(failed.id);
    } finally {
      receiver.answer = 204;
      await new GqlClient(gateway, { token: admin.token }).request(
        `mutation { deleteWebhook(id: "${webhook.id}") }`,
      );
    }
  });
  it("a receiver that accepts and never answers holds up only itself: another webhook's delivery arrives meanwhile", async () => {
    // The silent receiver reads each request and never answers (the attempt times out after 10 s).
    const hanging: ServerResponse[] = [];
    const silent = createServer((req, res) => {
      req.resume();
      hanging.push(res);
    });
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const silentPort = (silent.address() as AddressInfo).port;
    const healthy = new Receiver();
    await healthy.start();
    const admin$ = new GqlClient(gateway, { token: admin.token });
    const [quiet, prompt] = [
      await createWebhook({
        url: `http://127.0.0.1:${silentPort}/hook`,
        events: ["SERMON_PUBLISHED"],
        allowPrivateHost: true,
      }),
      await createWebhook({ url: healthy.url, events: ["PAGE_PUBLISHED"], allowPrivateHost: true }),
    ];
    try {
      await su.collection("sermons").create({
        title: `Silent sermon ${run}`,
        slug: `silent-sermon-${run}`,
        status: "published",
        publishedAt: new Date().toISOString(),
      });
      await expect.poll(() => hanging.length, { timeout: 5000 }).toBe(1);
      const page = await su.collection("pages").create({
        title: `Prompt page ${run}`,
        slug: `prompt-page-${run}`,
        status: "published",
        revision: 1,
        publishedAt: new Date().toISOString(),
      });
      // Well inside the silent receiver's 10 s timeout, which is still running.
      await expect.poll(() => healthy.about(page.id).length, { timeout: 4000 }).toBe(1);
      expect(hanging.map((res) => res.writableEnded)).toEqual([false]);
    } finally {
      for (const res of hanging) res.end();
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
      await healthy.stop();
      for (const created of [quiet, prompt])
        await admin$.request(`mutation { deleteWebhook(id: "${created.data!.createWebhook.webhook.id}") }`);
    }
  });

  it("two gateway processes on one database deliver each event once (rows are claimed atomically)", async () => {
    const second = await startGateway();
    const created = await createWebhook({
      url: receiver.url,
      events: ["PAGE_PUBLISHED"],
      allowPrivateHost: true,
    });
    const { webhook } = created.data!.createWebhook;
    try {
      const pages = [];
      for (let i = 0; i < 6; i++)
        pages.push(
          await su.collection("pages").create({
            title: `Twice page ${i} ${run}`,
            slug: `twice-page-${i}-${run}`,
            status: "published",
            revision: 1,
            publishedAt: new Date().toISOString(),
          }),
        );
      for (const page of pages)
        await expect.poll(() => receiver.about(page.id).length, { timeout: 5000 }).toBeGreaterThanOrEqual(1);
      // Both processes poll every 100 ms: give a second send every chance to happen.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(pages.map((page) => receiver.about(page.id).length)).toEqual(pages.map(() => 1));
    } finally {
      await second.close();
      await new GqlClient(gateway, { token: admin.token }).request(
        `mutation { deleteWebhook(id: "${webhook.id}") }`,
      );
    }
  });

  it("examples/webhook-receiver.mjs verifies a real delivery and refuses a forged one", async () => {
    const port = await freePort();
    const created = await new GqlClient(gateway, { token: admin.token }).request<{
      createWebhook: { secret: string; webhook: { id: string } };
    }>(`mutation ($input: WebhookInput!) { createWebhook(input: $input) { secret webhook { id } } }`, {
      input: { url: `http://127.0.0.1:${port}/`, events: ["PAGE_PUBLISHED"], allowPrivateHost: true },
    });
    const { secret, webhook } = created.data!.createWebhook;
    try {
      let output = "";
      const receiving = runExample(
        "webhook-receiver.mjs",
        { FLOCK_WEBHOOK_SECRET: secret, PORT: String(port) },
        (out) => ((output = out), out.includes("listening")),
      );
      await receiving;
      const page = await su.collection("pages").create({
        title: `Examples page ${run}`,
        slug: `examples-page-${run}`,
        status: "published",
        revision: 1,
        publishedAt: new Date().toISOString(),
      });
      await expect
        .poll(() => output, { timeout: 5000 })
        .toContain(`verified page.published {"id":"${page.id}"`);
      expect(output).toContain(`"url":"http://flock.test/p/examples-page-${run}"`);
      // A request without a valid signature is refused with 401.
      const forged = await fetch(`http://127.0.0.1:${port}/`, {
        method: "POST",
        headers: {
          "webhook-id": "msg_forged",
          "webhook-timestamp": String(Math.floor(Date.now() / 1000)),
          "webhook-signature": "v1,AAAA",
        },
        body: "{}",
      });
      expect(forged.status).toBe(401);
      await expect.poll(() => output).toContain("refused: bad or missing signature");
    } finally {
      await new GqlClient(gateway, { token: admin.token }).request(
        `mutation { deleteWebhook(id: "${webhook.id}") }`,
      );
    }
  });
});
