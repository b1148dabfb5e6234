/**
 * The prayer wall (PRODUCT.md §4, §5, §9) through GraphQL against a real PocketBase: submitting
 * (members, visitors, anonymous; validation, honeypot, per-IP throttle), moderation (queue, approve,
 * reject, edit, three flags back to pending), "I prayed" once per day per user and per device, the
 * praise report, and the anonymity guarantee: who asked for an anonymous request appears in no
 * response for anyone but pastoral staff.
 */
import { randomUUID } from "node:crypto";
import { print, type DocumentNode } from "graphql";
import type { TypedDocumentNode } from "@graphql-typed-document-node/core";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { THROTTLE } from "@flock/shared/limits";
import { DEVICE_COOKIE } from "../src/schema/prayer/device.ts";
import { waitForMail } from "../../scripts/lib/smtp-catcher.ts";
import {
  createUser,
  errorCode,
  expectRateLimited,
  GqlClient,
  system,
  testGateway,
  uniqueEmail,
  type GqlResult,
  type TestUser,
  catcherUrl,
} from "./helpers.ts";
import {
  PrayerAnsweredDocument,
  PrayerApproveDocument,
  PrayerEditDocument,
  PrayerFlagDocument,
  PrayerMineDocument,
  PrayerOneDocument,
  PrayerPrayDocument,
  PrayerQueueDocument,
  PrayerRejectDocument,
  PrayerSubmitDocument,
  PrayerWallDocument,
  type PrayerFieldsFragment,
  type PrayerRequestInput,
  type PrayerWallFilter,
} from "./__generated__/operations.ts";

// The operations are in ./operations/prayer.graphql (typed by npm run codegen).
const SUBMIT = PrayerSubmitDocument;
const WALL = PrayerWallDocument;
const ONE = PrayerOneDocument;
const QUEUE = PrayerQueueDocument;
const MINE = PrayerMineDocument;
const PRAY = PrayerPrayDocument;
const FLAG = PrayerFlagDocument;
const APPROVE = PrayerApproveDocument;
const REJECT = PrayerRejectDocument;
const EDIT = PrayerEditDocument;
const ANSWERED = PrayerAnsweredDocument;
type PrayerNode = PrayerFieldsFragment;

let gateway: Gateway;
let su: PocketBase;
let pastor: TestUser;
let moderator: TestUser;
let editor: TestUser;
let member: TestUser;
let otherMember: TestUser;
let ipCounter = 0;

/** A visitor from an address of their own (each starts with a fresh throttle). */
const visitor = () => new GqlClient(gateway, { ip: `198.51.100.${++ipCounter}` });
const asUser = (user: TestUser) => new GqlClient(gateway, { token: user.token });
const body = (label = "") => `Please pray for my family this week ${label} ${randomUUID().slice(0, 8)}`;

async function submit(
  client: GqlClient,
  input: Omit<PrayerRequestInput, "visibility" | "anonymous"> & Partial<PrayerRequestInput>,
): Promise<PrayerNode> {
  const result = await client.execute(SUBMIT, {
    input: { visibility: "PUBLIC", anonymous: false, ...input },
  });
  expect(result.errors).toBeUndefined();
  return result.data!.submitPrayerRequest;
}

async function approve(id: string, as: TestUser = moderator): Promise<PrayerNode> {
  const result = await asUser(as).execute(APPROVE, { id });
  expect(result.errors).toBeUndefined();
  return result.data!.approvePrayerRequest;
}

async function wallIds(client: GqlClient, filter: PrayerWallFilter = "ALL"): Promise<string[]> {
  const result = await client.execute(WALL, { first: 100, filter });
  expect(result.errors).toBeUndefined();
  return result.data!.prayerWall.edges.map((e) => e.node.id);
}

