/**
 * The live prayer wall: GraphQL subscriptions over SSE through the gateway, fed by PocketBase realtime
 * with each subscriber's own token. A subscriber receives only what PocketBase's rules let it see
 * (visitor vs member vs pastor; public / members / pastoral; approved vs pending), an anonymous
 * request's payload never names its requester for non-pastoral subscribers, and one viewer's
 * subscriptions share one PocketBase connection.
 */
import { userCredential } from "../src/realtime/credentials.ts";
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import type { PrayerRequestRecord } from "../src/pocketbase/records.ts";
import type { BridgeEvent } from "../src/realtime/event-queue.ts";
import { todayIn } from "../src/pocketbase/dates.ts";
import { createUser, GqlClient, system, testGateway, type TestUser } from "./helpers.ts";
import { SseSubscription } from "./sse.ts";

const WALL_SUBSCRIPTION = `subscription {
  prayerWall { kind id request { id status visibility anonymous authorName prayedCount isMine requester { name email person { id } } } }
}`;
const REJECT = `mutation($id: ID!, $reason: String!) { rejectPrayerRequest(id: $id, reason: $reason) { id status } }`;

interface WallEvent {
  kind: "ADDED" | "UPDATED" | "REMOVED" | "RESYNC";
  id: string | null;
  request: {
    id: string;
    status: string;
    visibility: string;
    prayedCount: number;
    authorName: string | null;
    requester: unknown;
  } | null;
}

let gateway: Gateway;
let su: PocketBase;
let member: TestUser;
let pastor: TestUser;
let moderator: TestUser;

