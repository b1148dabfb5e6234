import type { GatewayContext } from "../../context.ts";
import { badUserInput, forbidden, notFound, pbCall } from "../../errors.ts";
import type {
  CheckinRecord,
  CheckinCountsRecord,
  CheckinRoomRecord,
  CheckinSessionRecord,
  PersonRecord,
} from "../../pocketbase/records.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import { can } from "../../access/abilities.ts";
import { checkinCan, checkinSetupCan, readsRoom } from "../../access/checkin.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { fromPocketBaseDate, fromPocketBaseDateOrNull, toPocketBaseDate } from "../../pocketbase/dates.ts";
import { Validator } from "../../validation/validate.ts";
import { CHECKIN_LIMITS } from "@flock/shared/limits-features";
import type { CheckinRoomInput, CheckinSessionInput, Resolvers } from "../__generated__/types.ts";
import { familiesResolvers } from "./families.ts";
import { checkinsOf, isOpen, loadersOf, readCheckin, requireSession, servesIn } from "./reads.ts";
import { liveResolvers } from "./live.ts";
import { householdResolvers } from "./household.ts";
import { isSelfStation, stationOf, stationResolvers } from "./stations.ts";
import { reportResolvers } from "./report.ts";

/**
 * Child check-in (issue 28): rooms, sessions, check-ins and checkouts. Every read and write runs with
 * the caller's token: PocketBase's rules (pb_migrations/1732620000_checkin.js) decide who sees what,
 * and its hook (pb_hooks/lib/checkin.js) the window, capacity and ratio, the pickup code and checkout.
 * Families are found and first-time families added by the system for operators (families.ts): an
 * operator may not read people records, and learns only names, ages and care notes from it.
 */

const nullIfZero = (value: number | null | undefined) => (value ? value : null);

function roomFields(input: CheckinRoomInput) {
  const v = new Validator();
  const name = v.text("name", input.name, { required: true, max: CHECKIN_LIMITS.checkinRoomNameMax });
  const bounded = (field: string, value: number | null | undefined, min: number, max: number) => {
    if (value == null) return 0;
    if (!Number.isInteger(value) || value < min || value > max)
      v.add(field, "out_of_range", `Use a whole number from ${min} to ${max}.`);
    return value;
  };
  const minAgeMonths =
    input.minAgeMonths == null
      ? null
      : bounded("minAgeMonths", input.minAgeMonths, 0, CHECKIN_LIMITS.checkinAgeMonthsMax);
  const maxAgeMonths =
    input.maxAgeMonths == null
      ? null
      : bounded("maxAgeMonths", input.maxAgeMonths, 0, CHECKIN_LIMITS.checkinAgeMonthsMax);
  if (minAgeMonths != null && maxAgeMonths != null && maxAgeMonths < minAgeMonths)
    v.add("maxAgeMonths", "before_min", "The oldest age must not be below the youngest.");
  const capacity = bounded("capacity", input.capacity, 1, CHECKIN_LIMITS.checkinRoomCapacityMax);
  const ratio = bounded("ratio", input.ratio, 1, CHECKIN_LIMITS.checkinRoomRatioMax);
  v.done();
  return {
    name,
    minAgeMonths,
    maxAgeMonths,
    capacity,
    ratio,
    requiresClearance: input.requiresClearance ?? false,
    active: input.active ?? true,
  };
}