/** A visitor's GraphQL call with (or without) a device cookie; returns the cookie the gateway set, if any. */
async function asDevice<T, V>(
  document: TypedDocumentNode<T, V>,
  variables: V,
  device: string | null,
  ip = "198.51.100.250",
) {
  const query = print(document);
  const headers = new Headers({ "content-type": "application/json" });
  if (device) headers.set("cookie", `${DEVICE_COOKIE}=${device}`);
  const response = await gateway.yoga.fetch(
    "http://flock.test/graphql",
    { method: "POST", headers, body: JSON.stringify({ query, variables }) },
    { clientIp: ip },
  );
  const setCookie = response.headers.getSetCookie().find((c) => c.startsWith(`${DEVICE_COOKIE}=`)) ?? null;
  const json = (await response.json()) as { data: T; errors?: GqlResult["errors"] };
  const result: GqlResult<T> = {
    status: response.status,
    data: json.data ?? null,
    errors: json.errors,
    headers: response.headers,
  };
  return {
    json,
    result,
    setCookie,
    device: setCookie ? decodeURIComponent(/^[^=]+=([^;]*)/.exec(setCookie)![1]!) : device,
  };
}

const notificationsOf = (userId: string, kind: string) =>
  su
    .collection("notifications")
    .getFullList({ filter: su.filter("user = {:u} && kind = {:k}", { u: userId, k: kind }) });

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  // A moderator without pastoral rights: the seeded Care Team and Pastor roles have both.
  const role = await su
    .collection("roles")
    .create({ name: `Prayer moderators ${randomUUID().slice(0, 6)}`, permissions: ["prayer.moderate"] });
  [pastor, moderator, editor, member, otherMember] = await Promise.all([
    createUser({ roles: ["Pastor"] }),
    createUser({ name: "Mo Derator" }),
    createUser({ roles: ["Editor"] }),
    createUser({ name: "Mary Member" }),
    createUser({ name: "Otto Other" }),
  ]);
  await su.collection("users").update(moderator.id, { roles: [role.id] });
});
afterAll(() => gateway.close());

