import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, pbCall } from "../../errors.ts";
import type {
  CheckinRecord,
  CheckinRoomRecord,
  CheckinSessionRecord,
  HouseholdRecord,
  PersonCareRecord,
  PersonPhoneRecord,
  PersonPrivateRecord,
  PersonRecord,
  PickupAuthorizationRecord,
} from "../../pocketbase/records.ts";
import { Validator } from "../../validation/validate.ts";
import { toE164 } from "../../validation/phone.ts";
import { LIMITS } from "@flock/shared/limits";
import { CHECKIN_LIMITS } from "@flock/shared/limits-features";
import type { Resolvers } from "../__generated__/types.ts";
import { checkinsOf, loadersOf, requireSession } from "./reads.ts";
import { anyOf, MAX_IDS_PER_CHAIN } from "../../pocketbase/filters.ts";
import { parsePocketBaseDate, toPocketBaseDate, todayIn } from "../../pocketbase/dates.ts";
import { displayName } from "../people/mappers.ts";
import { requireDesk, type CheckinDesk } from "./stations.ts";

/**
 * A check-in station's families: found by the last 4 digits of a phone number or by a name, and
 * first-time families added. Operators may not read people records (seeing people is a different
 * trust), so the system reads them here, after the operator's ability is checked, and gives the
 * station only what check-in needs: names, ages, allergies and the pickup list. The check-in itself
 * is written with the operator's token (the hook decides it).
 */

export interface FamilyModel {
  householdId: string;
  name: string;
  members: FamilyMemberModel[];
  notAuthorized: string[];
  trusted: string[];
  phoneEndings: string[];
  todayCode: string | null;
}

export interface FamilyMemberModel {
  personId: string;
  name: string;
  ageGroup: PersonRecord["ageGroup"];
  ageMonths: number | null;
  suggestedRoomId: string | null;
  allergies: string;
  checkin: CheckinRecord | null;
}

const FAMILIES_MAX = 10;
/** A station's offline list: families with a child checked in within 8 weeks, at most 300. */
const REGULARS_WEEKS = 8;
const REGULARS_MAX = 300;
/** What a household's QR code carries (household.ts#householdQrText). */
const QR_TEXT = /^flock:household:([a-z0-9]{15})$/;

/** Whole months from `birthDate` (YYYY-MM-DD) to `today` (YYYY-MM-DD). */
export function ageInMonths(birthDate: string, today: string): number | null {
  const b = /^(\d{4})-(\d{2})-(\d{2})/.exec(birthDate);
  const t = /^(\d{4})-(\d{2})-(\d{2})/.exec(today);
  if (!b || !t) return null;
  let months = (+t[1]! - +b[1]!) * 12 + (+t[2]! - +b[2]!);
  if (+t[3]! < +b[3]!) months -= 1;
  return months < 0 ? null : months;
}

/** The first open room (in the church's order) whose ages include `months`. */
export function roomFor(rooms: readonly CheckinRoomRecord[], months: number | null): string | null {
  if (months == null) return null;
  const fits = rooms.find(
    (room) =>
      room.active &&
      (room.minAgeMonths == null || room.minAgeMonths === 0 || months >= room.minAgeMonths) &&
      (room.maxAgeMonths == null || room.maxAgeMonths === 0 || months <= room.maxAgeMonths) &&
      (room.minAgeMonths || room.maxAgeMonths),
  );
  return fits?.id ?? null;
}

/** Households whose people have a phone ending in `digits`, or whose names contain `name`. */
async function findHouseholds(system: PocketBase, search: string): Promise<string[]> {
  const ids = new Set<string>();
  const qr = QR_TEXT.exec(search);
  if (qr) {
    const rows = await system.collection("households").getList<HouseholdRecord>(1, 1, {
      filter: system.filter("id = {:id}", { id: qr[1] }),
      fields: "id",
      skipTotal: true,
    });
    for (const row of rows.items) ids.add(row.id);
  } else if (/^\d{4}$/.test(search)) {
    // "%…" is a LIKE pattern as given: numbers ending in the digits (E.164 has no spaces).
    const phones = await system.collection("person_phones").getFullList<PersonPhoneRecord>({
      filter: system.filter("number ~ {:suffix}", { suffix: `%${search}` }),
      fields: "person,number",
      batch: 200,
    });
    // A 4-digit ending is shared by few numbers; at most one filter's worth of people are looked at.
    const people = [...new Set(phones.filter((p) => p.number.endsWith(search)).map((p) => p.person))].slice(
      0,
      MAX_IDS_PER_CHAIN,
    );
    if (people.length) {
      const rows = await system.collection("people").getFullList<PersonRecord>({
        filter: `(${anyOf(system, "id", people)}) && recordStatus != "archived" && household != ""`,
        fields: "household",
      });
      for (const row of rows) ids.add(row.household);
    }
  } else {
    const rows = await system.collection("people").getList<PersonRecord>(1, 50, {
      filter: system.filter(
        '(firstName ~ {:q} || lastName ~ {:q} || preferredName ~ {:q}) && recordStatus != "archived" && household != ""',
        { q: search },
      ),
      fields: "household",
      sort: "lastName,firstName",
      skipTotal: true,
    });
    for (const row of rows.items) ids.add(row.household);
  }
  return [...ids].slice(0, FAMILIES_MAX);
}