async function sessionFields(ctx: GatewayContext, input: CheckinSessionInput) {
  const v = new Validator();
  const name = v.text("name", input.name, { required: true, max: CHECKIN_LIMITS.checkinSessionNameMax });
  const startsAt = new Date(input.startsAt);
  if (Number.isNaN(startsAt.getTime())) v.add("startsAt", "invalid_date", "Use a valid date and time.");
  const minutes = (field: string, value: number | null | undefined, fallback: number) => {
    const n = value ?? fallback;
    if (!Number.isInteger(n) || n < 0 || n > CHECKIN_LIMITS.checkinWindowMinutesMax)
      v.add(field, "out_of_range", `Use 0 to ${CHECKIN_LIMITS.checkinWindowMinutesMax} minutes.`);
    return n;
  };
  const opensMinutes = minutes("opensMinutes", input.opensMinutes, 30);
  const closesMinutes = minutes("closesMinutes", input.closesMinutes, 15);
  const roomIds = [...new Set(input.roomIds)];
  if (!roomIds.length) v.add("roomIds", "required", "Open at least one room.");
  if (roomIds.length > CHECKIN_LIMITS.checkinSessionRoomsMax)
    v.add("roomIds", "too_many", `At most ${CHECKIN_LIMITS.checkinSessionRoomsMax} rooms.`);
  v.done();
  const known = (await loadersOf(ctx).room.loadMany(roomIds)).filter(
    (room) => room && !(room instanceof Error),
  );
  if (known.length !== roomIds.length)
    throw badUserInput({ roomIds: { code: "not_found", message: "A room was not found." } });
  return {
    name,
    startsAt: toPocketBaseDate(startsAt),
    opensMinutes,
    closesMinutes,
    rooms: roomIds,
    event: input.eventId ?? "",
  };
}

/**
 * Each open room's numbers in the session, from the counts the hook keeps (checkin_counts): read with
 * the caller's rights, so operators and tokens with CHECKIN_COUNTS get them and everyone else none.
 */
async function countsOf(ctx: GatewayContext, session: CheckinSessionRecord) {
  // A member may not read them: no read at all (an empty filtered read is throttled: reads.ts).
  if (!ctx.apiClient && !can(await ctx.viewer(), "operateCheckin")) return [];
  const rows = await pbCall(() =>
    ctx.pb.collection("checkin_counts").getFullList<CheckinCountsRecord>({
      filter: ctx.pb.filter("session = {:session}", { session: session.id }),
    }),
  );
  // The hook keeps a row for every open room (zeros to start with): none means not the caller's to read.
  const open = rows.filter((row) => session.rooms.includes(row.room));
  const rooms = (await loadersOf(ctx).room.loadMany(open.map((row) => row.room))).filter(
    (room): room is CheckinRoomRecord => !!room && !(room instanceof Error),
  );
  return rooms.sort(byRoomOrder).map((room) => {
    const row = open.find((r) => r.room === room.id)!;
    return {
      room,
      children: row.children,
      volunteers: row.volunteers,
      childrenTotal: row.childrenTotal,
      firstTime: row.firstTime,
      placesLeft: room.capacity ? Math.max(0, room.capacity - row.children) : null,
    };
  });
}

const byRoomOrder = (a: CheckinRoomRecord, b: CheckinRoomRecord) =>
  a.sort - b.sort || a.name.localeCompare(b.name);