describe("submitting", () => {
  it("a member's request waits for moderation under their name; they see it as theirs", async () => {
    const request = await submit(asUser(member), { body: body("member") });
    expect(request).toMatchObject({
      status: "PENDING",
      authorName: "Mary Member",
      anonymous: false,
      isMine: true,
      prayedCount: 0,
    });
    expect(request.requester).toMatchObject({
      name: "Mary Member",
      email: member.email,
      person: { id: member.personId },
    });
    const stored = await su
      .collection("prayer_request_private")
      .getFirstListItem(su.filter("request = {:id}", { id: request.id }));
    expect(stored).toMatchObject({
      user: member.id,
      person: member.personId,
      submitterName: "Mary Member",
      submitterEmail: member.email,
    });
    // Not on the wall yet, for anyone.
    expect(await wallIds(asUser(otherMember))).not.toContain(request.id);
    expect((await asUser(otherMember).execute(ONE, { id: request.id })).data!.prayerRequest).toBeNull();
    const mine = await asUser(member).execute(MINE);
    expect(mine.data!.myPrayerRequests.edges.map((e) => e.node.id)).toContain(request.id);
  });

  it("a visitor gives a name and an email; an anonymous visitor only an email", async () => {
    const email = uniqueEmail("visitor");
    const named = await submit(visitor(), { body: body("visitor"), name: "Vera Visitor", email });
    // A visitor's answer shows the first name only, as the public wall does (issue 10); the stored name is whole.
    expect(named).toMatchObject({ status: "PENDING", authorName: "Vera", isMine: false, requester: null });
    const anonymous = await submit(visitor(), {
      body: body("anon visitor"),
      anonymous: true,
      email: uniqueEmail("anon"),
    });
    expect(anonymous).toMatchObject({
      status: "PENDING",
      authorName: null,
      anonymous: true,
      requester: null,
    });
    const row = await su
      .collection("prayer_request_private")
      .getFirstListItem(su.filter("request = {:id}", { id: named.id }));
    expect(row).toMatchObject({ user: "", submitterName: "Vera Visitor", submitterEmail: email });
    // The moderator sees the visitor's name on the request, never who asked the anonymous one.
    const queue = await asUser(moderator).execute(QUEUE, { first: 100 });
    const nodes = queue.data!.prayerQueue.edges.map((e) => e.node);
    expect(nodes.find((n) => n.id === named.id)).toMatchObject({
      authorName: "Vera Visitor",
      requester: null,
    });
    expect(nodes.find((n) => n.id === anonymous.id)).toMatchObject({ authorName: null, requester: null });
  });

  it("validates the body and a visitor's name and email", async () => {
    const tooShort = await asUser(member).request(SUBMIT, {
      input: { body: "short", visibility: "PUBLIC", anonymous: false },
    });
    expect(errorCode(tooShort)).toBe("BAD_USER_INPUT");
    expect(tooShort.errors![0]!.extensions!.fieldErrors).toHaveProperty("body");
    const tooLong = await asUser(member).request(SUBMIT, {
      input: { body: "x".repeat(2001), visibility: "PUBLIC", anonymous: false },
    });
    expect(tooLong.errors![0]!.extensions!.fieldErrorCodes).toMatchObject({ body: "too_long" });

    const noNameNoEmail = await visitor().request(SUBMIT, {
      input: { body: body(), visibility: "PUBLIC", anonymous: false },
    });
    expect(noNameNoEmail.errors![0]!.extensions!.fieldErrorCodes).toMatchObject({
      name: "required",
      email: "required",
    });
    const badEmail = await visitor().request(SUBMIT, {
      input: { body: body(), visibility: "PUBLIC", anonymous: true, email: "not-an-email" },
    });
    expect(badEmail.errors![0]!.extensions!.fieldErrorCodes).toEqual({ email: "invalid_email" });
  });

  it("a filled honeypot answers like a success and stores nothing", async () => {
    const email = uniqueEmail("bot");
    const fake = await submit(visitor(), {
      body: body("spam"),
      name: "Bot",
      email,
      website: "http://spam.example",
    });
    expect(fake).toMatchObject({ status: "PENDING" });
    expect(fake.id).toMatch(/^[a-z0-9]{15}$/);
    expect(
      await su
        .collection("prayer_requests")
        .getList(1, 1, { filter: su.filter("id = {:id}", { id: fake.id }) }),
    ).toMatchObject({ totalItems: 0 });
    expect(
      await su
        .collection("prayer_request_private")
        .getList(1, 1, { filter: su.filter("submitterEmail = {:e}", { e: email }) }),
    ).toMatchObject({ totalItems: 0 });
  });

  it(`throttles visitors to ${THROTTLE.visitorFormsPerIp} requests per IP per hour`, async () => {
    const client = visitor();
    for (let i = 0; i < THROTTLE.visitorFormsPerIp; i++)
      await submit(client, { body: body(`throttle ${i}`), anonymous: true, email: uniqueEmail() });
    const sixth = await client.request(SUBMIT, {
      input: { body: body("one too many"), visibility: "PUBLIC", anonymous: true, email: uniqueEmail() },
    });
    expectRateLimited(sixth);
    // Members are not throttled by the visitor limit.
    await submit(asUser(member), { body: body("member after throttle") });
  });
});

