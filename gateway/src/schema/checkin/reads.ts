import DataLoader from "dataloader";
import type { GatewayContext } from "../../context.ts";
import { notFound, pbCall } from "../../errors.ts";
import type { CheckinRecord, CheckinRoomRecord, CheckinSessionRecord } from "../../pocketbase/records.ts";
import { parsePocketBaseDate } from "../../pocketbase/dates.ts";
import { anyOf } from "../../pocketbase/filters.ts";

/** Check-in's reads shared by its resolvers: per-request loaders, a session, whether the caller serves in a room. */

interface CheckinLoaders {
  room: DataLoader<string, CheckinRoomRecord | null>;
  session: DataLoader<string, CheckinSessionRecord | null>;
  /** Whether the caller serves now in the room (key: session + "/" + room). */
  servesIn: DataLoader<string, boolean>;
}
const loaders = new WeakMap<object, CheckinLoaders>();

export function loadersOf(ctx: GatewayContext): CheckinLoaders {
  let l = loaders.get(ctx);
  if (!l) {
    const one = <T extends { id: string }>(collection: string) =>
      new DataLoader<string, T | null>(
        async (ids) => {
          const rows = await pbCall(() =>
            ctx.pb.collection(collection).getFullList<T>({ filter: anyOf(ctx.pb, "id", ids) }),
          );
          return ids.map((id) => rows.find((row) => row.id === id) ?? null);
        },
        { maxBatchSize: 50 },
      );
    l = {
      room: one<CheckinRoomRecord>("checkin_rooms"),
      session: one<CheckinSessionRecord>("checkin_sessions"),
      servesIn: new DataLoader<string, boolean>(async (keys) => {
        const user = await ctx.viewer();
        if (!user?.person) return keys.map(() => false);
        const mine = await pbCall(() =>
          ctx.pb.collection("checkins").getFullList<CheckinRecord>({
            filter: ctx.pb.filter('person = {:person} && kind = "volunteer" && checkedOutAt = ""', {
              person: user.person,
            }),
            fields: "session,room",
          }),
        );
        return keys.map((key) => mine.some((row) => `${row.session}/${row.room}` === key));
      }),
    };
    loaders.set(ctx, l);
  }
  return l;
}

export const servesIn = (ctx: GatewayContext, sessionId: string, roomId: string) =>
  loadersOf(ctx).servesIn.load(`${sessionId}/${roomId}`);

export async function requireSession(ctx: GatewayContext, id: string): Promise<CheckinSessionRecord> {
  const session = await loadersOf(ctx).session.load(id);
  if (!session) throw notFound();
  return session;
}

export const isOpen = (session: CheckinSessionRecord, now = Date.now()) =>
  !!session.opensAt &&
  parsePocketBaseDate(session.opensAt).getTime() <= now &&
  now <= parsePocketBaseDate(session.closesAt).getTime();

/** Read one check-in with the caller's rights (the rules decide). */
export const readCheckin = (ctx: GatewayContext, id: string) =>
  pbCall(() => ctx.pb.collection("checkins").getOne<CheckinRecord>(id));
