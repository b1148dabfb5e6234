/**
 * Notifications (issue 5) against a real PocketBase: the notifier system job (create, batch within a
 * window, mail, never throw), the GraphQL reads and "mark read" with the caller's token, the live
 * subscription, the sign-up approval notification and the prayer expiry job.
 */
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { waitForMail } from "../../scripts/lib/smtp-catcher.ts";
import type { Gateway } from "../src/index.ts";
import type { NotificationRecord, PrayerRequestRecord } from "../src/pocketbase/records.ts";
import { deliverNotification, notify, type NotificationInput } from "../src/system/notifier.ts";
import { archiveExpiredPrayerRequests } from "../src/system/prayer-expiry.ts";
import { SseSubscription } from "./sse.ts";
import {
  createUser,
  errorCode,
  GqlClient,
  signUpAndSignIn,
  system,
  testGateway,
  uniqueEmail,
  type TestUser,
  catcherUrl,
} from "./helpers.ts";
import {
  NotificationsListDocument,
  NotificationsMarkAllReadDocument,
  NotificationsMarkReadDocument,
} from "./__generated__/operations.ts";

let gateway: Gateway;
let su: PocketBase;
let member: TestUser;
let otherMember: TestUser;
let pastor: TestUser;

const HOUR = 60 * 60 * 1000;
const tag = () => randomUUID().replace(/-/g, "").slice(0, 8);
const asUser = (user: TestUser | null) =>
  new GqlClient(gateway, { token: user?.token, ip: `198.51.100.${Math.floor(Math.random() * 250) + 1}` });
const notificationsOf = (user: TestUser) =>
  su
    .collection("notifications")
    .getFullList<NotificationRecord>({ filter: su.filter("user = {:u}", { u: user.id }), sort: "-created" });
const prayed = (user: TestUser, requestId: string): NotificationInput => ({
  userId: user.id,
  kind: "prayer_prayed",
  title: "Someone prayed for your request",
  groupKey: `prayed:${requestId}`,
  batchWindowMs: HOUR,
});

// The operations are in ./operations/notifications.graphql (typed by npm run codegen).
const LIST = NotificationsListDocument;
const MARK = NotificationsMarkReadDocument;
const MARK_ALL = NotificationsMarkAllReadDocument;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  [member, otherMember, pastor] = await Promise.all([
    createUser(),
    createUser(),
    createUser({ roles: ["Pastor"] }),
  ]);
});
afterAll(() => gateway.close());