/** The families (system reads) with this session's check-ins and the room that fits each child. */
export async function familiesOf(
  ctx: GatewayContext,
  desk: CheckinDesk,
  session: CheckinSessionRecord,
  householdIds: readonly string[],
): Promise<FamilyModel[]> {
  if (!householdIds.length) return [];
  const system = await ctx.system.get();
  // A station suggests only the rooms it checks into (its location set).
  const roomIds = desk.station?.rooms.length
    ? session.rooms.filter((id) => desk.station.rooms.includes(id))
    : session.rooms;
  const [households, people, pickups, rooms] = await Promise.all([
    system
      .collection("households")
      .getFullList<HouseholdRecord>({ filter: anyOf(system, "id", householdIds) }),
    system.collection("people").getFullList<PersonRecord>({
      filter: `(${anyOf(system, "household", householdIds)}) && recordStatus != "archived"`,
    }),
    system.collection("pickup_authorizations").getFullList<PickupAuthorizationRecord>({
      filter: anyOf(system, "household", householdIds),
      sort: "name",
    }),
    loadersOf(ctx).room.loadMany(roomIds),
  ]);
  const personIds = people.map((p) => p.id);
  const settings = await ctx.publicSettings.get();
  const sessionDay = todayIn(settings.timezone || "UTC", parsePocketBaseDate(session.startsAt));
  const [births, care, checkins, phones, codes] = await Promise.all([
    system.collection("person_private").getFullList<PersonPrivateRecord>({
      filter: anyOf(system, "person", personIds),
      fields: "person,birthDate",
    }),
    system.collection("person_care").getFullList<PersonCareRecord>({
      filter: anyOf(system, "person", personIds),
      fields: "person,allergies",
    }),
    checkinsOf(ctx, session.id, personIds),
    system.collection("person_phones").getFullList<PersonPhoneRecord>({
      filter: anyOf(system, "person", personIds),
      fields: "person,number",
    }),
    // Each household's code that day (one per household and day: pb_hooks/lib/checkin.js#codeFor).
    system.collection("checkins").getFullList<CheckinRecord>({
      filter: `${system.filter('day = {:day} && code != ""', { day: sessionDay })} && (${anyOf(system, "household", householdIds)})`,
      fields: "household,code",
    }),
  ]);
  // A self station (a lobby screen anyone may stand at) shows no pickup alerts.
  const selfStation = desk.station?.mode === "self";
  const open = rooms
    .filter((room): room is CheckinRoomRecord => !!room && !(room instanceof Error))
    .sort((a, b) => a.sort - b.sort || a.name.localeCompare(b.name));
  const today = todayIn(settings.timezone || "UTC");
  const order = { child: 0, youth: 1, adult: 2, "": 3 } as const;
  return householdIds
    .map((id) => households.find((h) => h.id === id))
    .filter((h): h is HouseholdRecord => !!h)
    .map((household) => {
      const members = people
        .filter((p) => p.household === household.id)
        .map((person): FamilyMemberModel => {
          const birth = births.find((b) => b.person === person.id)?.birthDate ?? "";
          const ageMonths = birth ? ageInMonths(birth.slice(0, 10), today) : null;
          return {
            personId: person.id,
            name: displayName(person),
            ageGroup: person.ageGroup || "adult",
            ageMonths,
            suggestedRoomId: person.ageGroup === "adult" ? null : roomFor(open, ageMonths),
            allergies: care.find((c) => c.person === person.id)?.allergies ?? "",
            checkin: checkins.find((c) => c.person === person.id) ?? null,
          };
        })
        .sort(
          (a, b) =>
            order[a.ageGroup] - order[b.ageGroup] ||
            (a.ageMonths ?? 9999) - (b.ageMonths ?? 9999) ||
            a.name.localeCompare(b.name),
        );
      const named = (status: PickupAuthorizationRecord["status"]) =>
        pickups
          .filter((p) => p.household === household.id && p.status === status)
          .map((p) => (p.relationship ? `${p.name} (${p.relationship})` : p.name));
      const mine = new Set(members.map((m) => m.personId));
      return {
        householdId: household.id,
        name: household.name,
        members,
        notAuthorized: selfStation ? [] : named("not_authorized"),
        trusted: selfStation ? [] : named("trusted"),
        todayCode: codes.find((row) => row.household === household.id)?.code ?? null,
        phoneEndings: [
          ...new Set(
            phones.filter((p) => mine.has(p.person)).map((p) => p.number.replace(/\D/g, "").slice(-4)),
          ),
        ],
      };
    });
}