describe("moderation", () => {
  it("the queue is for moderators, oldest first; visibility decides who sees the approved request", async () => {
    const pub = await submit(asUser(member), { body: body("public") });
    const membersOnly = await submit(asUser(member), { body: body("members"), visibility: "MEMBERS" });
    const pastoral = await submit(asUser(member), { body: body("pastoral"), visibility: "PASTORAL" });

    expect(errorCode(await asUser(otherMember).request(QUEUE, {}))).toBe("FORBIDDEN");
    expect(errorCode(await asUser(editor).request(QUEUE, {}))).toBe("FORBIDDEN");
    expect(errorCode(await visitor().request(QUEUE, {}))).toBe("UNAUTHENTICATED");

    const moderatorQueue = (
      await asUser(moderator).execute(QUEUE, { first: 100 })
    ).data!.prayerQueue.edges.map((e) => e.node.id);
    expect(moderatorQueue.indexOf(pub.id)).toBeLessThan(moderatorQueue.indexOf(membersOnly.id));
    expect(moderatorQueue).not.toContain(pastoral.id);
    const pastorQueue = (await asUser(pastor).execute(QUEUE, { first: 100 })).data!.prayerQueue.edges.map(
      (e) => e.node.id,
    );
    expect(pastorQueue).toEqual(expect.arrayContaining([pub.id, membersOnly.id, pastoral.id]));
    // The moderator cannot approve what they cannot see.
    expect(errorCode(await asUser(moderator).request(APPROVE, { id: pastoral.id }))).toBe("NOT_FOUND");
    expect(errorCode(await asUser(otherMember).request(APPROVE, { id: pub.id }))).toBe("FORBIDDEN");

    const approved = await approve(pub.id);
    expect(approved).toMatchObject({ status: "APPROVED" });
    expect(new Date((approved as unknown as { expiresAt: string }).expiresAt).getTime()).toBeGreaterThan(
      Date.now() + 59 * 24 * 3600 * 1000,
    );
    await approve(membersOnly.id);
    await approve(pastoral.id, pastor);

    const visitorWall = await wallIds(visitor());
    expect(visitorWall).toContain(pub.id);
    expect(visitorWall).not.toContain(membersOnly.id);
    const memberWall = await wallIds(asUser(otherMember));
    expect(memberWall).toEqual(expect.arrayContaining([pub.id, membersOnly.id]));
    // Pastoral requests are never on the wall, not even for pastoral staff.
    expect(await wallIds(asUser(pastor))).not.toContain(pastoral.id);
    expect(memberWall).not.toContain(pastoral.id);
    expect((await asUser(otherMember).execute(ONE, { id: pastoral.id })).data!.prayerRequest).toBeNull();

    // The requester is told (and mailed) once, with a link to the request.
    const notes = await notificationsOf(member.id, "prayer_approved");
    expect(notes.filter((n) => n.link === `/prayer/${pub.id}`)).toHaveLength(1);
    await waitForMail(catcherUrl(), member.email, /was approved/);
  });

  it("the wall is newest first, in pages", async () => {
    const older = await submit(asUser(member), { body: body("older") });
    const newer = await submit(asUser(member), { body: body("newer") });
    await approve(older.id);
    await approve(newer.id);
    // Page by page, one at a time, until both are seen: other tests' requests may be on this wall too
    // (and one approved meanwhile may come first), so the order is checked between these two.
    const wallPage = async (cursor: string | null) =>
      (await visitor().execute(WALL, { first: 1, after: cursor })).data!.prayerWall;
    const seen: string[] = [];
    let after: string | null = null;
    for (let page = 0; page < 50 && !(seen.includes(newer.id) && seen.includes(older.id)); page++) {
      const wall = await wallPage(after);
      expect(wall.edges).toHaveLength(1);
      expect(wall.totalCount).toBeGreaterThanOrEqual(2);
      seen.push(wall.edges[0]!.node.id);
      if (!seen.includes(older.id)) expect(wall.pageInfo.hasNextPage).toBe(true);
      after = wall.pageInfo.endCursor;
    }
    // Newest first, and no request twice across the pages.
    expect(seen.indexOf(newer.id)).toBeGreaterThanOrEqual(0);
    expect(seen.indexOf(newer.id)).toBeLessThan(seen.indexOf(older.id));
    expect(new Set(seen).size).toBe(seen.length);
  });

  it("rejecting needs a reason the requester (and moderators) see; nobody else sees the request", async () => {
    const request = await submit(asUser(member), { body: body("to reject") });
    expect(errorCode(await asUser(moderator).request(REJECT, { id: request.id, reason: "  " }))).toBe(
      "BAD_USER_INPUT",
    );
    const rejected = await asUser(moderator).execute(REJECT, {
      id: request.id,
      reason: "Please share fewer details.",
    });
    expect(rejected.data!.rejectPrayerRequest).toMatchObject({
      status: "REJECTED",
      rejectReason: "Please share fewer details.",
    });
    const mine = (await asUser(member).execute(MINE)).data!.myPrayerRequests.edges.map((e) => e.node);
    expect(mine.find((n) => n.id === request.id)).toMatchObject({
      status: "REJECTED",
      rejectReason: "Please share fewer details.",
    });
    expect((await asUser(otherMember).execute(ONE, { id: request.id })).data!.prayerRequest).toBeNull();
    expect(
      (await notificationsOf(member.id, "prayer_rejected")).some(
        (n) => n.body === "Please share fewer details.",
      ),
    ).toBe(true);
  });

  it("moderators fix typos; the body is validated", async () => {
    const request = await submit(asUser(member), { body: body("typo teh") });
    const fixed = `${body("fixed")} the`;
    expect(
      (await asUser(moderator).execute(EDIT, { id: request.id, body: fixed })).data!.editPrayerRequest.body,
    ).toBe(fixed);
    expect(errorCode(await asUser(moderator).request(EDIT, { id: request.id, body: "tiny" }))).toBe(
      "BAD_USER_INPUT",
    );
    expect(errorCode(await asUser(otherMember).request(EDIT, { id: request.id, body: fixed }))).toBe(
      "FORBIDDEN",
    );
  });

  it("three flags from members send a request back to moderation; approving again starts the count over", async () => {
    const request = await submit(asUser(member), { body: body("flagged") });
    await approve(request.id);
    const flaggers = await Promise.all([createUser(), createUser(), createUser()]);
    const first = await asUser(flaggers[0]!).execute(FLAG, { id: request.id, reason: "spam" });
    expect(first.data!.flagPrayerRequest).toMatchObject({
      status: "APPROVED",
      flaggedByMe: true,
      flagCount: 0,
    });
    // Flagging twice counts once.
    await asUser(flaggers[0]!).request(FLAG, { id: request.id });
    expect((await asUser(moderator).execute(ONE, { id: request.id })).data!.prayerRequest!.flagCount).toBe(1);
    // Visitors and members without an active person may not flag.
    expect(errorCode(await visitor().request(FLAG, { id: request.id }))).toBe("UNAUTHENTICATED");
    const pendingPerson = await createUser({ person: "pending" });
    expect(errorCode(await asUser(pendingPerson).request(FLAG, { id: request.id }))).toBe("FORBIDDEN");

    await asUser(flaggers[1]!).request(FLAG, { id: request.id });
    const third = await asUser(flaggers[2]!).execute(FLAG, { id: request.id });
    expect(third.errors).toBeUndefined();
    expect(third.data!.flagPrayerRequest.status).toBe("PENDING");
    expect(await wallIds(visitor())).not.toContain(request.id);
    const queued = (await asUser(moderator).execute(QUEUE, { first: 100 })).data!.prayerQueue.edges.map(
      (e) => e.node,
    );
    expect(queued.find((n) => n.id === request.id)).toMatchObject({ flagCount: 3 });

    const again = await approve(request.id);
    expect(again).toMatchObject({ status: "APPROVED", flagCount: 0 });
    expect(
      await su
        .collection("prayer_flags")
        .getList(1, 1, { filter: su.filter("request = {:id}", { id: request.id }) }),
    ).toMatchObject({ totalItems: 0 });
    // A re-approval is not news to the requester.
    expect(
      (await notificationsOf(member.id, "prayer_approved")).filter((n) => n.link === `/prayer/${request.id}`),
    ).toHaveLength(1);
  });
});