export const checkinResolvers: Resolvers = {
  CheckinRoom: {
    minAgeMonths: (room) => room.minAgeMonths ?? null,
    maxAgeMonths: (room) => room.maxAgeMonths ?? null,
    capacity: (room) => nullIfZero(room.capacity),
    ratio: (room) => nullIfZero(room.ratio),
    can: async (_, __, ctx) => checkinSetupCan(await ctx.viewer()),
  },
  CheckinSession: {
    startsAt: (session) => fromPocketBaseDate(session.startsAt),
    opensAt: (session) => fromPocketBaseDate(session.opensAt),
    closesAt: (session) => fromPocketBaseDate(session.closesAt),
    isOpen: (session) => isOpen(session),
    can: async (_, __, ctx) => checkinSetupCan(await ctx.viewer()),
    eventId: (session) => session.event || null,
    async rooms(session, _, ctx) {
      const rooms = await loadersOf(ctx).room.loadMany(session.rooms);
      return rooms
        .filter((room): room is CheckinRoomRecord => !!room && !(room instanceof Error))
        .sort(byRoomOrder);
    },
    counts: (session, _, ctx) => countsOf(ctx, session),
  },
  Checkin: {
    async session(checkin, _, ctx) {
      return requireSession(ctx, checkin.session);
    },
    async room(checkin, _, ctx) {
      const room = await loadersOf(ctx).room.load(checkin.room);
      if (!room) throw notFound();
      return room;
    },
    personId: (checkin) => checkin.person,
    code: (checkin) => (checkin.kind === "child" ? checkin.code : null),
    checkedInAt: (checkin) => fromPocketBaseDate(checkin.created),
    checkedOutAt: (checkin) => fromPocketBaseDateOrNull(checkin.checkedOutAt),
    offlineAt: (checkin) => fromPocketBaseDateOrNull(checkin.offlineAt),
    overrideReason: (checkin) => checkin.overrideReason || null,
    // A self station (a lobby screen) shows no medical notes or pickup alerts; allergies go on the label.
    medicalNotes: async (checkin, _, ctx) => ((await isSelfStation(ctx)) ? "" : checkin.medicalNotes),
    notAuthorized: async (checkin, _, ctx) => ((await isSelfStation(ctx)) ? "" : checkin.alerts),
    async can(checkin, _, ctx) {
      // A station checks children out with the code on the pickup tag; it pages nobody.
      if (await stationOf(ctx))
        return { checkOut: checkin.kind === "child" && !checkin.checkedOutAt, page: false };
      return checkinCan(await ctx.viewer(), checkin, await servesIn(ctx, checkin.session, checkin.room));
    },
  },
  Query: {
    // Rooms and sessions: operators, active members and tokens with CHECKIN_COUNTS (the rules decide).
    async checkinSessions(_, { days }, ctx) {
      const span = Math.min(Math.max(days ?? 7, 1), 28);
      const now = Date.now();
      const filter = ctx.pb.filter("closesAt >= {:from} && startsAt <= {:to}", {
        from: toPocketBaseDate(now - 12 * 60 * 60 * 1000),
        to: toPocketBaseDate(now + span * 24 * 60 * 60 * 1000),
      });
      return pbCall(() =>
        ctx.pb.collection("checkin_sessions").getFullList<CheckinSessionRecord>({ filter, sort: "startsAt" }),
      );
    },
    async checkinSession(_, { id }, ctx) {
      return loadersOf(ctx).session.load(id);
    },
    checkinRoom: (_, { id }, ctx) => loadersOf(ctx).room.load(id),
    async checkinRooms(_, __, ctx) {
      const rooms = await pbCall(() =>
        ctx.pb.collection("checkin_rooms").getFullList<CheckinRoomRecord>({ sort: "sort,name" }),
      );
      return can(await ctx.viewer(), "operateCheckin") ? rooms : rooms.filter((room) => room.active);
    },
    async checkinRoster(_, { sessionId, roomId }, ctx) {
      const viewer = await requireViewer(ctx);
      if (!readsRoom(viewer, await servesIn(ctx, sessionId, roomId))) throw forbidden();
      const [session, room] = await Promise.all([
        requireSession(ctx, sessionId),
        loadersOf(ctx).room.load(roomId),
      ]);
      if (!room) throw notFound();
      // A volunteer's own read always holds their own row; an operator, who reads every check-in, reads
      // an empty room through the system (an empty filtered read is throttled: reads.ts).
      const reader = can(viewer, "operateCheckin") ? await ctx.system.get() : ctx.pb;
      const rows = await pbCall(() =>
        reader.collection("checkins").getFullList<CheckinRecord>({
          filter: reader.filter("session = {:session} && room = {:room}", {
            session: sessionId,
            room: roomId,
          }),
          sort: "created",
        }),
      );
      return {
        session,
        room,
        children: rows.filter((row) => row.kind === "child" && !row.checkedOutAt),
        checkedOut: rows
          .filter((row) => row.kind === "child" && row.checkedOutAt)
          .sort((a, b) => b.checkedOutAt.localeCompare(a.checkedOutAt)),
        volunteers: rows.filter((row) => row.kind === "volunteer" && !row.checkedOutAt),
      };
    },
    async myCheckins(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      if (!viewer.person) return [];
      // The last day's check-ins of the caller's household, as the rules let them read them (an active
      // adult: the household's; anyone else: their own). Read by the system, since a family with nothing
      // checked in would be an empty filtered read from the church's IP (see reads.ts).
      const me = await pbCall(() =>
        ctx.pb
          .collection("people")
          .getOne<PersonRecord>(viewer.person, { fields: "household,ageGroup,recordStatus" }),
      );
      const wholeHousehold = !!me.household && me.ageGroup === "adult" && me.recordStatus === "active";
      const system = await ctx.system.get();
      return system.collection("checkins").getFullList<CheckinRecord>({
        filter: system.filter(
          `created >= {:since} && kind = "child" && ${wholeHousehold ? "household = {:household}" : "person = {:person}"}`,
          {
            since: toPocketBaseDate(Date.now() - 24 * 60 * 60 * 1000),
            household: me.household,
            person: viewer.person,
          },
        ),
        sort: "-created",
        batch: 50,
      });
    },
  },
  Mutation: {
    async checkOut(_, { input }, ctx) {
      const station = await stationOf(ctx);
      if (!station) await requireViewer(ctx);
      const v = new Validator();
      const code = v.text("code", input.code, { max: CHECKIN_LIMITS.checkinCodeLength }).toUpperCase();
      const overrideReason = v.text("overrideReason", input.overrideReason, {
        min: CHECKIN_LIMITS.checkoutReasonMin,
        max: CHECKIN_LIMITS.checkoutReasonMax,
      });
      v.done();
      // An override is a person's decision, logged with their name: a station checks out with the code only.
      if (station && !code)
        throw forbidden(
          "Checking a child out without the code needs check-in staff signed in.",
          "override_needs_staff",
        );
      await readCheckin(ctx, input.id);
      return writeAsCaller(
        () =>
          ctx.pb.collection("checkins").update<CheckinRecord>(input.id, {
            checkedOutAt: toPocketBaseDate(new Date()),
            pickupCode: code,
            // With the code there is no reason to send (a station may not send one at all).
            ...(!code && { overrideReason }),
          }),
        { pickupCode: "code" },
      );
    },
    async serveInRoom(_, { sessionId, roomId }, ctx) {
      const viewer = await requireViewer(ctx);
      if (!viewer.person) throw forbidden("Your account has no person record yet.");
      // Already checked in (their own row; a system read, see reads.ts).
      const [existing] = await checkinsOf(ctx, sessionId, [viewer.person]);
      if (existing) return existing;
      return writeAsCaller(() =>
        ctx.pb.collection("checkins").create<CheckinRecord>({
          session: sessionId,
          room: roomId,
          person: viewer.person,
          kind: "volunteer",
        }),
      );
    },
    async createCheckinRoom(_, { input }, ctx) {
      await requireAbility(ctx, "operateCheckin");
      const fields = roomFields(input);
      const last = await pbCall(() =>
        ctx.pb
          .collection("checkin_rooms")
          .getList<CheckinRoomRecord>(1, 1, { sort: "-sort", skipTotal: true }),
      );
      const sort = Math.min((last.items[0]?.sort ?? 0) + 10, 10_000);
      return writeAsCaller(() =>
        ctx.pb.collection("checkin_rooms").create<CheckinRoomRecord>({ ...fields, sort }),
      );
    },
    async updateCheckinRoom(_, { id, input }, ctx) {
      await requireAbility(ctx, "operateCheckin");
      return writeAsCaller(() =>
        ctx.pb.collection("checkin_rooms").update<CheckinRoomRecord>(id, roomFields(input)),
      );
    },
    async createCheckinSession(_, { input }, ctx) {
      await requireAbility(ctx, "operateCheckin");
      const fields = await sessionFields(ctx, input);
      return writeAsCaller(() => ctx.pb.collection("checkin_sessions").create<CheckinSessionRecord>(fields));
    },
    async updateCheckinSession(_, { id, input }, ctx) {
      await requireAbility(ctx, "operateCheckin");
      const fields = await sessionFields(ctx, input);
      return writeAsCaller(() =>
        ctx.pb.collection("checkin_sessions").update<CheckinSessionRecord>(id, fields),
      );
    },
    async deleteCheckinSession(_, { id }, ctx) {
      await requireAbility(ctx, "operateCheckin");
      await writeAsCaller(() => ctx.pb.collection("checkin_sessions").delete(id));
      return true;
    },
  },
};

/** Everything check-in resolves, for schema/resolvers.ts. */
export const checkinFeatureResolvers: Resolvers[] = [
  checkinResolvers,
  familiesResolvers,
  liveResolvers,
  householdResolvers,
  stationResolvers,
  reportResolvers,
];