/** The hook's refusal code of a failed check-in, or null for anything else. */
function refusalOf(error: unknown): { code: string; message: string } | null {
  if (!(error instanceof ClientResponseError) || error.status !== 400) return null;
  const data = (error.response?.data ?? {}) as Record<string, { code?: string; message?: string }>;
  for (const detail of Object.values(data)) {
    if (detail.code?.startsWith("validation_"))
      return { code: detail.code.slice("validation_".length), message: detail.message ?? "Refused." };
  }
  return null;
}

export const familiesResolvers: Resolvers = {
  CheckinFamilyMember: {
    ageGroup: (member) => member.ageGroup || "adult",
  },
  Query: {
    async checkinFamilies(_, { sessionId, search }, ctx) {
      const desk = await requireDesk(ctx);
      const q = search.trim();
      const digits = q.replace(/\D/g, "");
      const byDigits = digits.length === 4 && /^[\d\s()+-]+$/.test(q);
      if (
        !byDigits &&
        !QR_TEXT.test(q) &&
        (q.length < CHECKIN_LIMITS.checkinSearchMin || q.length > CHECKIN_LIMITS.checkinSearchMax)
      )
        throw badUserInput({
          search: {
            code: "invalid_search",
            message: `Type the last 4 digits of a phone number, or ${CHECKIN_LIMITS.checkinSearchMin}–${CHECKIN_LIMITS.checkinSearchMax} letters of a name.`,
          },
        });
      const session = await requireSession(ctx, sessionId);
      const system = await ctx.system.get();
      return familiesOf(ctx, desk, session, await findHouseholds(system, byDigits ? digits : q));
    },
    async checkinRegulars(_, { sessionId }, ctx) {
      const desk = await requireDesk(ctx);
      const session = await requireSession(ctx, sessionId);
      const system = await ctx.system.get();
      const recent = await system.collection("checkins").getList<CheckinRecord>(1, 2000, {
        filter: system.filter('kind = "child" && household != "" && created >= {:since}', {
          since: toPocketBaseDate(new Date(Date.now() - REGULARS_WEEKS * 7 * 86_400_000)),
        }),
        fields: "household",
        sort: "-created",
        skipTotal: true,
      });
      const households = [...new Set(recent.items.map((row) => row.household))].slice(0, REGULARS_MAX);
      const families: FamilyModel[] = [];
      for (let i = 0; i < households.length; i += MAX_IDS_PER_CHAIN)
        families.push(...(await familiesOf(ctx, desk, session, households.slice(i, i + MAX_IDS_PER_CHAIN))));
      return families;
    },
  },
  Mutation: {
    async checkIn(_, { input }, ctx) {
      await requireDesk(ctx);
      if (!input.people.length || input.people.length > CHECKIN_LIMITS.checkinPeopleMax)
        throw badUserInput({
          people: {
            code: "out_of_range",
            message: `Check in 1 to ${CHECKIN_LIMITS.checkinPeopleMax} people at once.`,
          },
        });
      for (const person of input.people)
        if ((person.clientKey ?? "").length > CHECKIN_LIMITS.checkinClientKeyMax)
          throw badUserInput({ clientKey: { code: "too_long", message: "The client key is too long." } });
      // A station's offline check-in: the code it printed and when (the hook checks both).
      const proposedCode = (input.proposedCode ?? "").trim().toUpperCase();
      if (proposedCode.length > CHECKIN_LIMITS.checkinCodeLength)
        throw badUserInput({
          proposedCode: { code: "too_long", message: "A pickup code has 4 characters." },
        });
      const offlineAt = input.offlineAt ? new Date(input.offlineAt) : null;
      if (offlineAt && Number.isNaN(offlineAt.getTime()))
        throw badUserInput({ offlineAt: { code: "invalid_date", message: "Use a valid date and time." } });
      const session = await requireSession(ctx, input.sessionId);
      const checkins = ctx.pb.collection("checkins");
      const existing = await checkinsOf(
        ctx,
        session.id,
        input.people.map((p) => p.personId),
      );
      const done: CheckinRecord[] = [];
      const refused: { personId: string; code: string; message: string }[] = [];
      // One at a time: a family's children take places in the order the station lists them, and each
      // is admitted or refused on its own by the hook (a full room refuses one child, not the family).
      for (const person of input.people) {
        const already = existing.find((row) => row.person === person.personId);
        if (already) {
          done.push(already);
          continue;
        }
        try {
          done.push(
            await checkins.create<CheckinRecord>({
              session: session.id,
              person: person.personId,
              room: person.roomId,
              kind: "child",
              clientKey: person.clientKey ?? "",
              ...(proposedCode && { proposedCode }),
              ...(offlineAt && { offlineAt: toPocketBaseDate(offlineAt) }),
            }),
          );
        } catch (error) {
          const refusal = refusalOf(error);
          if (refusal?.code === "not_unique") {
            // Sent twice at once (a retry racing the first): the first one stands.
            const again = await pbCall(() =>
              checkins.getFirstListItem<CheckinRecord>(
                ctx.pb.filter("session = {:session} && person = {:person}", {
                  session: session.id,
                  person: person.personId,
                }),
              ),
            );
            done.push(again);
          } else if (refusal) refused.push({ personId: person.personId, ...refusal });
          else await pbCall(() => Promise.reject(error));
        }
      }
      // The hook marks a check-in it let past the room's ratio (the church's ratio mode is warn).
      const warnings: string[] = [];
      for (const roomId of new Set(done.filter((row) => row.overRatio).map((row) => row.room))) {
        const room = await loadersOf(ctx).room.load(roomId);
        if (room) warnings.push(room.name);
      }
      return {
        checkins: done,
        refused,
        code: done.find((row) => row.kind === "child")?.code ?? null,
        warnings,
      };
    },

    async addCheckinFamily(_, { input }, ctx) {
      const desk = await requireDesk(ctx);
      const v = new Validator();
      const firstName = v.text("firstName", input.firstName, { required: true, max: LIMITS.personNameMax });
      const lastName = v.text("lastName", input.lastName, { required: true, max: LIMITS.personNameMax });
      const phone = toE164(input.phone ?? "");
      if (!phone) v.add("phone", "invalid_phone", "Enter a phone number the church can call.");
      if (!input.children.length || input.children.length > CHECKIN_LIMITS.checkinFamilyChildrenMax)
        v.add("children", "out_of_range", `Add 1 to ${CHECKIN_LIMITS.checkinFamilyChildrenMax} children.`);
      const children = input.children.map((child, i) => ({
        firstName: v.text(`children.${i}.firstName`, child.firstName, {
          required: true,
          max: LIMITS.personNameMax,
        }),
        lastName: v.text(`children.${i}.lastName`, child.lastName, { max: LIMITS.personNameMax }) || lastName,
        birthDate: v.day(`children.${i}.birthDate`, child.birthDate, { required: true }),
        allergies: v.text(`children.${i}.allergies`, child.allergies, { max: CHECKIN_LIMITS.allergiesMax }),
      }));
      const today = todayIn((await ctx.publicSettings.get()).timezone || "UTC");
      children.forEach((child, i) => {
        if (child.birthDate && child.birthDate > today)
          v.add(`children.${i}.birthDate`, "in_future", "A birth date cannot be in the future.");
      });
      v.done();
      const session = await requireSession(ctx, input.sessionId);
      // System job: a check-in desk (an operator or a station) adds this family (and only it) as visitors; people managers follow up.
      const system = await ctx.system.get();
      const household = await system
        .collection("households")
        .create<HouseholdRecord>({ name: `${lastName} household` });
      const adult = await system.collection("people").create<PersonRecord>({
        firstName,
        lastName,
        household: household.id,
        householdRole: "head",
        recordStatus: "active",
        membershipStatus: "visitor",
      });
      await system
        .collection("person_phones")
        .create({ person: adult.id, number: phone, kind: "mobile", isPrimary: true, visibility: "private" });
      for (const child of children) {
        const person = await system.collection("people").create<PersonRecord>({
          firstName: child.firstName,
          lastName: child.lastName,
          household: household.id,
          householdRole: "child",
          recordStatus: "active",
          membershipStatus: "visitor",
        });
        await system
          .collection("person_private")
          .create({ person: person.id, birthDate: `${child.birthDate} 00:00:00.000Z` });
        if (child.allergies)
          await system.collection("person_care").create({ person: person.id, allergies: child.allergies });
      }
      const [family] = await familiesOf(ctx, desk, session, [household.id]);
      return family!;
    },
  },
};