describe("I prayed", () => {
  it("counts once per user per day and notifies the requester in one batched notification", async () => {
    const request = await submit(asUser(member), { body: body("pray") });
    await approve(request.id);
    const once = await asUser(otherMember).execute(PRAY, { id: request.id });
    expect(once.data!.prayFor).toMatchObject({ prayedCount: 1, prayedToday: true });
    const twice = await asUser(otherMember).execute(PRAY, { id: request.id });
    expect(twice.errors).toBeUndefined();
    expect(twice.data!.prayFor).toMatchObject({ prayedCount: 1, prayedToday: true });
    expect((await asUser(editor).execute(PRAY, { id: request.id })).data!.prayFor.prayedCount).toBe(2);
    // The requester praying for their own request is not news to them.
    expect((await asUser(member).execute(PRAY, { id: request.id })).data!.prayFor.prayedCount).toBe(3);

    const wallNode = (await asUser(otherMember).execute(WALL, { first: 100 })).data!.prayerWall.edges.find(
      (e) => e.node.id === request.id,
    )!.node;
    expect(wallNode.prayedToday).toBe(true);
    expect((await asUser(moderator).execute(ONE, { id: request.id })).data!.prayerRequest!.prayedToday).toBe(
      false,
    );

    const prayed = await su.collection("notifications").getFullList({
      filter: su.filter("user = {:u} && groupKey = {:g}", { u: member.id, g: `prayed:${request.id}` }),
    });
    expect(prayed).toHaveLength(1);
    expect(prayed[0]).toMatchObject({ kind: "prayer_prayed", count: 2, link: `/prayer/${request.id}` });
  });

  it("counts once per device per day for visitors (an httpOnly device cookie)", async () => {
    const request = await submit(asUser(member), { body: body("devices") });
    await approve(request.id);
    const first = await asDevice(PRAY, { id: request.id }, null);
    expect(first.json.errors).toBeUndefined();
    expect(first.json.data.prayFor).toMatchObject({ prayedCount: 1, prayedToday: true });
    expect(first.setCookie).toMatch(/HttpOnly/);
    expect(first.setCookie).toMatch(/SameSite=Lax/);
    expect(first.setCookie).toMatch(/Max-Age=31536000/);

    const again = await asDevice(PRAY, { id: request.id }, first.device);
    expect(again.setCookie).toBeNull();
    expect(again.json.data.prayFor).toMatchObject({ prayedCount: 1, prayedToday: true });
    // The same browser sees "prayed today" on the wall; another device has not prayed yet.
    const wall = await asDevice(WALL, { first: 100 }, first.device);
    expect(wall.json.data.prayerWall.edges.find((e) => e.node.id === request.id)!.node.prayedToday).toBe(
      true,
    );
    const otherDevice = await asDevice(ONE, { id: request.id }, null);
    expect(otherDevice.json.data.prayerRequest!.prayedToday).toBe(false);
    expect(otherDevice.setCookie).toBeNull();

    const second = await asDevice(PRAY, { id: request.id }, null);
    expect(second.json.data.prayFor.prayedCount).toBe(2);
    // Only the key's hash is stored, never the cookie.
    const marks = await su
      .collection("prayer_marks")
      .getFullList({ filter: su.filter("request = {:id}", { id: request.id }) });
    expect(marks.map((m) => m.deviceKey as string)).not.toContain(first.device);
    expect(marks.every((m) => /^[0-9a-f]{64}$/.test(m.deviceKey as string))).toBe(true);
  });

  it(`a visitor who drops cookies counts at most ${THROTTLE.visitorPrayersPerIpPerRequest} times per request per IP per hour (issue 10)`, async () => {
    const request = await submit(asUser(member), { body: body("inflate me") });
    await approve(request.id);
    const ip = "198.51.100.221";
    for (let i = 1; i <= THROTTLE.visitorPrayersPerIpPerRequest; i++) {
      const counted = await asDevice(PRAY, { id: request.id }, null, ip);
      expect(counted.json.data.prayFor.prayedCount).toBe(i);
    }
    const refused = await asDevice(PRAY, { id: request.id }, null, ip);
    expectRateLimited(refused.result);
    expect(refused.setCookie).toBeNull();
    const stored = await su.collection("prayer_requests").getOne(request.id);
    expect(stored.prayedCount).toBe(THROTTLE.visitorPrayersPerIpPerRequest);
    const prayed = await su.collection("notifications").getFullList({
      filter: su.filter("user = {:u} && groupKey = {:g}", { u: member.id, g: `prayed:${request.id}` }),
    });
    expect(prayed.map((n) => n.count as number)).toEqual([THROTTLE.visitorPrayersPerIpPerRequest]);
    // Another IP, and members, still count.
    expect(
      (await asDevice(PRAY, { id: request.id }, null, "198.51.100.222")).json.data.prayFor.prayedCount,
    ).toBe(THROTTLE.visitorPrayersPerIpPerRequest + 1);
    expect((await asUser(otherMember).execute(PRAY, { id: request.id })).data!.prayFor.prayedCount).toBe(
      THROTTLE.visitorPrayersPerIpPerRequest + 2,
    );
  });

  it(`a visitor counts at most ${THROTTLE.visitorPrayersPerIp} times per IP per hour across requests`, async () => {
    const perRequest = THROTTLE.visitorPrayersPerIpPerRequest;
    const requests = await Promise.all(
      Array.from({ length: Math.ceil(THROTTLE.visitorPrayersPerIp / perRequest) + 1 }, async (_, i) => {
        const request = await submit(asUser(member), { body: body(`spread ${i}`) });
        await approve(request.id);
        return request.id;
      }),
    );
    const ip = "198.51.100.223";
    let counted = 0;
    for (const id of requests) {
      for (let i = 0; i < perRequest && counted < THROTTLE.visitorPrayersPerIp; i++, counted++) {
        expect((await asDevice(PRAY, { id }, null, ip)).json.errors).toBeUndefined();
      }
    }
    // The last request has no marks from this IP yet, and still the IP is done for the hour.
    expectRateLimited((await asDevice(PRAY, { id: requests.at(-1)! }, null, ip)).result);
  });

  it("pending and hidden requests cannot be prayed for", async () => {
    const pending = await submit(asUser(member), { body: body("not yet") });
    expect(errorCode(await asUser(otherMember).request(PRAY, { id: pending.id }))).toBe("NOT_FOUND");
    expect(errorCode(await asUser(member).request(PRAY, { id: pending.id }))).toBe("CONFLICT");
  });
});