describe("the notifier (system job)", () => {
  it("creates an unread notification with count 1", async () => {
    const user = await createUser();
    const outcome = await deliverNotification(gateway.services, {
      userId: user.id,
      kind: "prayer_approved",
      title: "Your request is on the wall",
      body: "Thank you",
      link: "/prayer/x",
    });
    expect(outcome).toMatchObject({ action: "created", mailed: false });
    const [row] = await notificationsOf(user);
    expect(row).toMatchObject({
      id: outcome.id,
      kind: "prayer_approved",
      title: "Your request is on the wall",
      body: "Thank you",
      link: "/prayer/x",
      count: 1,
      readAt: "",
      groupKey: "",
    });
  });

  it("batches: two prayers within the hour are one notification with count 2, unread again", async () => {
    const user = await createUser();
    const requestId = tag();
    const first = await deliverNotification(gateway.services, prayed(user, requestId));
    // The owner reads it; the next prayer makes it unread again.
    await su.collection("notifications").update(first.id, { readAt: new Date().toISOString() });
    const second = await deliverNotification(gateway.services, {
      ...prayed(user, requestId),
      body: "2 people prayed",
    });
    expect(second).toMatchObject({ action: "batched", id: first.id });
    const rows = await notificationsOf(user);
    expect(rows.map((n) => [n.id, n.count, n.readAt, n.body])).toEqual([
      [first.id, 2, "", "2 people prayed"],
    ]);
  });

  it("through the wall: two people praying within the hour give the requester one notification, count 2", async () => {
    const requester = await createUser();
    const request = await su.collection("prayer_requests").create<PrayerRequestRecord>({
      body: `Please pray for my exams ${tag()}`,
      visibility: "public",
      anonymous: true,
      authorName: "",
      status: "approved",
    });
    await su
      .collection("prayer_request_private")
      .create({ request: request.id, user: requester.id, person: requester.personId, submitterName: "Req" });
    const PRAY = `mutation($id: ID!) { prayFor(id: $id) { prayedCount } }`;
    expect((await asUser(member).request(PRAY, { id: request.id })).errors).toBeUndefined();
    expect((await asUser(otherMember).request(PRAY, { id: request.id })).errors).toBeUndefined();
    const rows = await notificationsOf(requester);
    expect(rows.map((n) => [n.kind, n.count, n.groupKey])).toEqual([
      ["prayer_prayed", 2, `prayed:${request.id}`],
    ]);
  });

  it("batches concurrent notifies of one key into one notification", async () => {
    const user = await createUser();
    const requestId = tag();
    await Promise.all(Array.from({ length: 5 }, () => notify(gateway.services, prayed(user, requestId))));
    const rows = await notificationsOf(user);
    expect(rows.map((n) => n.count)).toEqual([5]);
  });

  it("starts a new notification after the window, and keeps other keys and users apart", async () => {
    const user = await createUser();
    const requestId = tag();
    const first = await deliverNotification(gateway.services, prayed(user, requestId));
    // Two hours later (as the job would see it): the hour-old notification is outside the window.
    const later = await deliverNotification(
      gateway.services,
      prayed(user, requestId),
      new Date(Date.now() + 2 * HOUR),
    );
    expect(later.action).toBe("created");
    expect(later.id).not.toBe(first.id);
    const otherKey = await deliverNotification(gateway.services, prayed(user, tag()));
    expect(otherKey.action).toBe("created");
    const otherUser = await createUser();
    expect((await deliverNotification(gateway.services, prayed(otherUser, requestId))).action).toBe(
      "created",
    );
    expect((await notificationsOf(user)).map((n) => n.count)).toEqual([1, 1, 1]);
  });

  it("mails the recipient under the church's name when asked", async () => {
    const user = await createUser({ email: uniqueEmail("notified") });
    const subject = `Your prayer request was answered ${tag()}`;
    const outcome = await deliverNotification(gateway.services, {
      userId: user.id,
      kind: "prayer_answered",
      title: "Answered",
      email: { subject, text: "Praise report: thank you for praying." },
    });
    expect(outcome.mailed).toBe(true);
    const mail = await waitForMail(catcherUrl(), user.email, new RegExp(subject));
    expect(mail.text).toContain("Praise report");
    const settings = await gateway.services.publicSettings.get();
    expect(mail.from).toContain(settings.churchName);
  });

  it("never throws to the caller (an unknown user is logged, not raised)", async () => {
    await expect(
      notify(gateway.services, { userId: "nosuchuser0000", kind: "prayer_approved", title: "x" }),
    ).resolves.toBeUndefined();
    await expect(
      deliverNotification(gateway.services, {
        userId: "nosuchuser0000",
        kind: "prayer_approved",
        title: "x",
      }),
    ).rejects.toThrow();
  });
});

