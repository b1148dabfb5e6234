import type PocketBase from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { pbCall } from "../../errors.ts";
import type { NotificationRecord } from "../../pocketbase/records.ts";
import type { BridgeEvent } from "../../realtime/event-queue.ts";
import type { Resolvers, WallEventKind } from "../__generated__/types.ts";
import { connection, keysetFilter, pageArgs } from "../pagination.ts";
import { requireViewer } from "../../access/guards.ts";
import { selectsField } from "../selection.ts";
import { fromPocketBaseDate } from "../../pocketbase/dates.ts";
import { pocketBaseNow } from "../../pocketbase/dates.ts";

/**
 * In-app notifications (PRODUCT.md §3 /me/notifications). System jobs create them (system/notifier.ts);
 * everything here runs with the caller's token, so PocketBase's rules (own rows only, and only readAt
 * may change) decide: another user's notification is simply not found.
 */

const notificationsOf = (pb: PocketBase) => pb.collection("notifications");
const unreadOf = (pb: PocketBase, userId: string) =>
  pb.filter('user = {:user} && readAt = ""', { user: userId });
/** PocketBase's own date format: what readAt is compared with and stored as. */

// The list rule gives a caller their own notifications only, so reads need no `user = …` filter.
// They must not have one: a filtered list that comes back empty (no notifications, nothing unread:
// the usual case) is answered after a random 0–500 ms sleep once more than 3 came from one IP in 3 s,
// and behind the gateway a whole church is a handful of IPs (docs/PERFORMANCE.md).

/** Unread rows sort first (readAt = ""); one page of them is counted without a filter. */
const UNREAD_SCAN = 100;

/** The caller's unread count. Only a backlog of 100+ asks for a filtered count, which then finds rows. */
async function unreadCount(pb: PocketBase, userId: string): Promise<number> {
  const head = await pbCall(() =>
    notificationsOf(pb).getList<Pick<NotificationRecord, "readAt">>(1, UNREAD_SCAN, {
      sort: "readAt",
      fields: "readAt",
      skipTotal: true,
    }),
  );
  const unread = head.items.filter((n) => !n.readAt).length;
  if (unread < UNREAD_SCAN) return unread;
  const page = await pbCall(() =>
    notificationsOf(pb).getList(1, 1, { filter: unreadOf(pb, userId), fields: "id", skipTotal: false }),
  );
  return page.totalItems;
}

const EVENT_KIND: Record<"create" | "update" | "delete", WallEventKind> = {
  create: "ADDED",
  update: "UPDATED",
  delete: "REMOVED",
};

async function toEvent(event: BridgeEvent<NotificationRecord>, ctx: GatewayContext) {
  // A change may leave the viewer's session meanwhile (sign-out): the count then fails like any read.
  const viewer = await requireViewer(ctx);
  const count = await unreadCount(ctx.pb, viewer.id);
  if (event.type === "resync") return { kind: "RESYNC" as const, notification: null, unreadCount: count };
  // REMOVED carries the removed notification too (it is the viewer's own), so the client knows which.
  return { kind: EVENT_KIND[event.action], notification: event.record, unreadCount: count };
}

export const notificationsResolvers: Resolvers = {
  Query: {
    async notifications(_, { first, after }, ctx, info) {
      const { size, cursor } = pageArgs(first, after, 20);
      const viewer = await requireViewer(ctx);
      // Counted only when asked for, and at the same time as the page (the bell asks for both).
      const unread = selectsField(info, "unreadCount") ? unreadCount(ctx.pb, viewer.id) : null;
      unread?.catch(() => undefined); // a failure is reported by the field, not as an unhandled rejection
      const filter = cursor ? keysetFilter(ctx.pb, "created", cursor) : "";
      const rows = await pbCall(() =>
        notificationsOf(ctx.pb).getList<NotificationRecord>(1, size + 1, {
          filter,
          sort: "-created,-id",
          skipTotal: true,
        }),
      );
      const page = connection(
        rows.items,
        size,
        (n) => n.created,
        async () =>
          (await pbCall(() => notificationsOf(ctx.pb).getList(1, 1, { fields: "id", skipTotal: false })))
            .totalItems,
      );
      return { ...page, unreadCount: (() => unread ?? unreadCount(ctx.pb, viewer.id)) as unknown as number };
    },
  },
  Mutation: {
    async markNotificationRead(_, { id }, ctx) {
      await requireViewer(ctx);
      const current = await pbCall(() => notificationsOf(ctx.pb).getOne<NotificationRecord>(id));
      // Already read: keep when it was first read.
      if (current.readAt) return current;
      return pbCall(() =>
        notificationsOf(ctx.pb).update<NotificationRecord>(id, { readAt: pocketBaseNow() }),
      );
    },
    async markAllNotificationsRead(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      const unread = await pbCall(() =>
        notificationsOf(ctx.pb).getFullList<Pick<NotificationRecord, "id">>({
          filter: unreadOf(ctx.pb, viewer.id),
          fields: "id",
          batch: 200,
        }),
      );
      const readAt = pocketBaseNow();
      // A few at a time: a long backlog must not open hundreds of connections to PocketBase at once.
      const PARALLEL = 8;
      for (let i = 0; i < unread.length; i += PARALLEL) {
        await Promise.all(
          unread
            .slice(i, i + PARALLEL)
            .map((n) => pbCall(() => notificationsOf(ctx.pb).update(n.id, { readAt }))),
        );
      }
      return unread.length;
    },
  },
  Subscription: {
    myNotifications: {
      // PocketBase sends this viewer's realtime connection only the rows its list rule lets them read:
      // their own notifications.
      async subscribe(_, __, ctx) {
        await requireViewer(ctx);
        const queue = ctx.realtime.subscribe<NotificationRecord>(
          await ctx.realtimeIdentity(),
          "notifications",
          "*",
        );
        // The stream opens once PocketBase confirmed the topic: the client may then query without a gap.
        await queue.ready;
        return queue;
      },
      resolve: (event: BridgeEvent<NotificationRecord>, _: unknown, ctx: GatewayContext) =>
        toEvent(event, ctx),
    },
  },
  Notification: {
    body: (n) => n.body ?? "",
    link: (n) => n.link || null,
    count: (n) => n.count || 1,
    readAt: (n) => (n.readAt ? fromPocketBaseDate(n.readAt) : null),
    created: (n) => fromPocketBaseDate(n.created),
  },
};