describe("answered", () => {
  it("the requester marks their approved request answered, with a note; other members cannot", async () => {
    const request = await submit(asUser(member), { body: body("answer me") });
    expect(
      errorCode(await asUser(member).request(ANSWERED, { id: request.id, note: "Thank you all!" })),
    ).toBe("CONFLICT");
    await approve(request.id);
    expect(errorCode(await asUser(otherMember).request(ANSWERED, { id: request.id, note: "Not mine" }))).toBe(
      "FORBIDDEN",
    );
    expect(errorCode(await asUser(member).request(ANSWERED, { id: request.id, note: " " }))).toBe(
      "BAD_USER_INPUT",
    );
    const answered = await asUser(member).execute(ANSWERED, { id: request.id, note: "Thank you all!" });
    expect(answered.data!.markPrayerAnswered).toMatchObject({
      status: "ANSWERED",
      answerNote: "Thank you all!",
    });
    expect(await wallIds(visitor(), "ANSWERED")).toContain(request.id);
    expect(await wallIds(visitor(), "ALL")).toContain(request.id);
  });

  it("a moderator passes on a praise report: the requester is notified and emailed", async () => {
    const request = await submit(asUser(member), { body: body("answered through the office") });
    await approve(request.id);
    const answered = await asUser(moderator).execute(ANSWERED, {
      id: request.id,
      note: "She called the office: all is well.",
    });
    expect(answered.data!.markPrayerAnswered).toMatchObject({ status: "ANSWERED" });
    const notes = await su
      .collection("notifications")
      .getFullList({ filter: su.filter("user = {:u} && kind = 'prayer_answered'", { u: member.id }) });
    expect(notes.map((n) => n.body)).toContain("She called the office: all is well.");
    const mail = await waitForMail(catcherUrl(), member.email, /was marked answered/);
    expect(mail.text).toContain("She called the office: all is well.");
  });
});