describe("notifications through GraphQL", () => {
  it("lists the viewer's own notifications, newest first, with counts and pages", async () => {
    const user = await createUser();
    for (const title of ["one", "two", "three"])
      await deliverNotification(gateway.services, { userId: user.id, kind: "prayer_approved", title });
    await deliverNotification(gateway.services, {
      userId: otherMember.id,
      kind: "prayer_approved",
      title: "not yours",
    });
    const firstPage = await asUser(user).execute(LIST, { first: 2 });
    expect(firstPage.errors).toBeUndefined();
    const page = firstPage.data!.notifications;
    expect(page.edges.map((e) => e.node.title)).toEqual(["three", "two"]);
    expect(page).toMatchObject({ totalCount: 3, unreadCount: 3, pageInfo: { hasNextPage: true } });
    expect(page.edges[0]!.node).toMatchObject({
      kind: "PRAYER_APPROVED",
      body: "",
      link: null,
      count: 1,
      readAt: null,
    });
    const next = await asUser(user).execute(LIST, { first: 2, after: page.pageInfo.endCursor });
    expect(next.data!.notifications.edges.map((e) => e.node.title)).toEqual(["one"]);
    expect(next.data!.notifications.pageInfo.hasNextPage).toBe(false);
  });

  it("refuses visitors", async () => {
    for (const query of [LIST, MARK_ALL])
      expect(errorCode(await asUser(null).request(query, { id: "x" }))).toBe("UNAUTHENTICATED");
    expect(errorCode(await asUser(null).request(MARK, { id: "x" }))).toBe("UNAUTHENTICATED");
  });

  it("marks one read (keeping the first read time), and the unread count follows", async () => {
    const user = await createUser();
    const a = await deliverNotification(gateway.services, {
      userId: user.id,
      kind: "prayer_approved",
      title: "a",
    });
    await deliverNotification(gateway.services, { userId: user.id, kind: "prayer_approved", title: "b" });
    const marked = await asUser(user).execute(MARK, { id: a.id });
    expect(marked.errors).toBeUndefined();
    expect(marked.data!.markNotificationRead.readAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    const again = await asUser(user).execute(MARK, { id: a.id });
    expect(again.data!.markNotificationRead.readAt).toBe(marked.data!.markNotificationRead.readAt);
    expect((await asUser(user).execute(LIST)).data!.notifications.unreadCount).toBe(1);
  });

  it("a member cannot mark another user's notification read (NOT_FOUND, nothing changes)", async () => {
    const theirs = await deliverNotification(gateway.services, {
      userId: otherMember.id,
      kind: "prayer_approved",
      title: "theirs",
    });
    expect(errorCode(await asUser(member).request(MARK, { id: theirs.id }))).toBe("NOT_FOUND");
    expect((await su.collection("notifications").getOne<NotificationRecord>(theirs.id)).readAt).toBe("");
  });

  it("marks all read: answers how many changed, touches only the viewer's", async () => {
    const user = await createUser();
    for (const title of ["a", "b", "c"])
      await deliverNotification(gateway.services, { userId: user.id, kind: "prayer_approved", title });
    const theirs = await deliverNotification(gateway.services, {
      userId: otherMember.id,
      kind: "prayer_approved",
      title: "theirs",
    });
    const result = await asUser(user).execute(MARK_ALL);
    expect(result.data).toEqual({ markAllNotificationsRead: 3 });
    expect((await notificationsOf(user)).every((n) => n.readAt !== "")).toBe(true);
    expect((await su.collection("notifications").getOne<NotificationRecord>(theirs.id)).readAt).toBe("");
    expect((await asUser(user).execute(MARK_ALL)).data).toEqual({ markAllNotificationsRead: 0 });
  });
});

type NotificationEvent = {
  myNotifications: {
    kind: string;
    unreadCount: number;
    notification: { id: string; title: string; count: number } | null;
  };
};
const SUBSCRIBE = "subscription { myNotifications { kind unreadCount notification { id title count } } }";

describe("live notifications (subscription myNotifications)", () => {
  it("delivers the viewer's own notifications with the unread count, never another user's", async () => {
    const user = await createUser();
    const stream = await SseSubscription.open<NotificationEvent>(gateway, {
      query: SUBSCRIBE,
      token: user.token,
    });
    try {
      // PocketBase's subscription opens asynchronously: notify until the first one arrives.
      const warmup = `warm-up ${tag()}`;
      const keepNotifying = setInterval(
        () => void notify(gateway.services, { userId: user.id, kind: "prayer_approved", title: warmup }),
        300,
      );
      try {
        await stream.next((e) => e.data?.myNotifications.notification?.title === warmup);
      } finally {
        clearInterval(keepNotifying);
      }
      // Another user's notification, then a marker of the viewer's: PocketBase sends one connection its
      // events in order, so once the marker is here, the other one would have been too.
      const theirs = await deliverNotification(gateway.services, {
        userId: otherMember.id,
        kind: "prayer_approved",
        title: `theirs ${tag()}`,
      });
      const marker = `marker ${tag()}`;
      const mine = await deliverNotification(gateway.services, {
        userId: user.id,
        kind: "prayer_approved",
        title: marker,
      });
      const added = await stream.next((e) => e.data?.myNotifications.notification?.id === mine.id);
      const unread = (await notificationsOf(user)).filter((n) => !n.readAt).length;
      expect(added.data!.myNotifications).toMatchObject({ kind: "ADDED", unreadCount: unread });
      expect(stream.results.some((e) => e.data?.myNotifications.notification?.id === theirs.id)).toBe(false);

      // Marking read is an UPDATED event with the lower count.
      await asUser(user).request(MARK, { id: mine.id });
      const updated = await stream.next(
        (e) =>
          e.data?.myNotifications.kind === "UPDATED" && e.data.myNotifications.notification?.id === mine.id,
      );
      expect(updated.data!.myNotifications.unreadCount).toBe(unread - 1);
    } finally {
      await stream.close();
    }
  });

  it("is for signed-in users only", async () => {
    const stream = await SseSubscription.open<NotificationEvent>(gateway, { query: SUBSCRIBE });
    try {
      const refused = await stream.next((e) => !!e.errors);
      expect(refused.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
    } finally {
      await stream.close();
    }
  });
});

describe("sign-up approval notifies in the app", () => {
  it("approving a sign-up gives the new member a signup_approved notification linking to /me", async () => {
    const email = uniqueEmail("newcomer");
    const { client, user, person } = await signUpAndSignIn(
      gateway,
      { firstName: "Nora", lastName: `Notified${tag()}`, email },
      `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
    );
    const approved = await asUser(pastor).request(
      `mutation($id: ID!) { approveSignUp(personId: $id, input: {}) { id } }`,
      { id: person.id },
    );
    expect(approved.errors).toBeUndefined();
    const rows = await su
      .collection("notifications")
      .getFullList<NotificationRecord>({ filter: su.filter("user = {:u}", { u: user.id }) });
    expect(rows.map((n) => [n.kind, n.link, n.count, n.readAt])).toEqual([["signup_approved", "/me", 1, ""]]);
    // The new member reads it with their own session.
    const list = await client.execute(LIST);
    expect(list.data!.notifications.edges.map((e) => e.node.kind)).toEqual(["SIGNUP_APPROVED"]);
  });
});

describe("prayer expiry (system job)", () => {
  const request = (status: PrayerRequestRecord["status"], expiresAt: string) =>
    su.collection("prayer_requests").create<PrayerRequestRecord>({
      body: `An expiring request ${tag()}`,
      visibility: "public",
      anonymous: false,
      authorName: "Expiry Test",
      status,
      expiresAt,
    });

  it("archives approved and answered requests whose expiresAt has passed, and nothing else", async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const future = new Date(Date.now() + HOUR).toISOString();
    const expiredApproved = await request("approved", past);
    const expiredAnswered = await request("answered", past);
    const notYet = await request("approved", future);
    const pending = await request("pending", past);
    const rejected = await request("rejected", past);
    const noDeadline = await request("approved", "");

    const archived = await archiveExpiredPrayerRequests(gateway.services.system);
    expect(archived).toEqual(expect.arrayContaining([expiredApproved.id, expiredAnswered.id]));
    const statusOf = async (r: PrayerRequestRecord) =>
      (await su.collection("prayer_requests").getOne<PrayerRequestRecord>(r.id)).status;
    expect(
      await Promise.all(
        [expiredApproved, expiredAnswered, notYet, pending, rejected, noDeadline].map(statusOf),
      ),
    ).toEqual(["archived", "archived", "approved", "pending", "rejected", "approved"]);
    // Run again: nothing left to do for these.
    const again = await archiveExpiredPrayerRequests(gateway.services.system);
    expect(again).not.toContain(expiredApproved.id);
  });
});
