import DataLoader from "dataloader";
import type { GatewayContext } from "../../context.ts";
import { notFound, pbCall } from "../../errors.ts";
import type { CheckinRecord, CheckinRoomRecord, CheckinSessionRecord } from "../../pocketbase/records.ts";
import { parsePocketBaseDate } from "../../pocketbase/dates.ts";
import { anyOf } from "../../pocketbase/filters.ts";
import { can } from "../../access/abilities.ts";

/**
 * Check-in's reads shared by its resolvers: per-request loaders, a session, whether the caller serves in
 * a room.
 *
 * Sunday morning, every station and parent's phone is one IP (the church's Wi-Fi), and PocketBase sleeps
 * 0–500 ms on a filtered list read that comes back empty once more than 3 came from that IP in 3 s
 * (its randomizedThrottle; gateway/test/pocketbase-throttle.int.test.ts). The lookups here that are
 * often empty — "am I serving anywhere?", "is this family checked in yet?" — are therefore made by the
 * system, scoped in code to what the caller may read anyway (their own rows; an operator reads every
 * check-in), which PocketBase never throttles.
 */

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
        // An operator's rights do not depend on serving (access/checkin.ts): nothing to look up.
        if (!user?.person || can(user, "operateCheckin")) return keys.map(() => false);
        // The caller's own volunteer check-ins (see above: read by the system).
        const system = await ctx.system.get();
        const mine = await system.collection("checkins").getFullList<CheckinRecord>({
          filter: system.filter('person = {:person} && kind = "volunteer" && checkedOutAt = ""', {
            person: user.person,
          }),
          fields: "session,room",
        });
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

/** The session's check-ins of these people, for an operator (who reads every check-in): a system read (see above). */
export async function checkinsOf(
  ctx: GatewayContext,
  sessionId: string,
  personIds: readonly string[],
): Promise<CheckinRecord[]> {
  if (!personIds.length) return [];
  const system = await ctx.system.get();
  return system.collection("checkins").getFullList<CheckinRecord>({
    filter: `${system.filter("session = {:session}", { session: sessionId })} && (${anyOf(system, "person", personIds)})`,
  });
}