describe("anonymity", () => {
  it("who asked for an anonymous request appears in no response, except to pastoral staff", async () => {
    const requester = await createUser({
      name: `Zebulon Quill ${randomUUID().slice(0, 6)}`,
      email: uniqueEmail("zebulon"),
    });
    const requesterName = (await su.collection("users").getOne(requester.id)).name as string;
    const secrets = [requesterName, requester.email, requester.id, requester.personId!];
    const pub = await submit(asUser(requester), { body: body("anonymous public"), anonymous: true });
    const members = await submit(asUser(requester), {
      body: body("anonymous members"),
      anonymous: true,
      visibility: "MEMBERS",
    });
    const pending = await submit(asUser(requester), { body: body("anonymous pending"), anonymous: true });
    expect(pub.authorName).toBeNull();
    await approve(pub.id);
    await approve(members.id);

    const responses: Array<{ who: string; body: string }> = [];
    const record = async (
      who: string,
      client: GqlClient,
      query: DocumentNode,
      variables: Record<string, unknown> = {},
    ) => {
      const result = await client.request(query, variables);
      responses.push({ who, body: JSON.stringify(result) });
      return result;
    };
    const personas: Array<[string, () => GqlClient, TestUser | null]> = [
      ["other member", () => asUser(otherMember), otherMember],
      ["moderator without pastoral rights", () => asUser(moderator), moderator],
      ["editor", () => asUser(editor), editor],
      ["visitor", () => visitor(), null],
    ];
    for (const [who, client] of personas) {
      await record(who, client(), WALL, { first: 100 });
      await record(who, client(), WALL, { first: 100, filter: "ANSWERED" });
      for (const id of [pub.id, members.id, pending.id]) await record(who, client(), ONE, { id });
      await record(who, client(), PRAY, { id: pub.id });
      await record(who, client(), FLAG, { id: members.id, reason: "checking" });
      await record(who, client(), QUEUE, { first: 100 });
      await record(who, client(), QUEUE, { first: 100, status: "APPROVED" });
      await record(who, client(), MINE);
    }
    // What moderators do to a request answers with the request too.
    await record("moderator", asUser(moderator), EDIT, { id: pending.id, body: pending.body });
    await record("moderator", asUser(moderator), APPROVE, { id: pending.id });
    await record("moderator", asUser(moderator), REJECT, {
      id: pending.id,
      reason: "Checking the reject path.",
    });
    // The moderator really did read these requests (the test would pass vacuously otherwise).
    expect(responses.some((r) => r.who.startsWith("moderator") && r.body.includes(pending.id))).toBe(true);
    expect(responses.filter((r) => r.who === "visitor").some((r) => r.body.includes(pub.id))).toBe(true);

    for (const response of responses) {
      for (const secret of secrets)
        expect(response.body, `${response.who} saw ${secret}`).not.toContain(secret);
    }

    // Pastoral staff see who asked; the requester sees it is theirs.
    const asPastor = (await asUser(pastor).execute(ONE, { id: pub.id })).data!.prayerRequest;
    expect(asPastor).toMatchObject({
      authorName: null,
      requester: { name: requesterName, email: requester.email, person: { id: requester.personId } },
    });
    const asRequester = (await asUser(requester).execute(ONE, { id: pub.id })).data!.prayerRequest;
    expect(asRequester).toMatchObject({ isMine: true, requester: { name: requesterName } });
  });
});

