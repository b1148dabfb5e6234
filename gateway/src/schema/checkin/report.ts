import { Temporal } from "temporal-polyfill";
import { pbCall } from "../../errors.ts";
import type {
  CheckinCountsRecord,
  CheckinRecord,
  CheckinRoomRecord,
  CheckinSessionRecord,
  HouseholdRecord,
} from "../../pocketbase/records.ts";
import { requireAbility } from "../../access/guards.ts";
import {
  fromPocketBaseDate,
  parsePocketBaseDate,
  toPocketBaseDate,
  todayIn,
} from "../../pocketbase/dates.ts";
import { Validator } from "../../validation/validate.ts";
import { anyOf, MAX_IDS_PER_CHAIN } from "../../pocketbase/filters.ts";
import { toCsv } from "@flock/shared/csv";
import type { Resolvers } from "../__generated__/types.ts";
import { loadersOf } from "./reads.ts";

/*
 * Check-in reports (issue 28): headcounts per session and room, the weekly trend, and the children who
 * came for the first time, over a span of days in church time. The numbers are the rooms' counts the
 * hook keeps (checkin_counts), read with the operator's rights; the first-timers are their check-ins.
 */

const SPAN_MAX_DAYS = 366;
const FIRST_TIMERS_MAX = 500;

/** The instant a church-local day starts. */
const startOf = (day: string, zone: string) =>
  new Date(Temporal.PlainDate.from(day).toZonedDateTime({ timeZone: zone }).epochMilliseconds);

/** The Monday of the week a church-local day is in. */
const mondayOf = (day: string) => {
  const date = Temporal.PlainDate.from(day);
  return date.subtract({ days: date.dayOfWeek - 1 }).toString();
};

const byRoomOrder = (a: CheckinRoomRecord, b: CheckinRoomRecord) =>
  a.sort - b.sort || a.name.localeCompare(b.name);

export const reportResolvers: Resolvers = {
  Query: {
    async checkinReport(_, args, ctx) {
      await requireAbility(ctx, "operateCheckin");
      const v = new Validator();
      const from = v.day("from", args.from, { required: true });
      const to = v.day("to", args.to, { required: true });
      if (from && to && to < from) v.add("to", "before_from", "The last day must not be before the first.");
      else if (from && to && Temporal.PlainDate.from(from).until(to).days >= SPAN_MAX_DAYS)
        v.add("to", "too_long", `Choose at most ${SPAN_MAX_DAYS} days.`);
      v.done();
      const zone = (await ctx.publicSettings.get()).timezone || "UTC";
      const start = startOf(from, zone);
      const end = startOf(Temporal.PlainDate.from(to).add({ days: 1 }).toString(), zone);

      const sessions = await pbCall(() =>
        ctx.pb.collection("checkin_sessions").getFullList<CheckinSessionRecord>({
          filter: ctx.pb.filter("startsAt >= {:start} && startsAt < {:end}", {
            start: toPocketBaseDate(start),
            end: toPocketBaseDate(end),
          }),
          sort: "-startsAt",
        }),
      );
      const ids = sessions.map((s) => s.id);
      const counts: CheckinCountsRecord[] = [];
      const firsts: CheckinRecord[] = [];
      for (let i = 0; i < ids.length; i += MAX_IDS_PER_CHAIN) {
        const chunk = ids.slice(i, i + MAX_IDS_PER_CHAIN);
        const [rows, newcomers] = await Promise.all([
          pbCall(() =>
            ctx.pb.collection("checkin_counts").getFullList<CheckinCountsRecord>({
              filter: anyOf(ctx.pb, "session", chunk),
            }),
          ),
          pbCall(() =>
            ctx.pb.collection("checkins").getFullList<CheckinRecord>({
              filter: `kind = "child" && firstTime = true && (${anyOf(ctx.pb, "session", chunk)})`,
              fields: "id,name,household,session,room,created,offlineAt",
              sort: "-created",
            }),
          ),
        ]);
        counts.push(...rows);
        firsts.push(...newcomers);
      }
      const rooms = (await loadersOf(ctx).room.loadMany([...new Set(counts.map((c) => c.room))])).filter(
        (room): room is CheckinRoomRecord => !!room && !(room instanceof Error),
      );
      const roomName = (id: string) => rooms.find((r) => r.id === id)?.name ?? "";
      const dayOf = (session: CheckinSessionRecord) => todayIn(zone, parsePocketBaseDate(session.startsAt));

      const reportSessions = sessions.map((session) => {
        const mine = counts.filter((c) => c.session === session.id && session.rooms.includes(c.room));
        const perRoom = rooms
          .filter((room) => mine.some((c) => c.room === room.id))
          .sort(byRoomOrder)
          .map((room) => {
            const row = mine.find((c) => c.room === room.id)!;
            return { room, children: row.childrenTotal, firstTime: row.firstTime };
          });
        return {
          session,
          children: perRoom.reduce((sum, r) => sum + r.children, 0),
          firstTime: perRoom.reduce((sum, r) => sum + r.firstTime, 0),
          rooms: perRoom,
        };
      });

      const weeks = new Map<
        string,
        { weekOf: string; children: number; firstTime: number; sessions: number }
      >();
      for (const row of reportSessions) {
        const weekOf = mondayOf(dayOf(row.session));
        const week = weeks.get(weekOf) ?? { weekOf, children: 0, firstTime: 0, sessions: 0 };
        week.children += row.children;
        week.firstTime += row.firstTime;
        week.sessions += 1;
        weeks.set(weekOf, week);
      }

      const shown = firsts.slice(0, FIRST_TIMERS_MAX);
      const householdIds = [...new Set(shown.map((c) => c.household).filter(Boolean))];
      const households: HouseholdRecord[] = [];
      for (let i = 0; i < householdIds.length; i += MAX_IDS_PER_CHAIN) {
        // Household names: a system read of just these (operators may not read people records).
        const system = await ctx.system.get();
        households.push(
          ...(await system.collection("households").getFullList<HouseholdRecord>({
            filter: anyOf(system, "id", householdIds.slice(i, i + MAX_IDS_PER_CHAIN)),
            fields: "id,name",
          })),
        );
      }
      const firstTimers = shown.map((c) => ({
        name: c.name,
        householdName: households.find((h) => h.id === c.household)?.name ?? "",
        sessionName: sessions.find((s) => s.id === c.session)?.name ?? "",
        roomName: roomName(c.room),
        checkedInAt: fromPocketBaseDate(c.offlineAt || c.created),
      }));

      const csv = toCsv(
        ["date", "session", "room", "children", "first time"],
        reportSessions.flatMap((row) =>
          row.rooms.map((r) => [dayOf(row.session), row.session.name, r.room.name, r.children, r.firstTime]),
        ),
      );
      return {
        from,
        to,
        children: reportSessions.reduce((sum, r) => sum + r.children, 0),
        firstTime: reportSessions.reduce((sum, r) => sum + r.firstTime, 0),
        sessions: reportSessions,
        weeks: [...weeks.values()].sort((a, b) => a.weekOf.localeCompare(b.weekOf)),
        firstTimers,
        csv,
      };
    },
  },
};