/** Wait until `check` holds (PocketBase delivers asynchronously); fails with `label` after 15 s. */
async function until(check: () => boolean, label: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${label}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One browser tab with the wall open: an SSE subscription through the gateway. */
class WallSubscriber {
  private subscription: SseSubscription<{ prayerWall: WallEvent }> | null = null;

  constructor(
    readonly name: string,
    private readonly token: string | null,
  ) {}

  async open(): Promise<this> {
    this.subscription = await SseSubscription.open(gateway, {
      query: WALL_SUBSCRIPTION,
      token: this.token,
      clientIp: "203.0.113.77",
    });
    expect(this.subscription.response.headers.get("content-type")).toMatch(/text\/event-stream/);
    return this;
  }

  /** The wall's events so far; an error on the stream fails the test that reads them. */
  get events(): WallEvent[] {
    const { errors, data } = this.subscription!;
    if (errors.length) throw new Error(`${this.name}: ${JSON.stringify(errors)}`);
    return data.map((event) => event.prayerWall);
  }

  /** Every byte of the stream, to search for what must never appear. */
  get raw(): string {
    return this.subscription!.raw;
  }

  about(id: string): WallEvent[] {
    return this.events.filter((e) => e.id === id);
  }

  kindsAbout(id: string): string[] {
    return this.about(id).map((e) => e.kind);
  }

  async close(): Promise<void> {
    await this.subscription?.close();
  }
}

const body = (label: string) => `Please pray with us about ${label} ${randomUUID().slice(0, 8)}`;

/** A request written directly (the states under test, without the moderation steps). */
function createRequest(data: Partial<PrayerRequestRecord>): Promise<PrayerRequestRecord> {
  return su.collection("prayer_requests").create<PrayerRequestRecord>({
    body: body(data.visibility ?? "public"),
    visibility: "public",
    anonymous: false,
    authorName: "Wall Tester",
    status: "approved",
    prayedCount: 0,
    flagCount: 0,
    ...data,
  });
}

/**
 * PocketBase subscribes asynchronously: publish public approved probes until every subscriber has
 * received one, so that what follows is seen by all of them.
 */
async function untilListening(subscribers: WallSubscriber[]): Promise<void> {
  const probes = new Set<string>();
  const heard = () => subscribers.every((s) => s.events.some((e) => e.kind === "ADDED" && probes.has(e.id!)));
  const deadline = Date.now() + 15_000;
  while (!heard()) {
    if (Date.now() > deadline) throw new Error("subscribers never started listening");
    probes.add((await createRequest({ body: body("probe") })).id);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** PocketBase delivers each connection's events in order: once a later public request arrived everywhere, so did everything before it. */
async function untilSettled(subscribers: WallSubscriber[]): Promise<void> {
  const sentinel = await createRequest({ body: body("sentinel") });
  await until(() => subscribers.every((s) => s.about(sentinel.id).length > 0), "the sentinel");
}

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  [member, pastor, moderator] = await Promise.all([
    createUser({ name: "Wall Member" }),
    createUser({ roles: ["Pastor"] }),
    createUser({ roles: ["Care Team"] }),
  ]);
});
afterAll(() => gateway.close());

describe("the live wall", () => {
  it("a group's prayer request reaches no wall: not its members', not a non-member's, not a moderator's", async () => {
    const run = randomUUID().slice(0, 6);
    const group = await su.collection("groups").create({
      name: `Prayer group ${run}`,
      slug: `prayer-group-${run}`,
      type: "small_group",
      locationDisplay: "hidden",
      visibility: "public",
      joinPolicy: "open",
      rosterVisibility: "members",
      status: "active",
    });
    const insider = await createUser({ name: "Group Insider" });
    await su
      .collection("group_members")
      .create({ group: group.id, person: insider.personId, role: "member", status: "active" });
    const asInsider = await new WallSubscriber("group member", insider.token).open();
    const asMember = await new WallSubscriber("member", member.token).open();
    const asModerator = await new WallSubscriber("moderator", moderator.token).open();
    const all = [asInsider, asMember, asModerator];
    try {
      await untilListening(all);
      const secret = body("our group's secret");
      const request = await createRequest({ visibility: "members", group: group.id, body: secret });
      await su
        .collection("prayer_marks")
        .create({ request: request.id, user: insider.id, day: todayIn("UTC") });
      await untilSettled(all);
      for (const s of all) expect(s.kindsAbout(request.id), s.name).not.toContain("ADDED");
      for (const s of [asInsider, asMember])
        expect(s.kindsAbout(request.id), s.name).not.toContain("UPDATED");
      // The non-member's stream never carried it at all.
      expect(asMember.raw).not.toContain(secret);
      expect(asMember.raw).not.toContain(request.id);
    } finally {
      await Promise.all(all.map((s) => s.close()));
    }
  });

  it("each subscriber receives what its rules allow, and anonymous requests never name their requester", async () => {
    const requester = await createUser({ name: `Ysolde Anon ${randomUUID().slice(0, 6)}` });
    const requesterName = (await su.collection("users").getOne(requester.id)).name as string;
    const secrets = [requesterName, requester.email, requester.id, requester.personId!];

    const visitor = await new WallSubscriber("visitor", null).open();
    const asMember = await new WallSubscriber("member", member.token).open();
    const asPastor = await new WallSubscriber("pastor", pastor.token).open();
    const all = [visitor, asMember, asPastor];
    try {
      await untilListening(all);

      const publicApproved = await createRequest({ visibility: "public" });
      const membersApproved = await createRequest({ visibility: "members" });
      const pastoralApproved = await createRequest({ visibility: "pastoral" });
      const publicPending = await createRequest({ visibility: "public", status: "pending" });
      const membersPending = await createRequest({ visibility: "members", status: "pending" });
      const anonymous = await createRequest({ visibility: "public", anonymous: true, authorName: "" });
      await su.collection("prayer_request_private").create({
        request: anonymous.id,
        user: requester.id,
        person: requester.personId,
        submitterName: requesterName,
        submitterEmail: requester.email,
      });
      // A count that moves on a members-only request ("I prayed").
      await su
        .collection("prayer_marks")
        .create({ request: membersApproved.id, user: member.id, day: todayIn("UTC") });
      // And the anonymous request changes after its private row exists (a payload that could now carry the requester).
      await su
        .collection("prayer_marks")
        .create({ request: anonymous.id, user: member.id, day: todayIn("UTC") });
      await untilSettled(all);

      expect(visitor.kindsAbout(publicApproved.id)).toEqual(["ADDED"]);
      expect(visitor.kindsAbout(membersApproved.id)).toEqual([]);
      expect(asMember.kindsAbout(membersApproved.id)).toEqual(["ADDED", "UPDATED"]);
      expect(asMember.about(membersApproved.id)[1]!.request!.prayedCount).toBe(1);
      expect(asPastor.kindsAbout(membersApproved.id)).toEqual(["ADDED", "UPDATED"]);
      for (const s of all) {
        // Pastoral requests are never on the wall; pending ones never ADDED (not even for the pastor, who may read them).
        expect(s.kindsAbout(pastoralApproved.id), s.name).not.toContain("ADDED");
        expect(s.kindsAbout(publicPending.id), s.name).toEqual([]);
        expect(s.kindsAbout(membersPending.id), s.name).toEqual([]);
        expect(s.kindsAbout(anonymous.id), s.name).toEqual(["ADDED", "UPDATED"]);
        expect(s.about(anonymous.id)[0]!.request!.authorName).toBeNull();
      }
      for (const s of [visitor, asMember]) {
        for (const secret of secrets) expect(s.raw, `${s.name} saw ${secret}`).not.toContain(secret);
        expect(s.about(anonymous.id).every((e) => e.request!.requester === null)).toBe(true);
      }
      // Pastoral staff see who asked, through the same PrayerRequest fields.
      expect(asPastor.about(anonymous.id)[1]!.request!.requester).toMatchObject({
        name: requesterName,
        email: requester.email,
        person: { id: requester.personId },
      });

      // A moderator rejects a request that was on the wall: the pastor (who may still read it) gets it
      // REMOVED; the others' PocketBase connections say nothing, so every wall is told to refetch.
      const before = all.map((s) => s.events.filter((e) => e.kind === "RESYNC").length);
      const rejected = await new GqlClient(gateway, { token: moderator.token }).request(REJECT, {
        id: publicApproved.id,
        reason: "Duplicate request.",
      });
      expect(rejected.errors).toBeUndefined();
      await untilSettled(all);
      all.forEach((s, i) =>
        expect(s.events.filter((e) => e.kind === "RESYNC").length, s.name).toBeGreaterThan(before[i]!),
      );
      expect(asPastor.kindsAbout(publicApproved.id)).toEqual(["ADDED", "REMOVED"]);
      expect(visitor.kindsAbout(publicApproved.id)).toEqual(["ADDED"]);

      // A deleted request is REMOVED for whoever could see it.
      await su.collection("prayer_requests").delete(membersApproved.id);
      await untilSettled(all);
      expect(asMember.kindsAbout(membersApproved.id)).toEqual(["ADDED", "UPDATED", "REMOVED"]);
      expect(visitor.kindsAbout(membersApproved.id)).toEqual([]);
    } finally {
      await Promise.all(all.map((s) => s.close()));
    }
  });

  it("the PocketBase layer itself filters: a subscriber's raw events are what its token may read", async () => {
    const bridge = gateway.services.realtime;
    const collect = async (token: string | null, userId: string | null) => {
      const events: Array<BridgeEvent<PrayerRequestRecord>> = [];
      // A user's stream lives by its session (realtime/credentials.ts), as the context ties it.
      const { system: systemClient, config } = gateway.services;
      const credential =
        token && userId ? await userCredential(systemClient, config.pbUrl, userId, token) : null;
      const queue = bridge.subscribe<PrayerRequestRecord>({ token, credential }, "prayer_requests", "*");
      void (async () => {
        for await (const event of queue) events.push(event);
      })();
      return { events, queue, ids: () => events.flatMap((e) => (e.type === "change" ? [e.record.id] : [])) };
    };
    const guest = await collect(null, null);
    const asMember = await collect(member.token, member.id);
    const asPastor = await collect(pastor.token, pastor.id);
    const everyone = [guest, asMember, asPastor];
    try {
      const probes: string[] = [];
      await until(() => {
        void createRequest({ body: body("raw probe") }).then((r) => probes.push(r.id));
        return everyone.every((s) => s.ids().some((id) => probes.includes(id)));
      }, "raw subscribers");
      const members = await createRequest({ visibility: "members" });
      const pending = await createRequest({ status: "pending" });
      const pastoral = await createRequest({ visibility: "pastoral", status: "pending" });
      const sentinel = await createRequest({});
      await until(() => everyone.every((s) => s.ids().includes(sentinel.id)), "the raw sentinel");
      expect(guest.ids()).not.toContain(members.id);
      expect(guest.ids()).not.toContain(pending.id);
      expect(asMember.ids()).toContain(members.id);
      expect(asMember.ids()).not.toContain(pending.id);
      expect(asMember.ids()).not.toContain(pastoral.id);
      expect(asPastor.ids()).toEqual(expect.arrayContaining([members.id, pending.id, pastoral.id]));
    } finally {
      for (const s of everyone) await s.queue.return();
    }
  });

  it("one PocketBase connection per viewer, shared by their subscriptions and closed with the last", async () => {
    const viewer = await createUser();
    const bridge = gateway.services.realtime;
    const connectionsBefore = bridge.stats().connections;
    const subscribersBefore = bridge.stats().subscribers;
    const first = await new WallSubscriber("tab 1", viewer.token).open();
    const second = await new WallSubscriber("tab 2", viewer.token).open();
    try {
      await until(() => bridge.stats().subscribers === subscribersBefore + 2, "two subscriptions");
      expect(bridge.stats().connections).toBe(connectionsBefore + 1);
      await untilListening([first, second]);
      await first.close();
      await until(() => bridge.stats().subscribers === subscribersBefore + 1, "the first tab to close");
      expect(bridge.stats().connections).toBe(connectionsBefore + 1);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
    await until(() => bridge.stats().connections === connectionsBefore, "the viewer's connection to close");
    expect(bridge.stats().subscribers).toBe(subscribersBefore);
  });
});