describe("people processes", () => {
  it("merging moves who asked to the kept person; anonymising blanks the name and address given", async () => {
    const duplicate = await createUser({ name: "Dora Duplicate" });
    const request = await submit(asUser(duplicate), { body: body("merge me") });
    const anonymousRequest = await submit(asUser(duplicate), {
      body: body("merge me anonymously"),
      anonymous: true,
    });
    const keep = await su
      .collection("people")
      .create({ firstName: "Dora", lastName: "Kept", recordStatus: "active" });
    const merged = await asUser(pastor).request(
      `mutation($k: ID!, $m: ID!) { mergePeople(keepId: $k, mergeId: $m) { id } }`,
      { k: keep.id, m: duplicate.personId },
    );
    expect(merged.errors).toBeUndefined();
    const rowOf = (id: string) =>
      su.collection("prayer_request_private").getFirstListItem(su.filter("request = {:id}", { id }));
    expect(await rowOf(request.id)).toMatchObject({ person: keep.id });

    const anonymised = await asUser(pastor).request(
      `mutation($id: ID!) { anonymizePerson(id: $id) { id } }`,
      { id: keep.id },
    );
    expect(anonymised.errors).toBeUndefined();
    expect(await rowOf(request.id)).toMatchObject({ person: keep.id, submitterName: "", submitterEmail: "" });
    expect(await rowOf(anonymousRequest.id)).toMatchObject({ submitterName: "", submitterEmail: "" });
    expect((await su.collection("prayer_requests").getOne(request.id)).authorName).toBe("Former member");
    expect((await su.collection("prayer_requests").getOne(anonymousRequest.id)).authorName).toBe("");
  });
});
