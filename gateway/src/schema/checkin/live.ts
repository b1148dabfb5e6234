import type { GatewayContext } from "../../context.ts";
import { forbidden } from "../../errors.ts";
import type {
  CheckinRecord,
  CheckinRoomRecord,
  CheckinSessionRecord,
  PersonRecord,
} from "../../pocketbase/records.ts";
import { requireViewer } from "../../access/guards.ts";
import { checkinCan, readsRoom } from "../../access/checkin.ts";
import { notify, usersOfPeople } from "../../system/notifier.ts";
import type { Translate } from "../../mail/i18n.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { readCheckin, servesIn } from "./reads.ts";
import { mapEvents } from "../../realtime/event-queue.ts";

/**
 * A room, live: the roster's readers hear each change to its check-ins (PocketBase's realtime, with the
 * subscriber's own identity, so its rules decide who hears what), and page a child's parents.
 */

async function subscribeToRoom(ctx: GatewayContext, sessionId: string, roomId: string) {
  const viewer = await requireViewer(ctx);
  if (!readsRoom(viewer, await servesIn(ctx, sessionId, roomId))) throw forbidden();
  const queue = ctx.realtime.subscribe<CheckinRecord>(await ctx.realtimeIdentity(), "checkins", "*", {
    filter: ctx.pb.filter("session = {:sessionId} && room = {:roomId}", { sessionId, roomId }),
  });
  await queue.ready;
  // A resync (a slow reader, a reconnect) names nothing: read everything again.
  return mapEvents(queue, (event) => ({
    sessionId,
    roomId,
    checkinId: event.type === "resync" ? "" : event.record.id,
  }));
}

export const liveResolvers: Resolvers = {
  Subscription: {
    checkinRoomChanged: {
      subscribe: async (_, { sessionId, roomId }, ctx) => subscribeToRoom(ctx, sessionId, roomId) as never,
      resolve: (value: unknown) => value as never,
    },
  },
  Mutation: {
    async pageParent(_, { checkinId }, ctx) {
      const viewer = await requireViewer(ctx);
      const checkin = await readCheckin(ctx, checkinId);
      if (!checkinCan(viewer, checkin, await servesIn(ctx, checkin.session, checkin.room)).page)
        throw forbidden();
      // System job: whom to tell (the household's adults) is not the caller's to read.
      const system = await ctx.system.get();
      const [adults, room, session] = await Promise.all([
        checkin.household
          ? system.collection("people").getFullList<PersonRecord>({
              filter: system.filter(
                'household = {:household} && ageGroup = "adult" && recordStatus = "active"',
                { household: checkin.household },
              ),
              fields: "id",
            })
          : Promise.resolve([]),
        system.collection("checkin_rooms").getOne<CheckinRoomRecord>(checkin.room),
        system.collection("checkin_sessions").getOne<CheckinSessionRecord>(checkin.session),
      ]);
      const names = { room: room.name, child: checkin.name, session: session.name };
      const users = await usersOfPeople(
        system,
        adults.map((a) => a.id),
      );
      for (const user of users) {
        const title = (t: Translate) => t("checkin.page.title", names);
        await notify(ctx, {
          userId: user.id,
          kind: "checkin_page",
          title,
          link: "/me/checkins",
          email: (t) => ({ subject: title(t), text: t("checkin.page.text", names) }),
        });
      }
      return users.length > 0;
    },
  },
};
