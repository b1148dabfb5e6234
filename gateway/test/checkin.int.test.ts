/**
 * Child check-in (issue 28) through GraphQL with the real PocketBase: a family found by phone digits
 * and checked in with one pickup code, the room that fits each child, capacity never exceeded under
 * 20 stations at once, the ratio, the window, checkout only with the code (or a logged reason), a
 * room's volunteers reading its list live, paging a parent, and a first-time family added.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { createUser, errorCode, GqlClient, system, testGateway, type TestUser } from "./helpers.ts";
import { SseSubscription } from "./sse.ts";
import { pocketBaseStats } from "../src/pocketbase/http-fetch.ts";
import {
  CheckinAddFamilyDocument,
  CheckinAddPickupDocument,
  CheckinHouseholdDocument,
  CheckinRemovePickupDocument,
  CheckinSetCareDocument,
  CheckinCheckInDocument,
  CheckinCheckOutDocument,
  CheckinFamiliesDocument,
  CheckinMineDocument,
  CheckinPageDocument,
  CheckinRosterDocument,
  CheckinServeDocument,
  CheckinSessionsDocument,
} from "./__generated__/operations.ts";
import { createFamily, createOperator, createRoom, createSession } from "./checkin-support.ts";

let gateway: Gateway;
let su: PocketBase;
let operator: TestUser;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  operator = await createOperator();
});
afterAll(() => gateway.close());

const gql = (user: TestUser | null) => new GqlClient(gateway, { token: user?.token });
const fieldCodes = (result: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
  (result.errors?.[0]?.extensions?.fieldErrorCodes ?? {}) as Record<string, string>;

describe("a returning family at a station", () => {
  it("is found by the last 4 digits of a phone, each child suggested the room that fits, checked in with one code", async () => {
    const nursery = await createRoom(su, { name: "Nursery", minAgeMonths: 0, maxAgeMonths: 23 });
    const k2 = await createRoom(su, { name: "K-2", minAgeMonths: 60, maxAgeMonths: 95 });
    const session = await createSession(su, [nursery.id, k2.id]);
    const family = await createFamily(
      [
        { first: "Ava", months: 12, allergies: "Peanuts", medicalNotes: "EpiPen in the bag" },
        { first: "Ben", months: 72 },
      ],
      { notAuthorized: "Uncle Vic" },
    );

    const found = await gql(operator).execute(CheckinFamiliesDocument, {
      sessionId: session.id,
      search: family.phone.slice(-4),
    });
    expect(found.errors).toBeUndefined();
    const mine = found.data!.checkinFamilies.find((f) => f.householdId === family.householdId)!;
    expect(mine.notAuthorized).toEqual(["Uncle Vic (uncle)"]);
    const [ava, ben] = family.children;
    const byId = Object.fromEntries(mine.members.map((m) => [m.personId, m]));
    expect(byId[ava!.id]).toMatchObject({
      ageGroup: "CHILD",
      suggestedRoomId: nursery.id,
      allergies: "Peanuts",
    });
    expect(byId[ben!.id]).toMatchObject({ suggestedRoomId: k2.id, allergies: "" });
    expect(byId[family.parent.personId!]).toMatchObject({ ageGroup: "ADULT", suggestedRoomId: null });
    // Children first, youngest first.
    expect(mine.members.map((m) => m.personId).slice(0, 2)).toEqual([ava!.id, ben!.id]);

    const result = await gql(operator).execute(CheckinCheckInDocument, {
      input: {
        sessionId: session.id,
        people: [
          { personId: ava!.id, roomId: nursery.id },
          { personId: ben!.id, roomId: k2.id },
        ],
      },
    });
    expect(result.errors).toBeUndefined();
    const { code, checkins, refused } = result.data!.checkIn;
    expect(refused).toEqual([]);
    expect(code).toMatch(/^[ACDEFHJKMNPRTUVWXY3479]{4}$/);
    expect(checkins.map((c) => c.code)).toEqual([code, code]);
    expect(checkins[0]).toMatchObject({
      name: ava!.name,
      kind: "CHILD",
      firstTime: true,
      allergies: "Peanuts",
      medicalNotes: "EpiPen in the bag",
      notAuthorized: "Uncle Vic (uncle)",
      room: { id: nursery.id },
      can: { checkOut: true, page: true },
    });

    // Sent again (a retry): the same check-ins, no second code.
    const again = await gql(operator).execute(CheckinCheckInDocument, {
      input: { sessionId: session.id, people: [{ personId: ava!.id, roomId: nursery.id }] },
    });
    expect(again.data!.checkIn.checkins.map((c) => c.id)).toEqual([checkins[0]!.id]);
    expect(again.data!.checkIn.code).toBe(code);

    // The parent sees their children's code in their account; another member sees nothing of it.
    const parentView = await gql(family.parent).execute(CheckinMineDocument);
    expect(parentView.data!.myCheckins.map((c) => c.code)).toEqual([code, code]);
    expect((await gql(await createUser()).execute(CheckinMineDocument)).data!.myCheckins).toEqual([]);
  });

  it("is refused to a member and to staff without checkin.operate", async () => {
    const room = await createRoom(su);
    const session = await createSession(su, [room.id]);
    const family = await createFamily([{ first: "Cy", months: 30 }]);
    for (const user of [await createUser(), await createUser({ roles: ["Editor"] })]) {
      const search = await gql(user).execute(CheckinFamiliesDocument, {
        sessionId: session.id,
        search: family.phone.slice(-4),
      });
      expect(errorCode(search)).toBe("FORBIDDEN");
      const checkIn = await gql(user).execute(CheckinCheckInDocument, {
        input: { sessionId: session.id, people: [{ personId: family.children[0]!.id, roomId: room.id }] },
      });
      expect(errorCode(checkIn)).toBe("FORBIDDEN");
    }
  });
});

describe("a room's limits, decided inside the write", () => {
  it("20 stations checking children into a room with 5 places left admit exactly 5", async () => {
    const room = await createRoom(su, { capacity: 8 });
    const session = await createSession(su, [room.id]);
    const early = await createFamily([
      { first: "A", months: 40 },
      { first: "B", months: 40 },
      { first: "C", months: 40 },
    ]);
    const first = await gql(operator).execute(CheckinCheckInDocument, {
      input: {
        sessionId: session.id,
        people: early.children.map((c) => ({ personId: c.id, roomId: room.id })),
      },
    });
    expect(first.data!.checkIn.checkins).toHaveLength(3);

    const families = await Promise.all(
      Array.from({ length: 20 }, (_, i) => createFamily([{ first: `K${i}`, months: 40 }])),
    );
    const stations = await Promise.all(Array.from({ length: 4 }, () => createOperator()));
    const results = await Promise.all(
      families.map((family, i) =>
        gql(stations[i % stations.length]!).execute(CheckinCheckInDocument, {
          input: { sessionId: session.id, people: [{ personId: family.children[0]!.id, roomId: room.id }] },
        }),
      ),
    );
    for (const result of results) expect(result.errors).toBeUndefined();
    const admitted = results.filter((r) => r.data!.checkIn.checkins.length === 1);
    const full = results.filter((r) => r.data!.checkIn.refused[0]?.code === "room_full");
    expect(admitted).toHaveLength(5);
    expect(full).toHaveLength(15);
    expect(
      await su
        .collection("checkins")
        .getFullList({ filter: su.filter("session = {:s} && room = {:r}", { s: session.id, r: room.id }) }),
    ).toHaveLength(8);
    // Codes of different households differ.
    const codes = [...first.data!.checkIn.checkins, ...admitted.flatMap((r) => r.data!.checkIn.checkins)].map(
      (c) => c.code,
    );
    expect(new Set(codes).size).toBe(6);
  });

  it("a ratio refuses the child past it until a volunteer checks in; a room needing a background check refuses a volunteer without one", async () => {
    const room = await createRoom(su, { ratio: 2, requiresClearance: true });
    const session = await createSession(su, [room.id]);
    const family = await createFamily([
      { first: "R1", months: 50 },
      { first: "R2", months: 50 },
    ]);
    const none = await gql(operator).execute(CheckinCheckInDocument, {
      input: { sessionId: session.id, people: [{ personId: family.children[0]!.id, roomId: room.id }] },
    });
    expect(none.data!.checkIn.refused).toEqual([expect.objectContaining({ code: "ratio" })]);

    const volunteer = await createUser();
    const refused = await gql(volunteer).execute(CheckinServeDocument, {
      sessionId: session.id,
      roomId: room.id,
    });
    expect(fieldCodes(refused)).toEqual({ person: "clearance_required" });
    await su.collection("serving_clearances").create({
      person: volunteer.personId,
      kind: "background_check",
      passedOn: "2026-01-10 00:00:00.000Z",
    });
    const serving = await gql(volunteer).execute(CheckinServeDocument, {
      sessionId: session.id,
      roomId: room.id,
    });
    expect(serving.data!.serveInRoom).toMatchObject({
      kind: "VOLUNTEER",
      code: null,
      can: { checkOut: true },
    });

    const both = await gql(operator).execute(CheckinCheckInDocument, {
      input: {
        sessionId: session.id,
        people: family.children.map((c) => ({ personId: c.id, roomId: room.id })),
      },
    });
    expect(both.data!.checkIn.checkins).toHaveLength(2);
    const third = await createFamily([{ first: "R3", months: 50 }]);
    const over = await gql(operator).execute(CheckinCheckInDocument, {
      input: { sessionId: session.id, people: [{ personId: third.children[0]!.id, roomId: room.id }] },
    });
    expect(over.data!.checkIn.refused[0]?.code).toBe("ratio");
  });

  it("in the church's warn mode (set by an administrator), a child past the ratio is checked in and the station is told which room", async () => {
    const admin = gql(await createUser({ roles: ["Administrator"] }));
    const setMode = (mode: "WARN" | "REFUSE") =>
      admin.request<{ updateSettings: { checkinRatioMode: string } }>(
        `mutation ($mode: CheckinRatioMode!) { updateSettings(input: { checkinRatioMode: $mode }) { checkinRatioMode } }`,
        { mode },
      );
    expect((await setMode("WARN")).data!.updateSettings.checkinRatioMode).toBe("WARN");
    try {
      const room = await createRoom(su, { name: "Warned room", ratio: 1 });
      const session = await createSession(su, [room.id]);
      const family = await createFamily([{ first: "W1", months: 50 }]);
      const result = await gql(operator).execute(CheckinCheckInDocument, {
        input: { sessionId: session.id, people: [{ personId: family.children[0]!.id, roomId: room.id }] },
      });
      expect(result.data!.checkIn).toMatchObject({ refused: [], warnings: ["Warned room"] });
      expect(result.data!.checkIn.checkins).toHaveLength(1);
    } finally {
      expect((await setMode("REFUSE")).data!.updateSettings.checkinRatioMode).toBe("REFUSE");
    }
  });

  it("outside the window, and into a room the session does not open, check-in is refused", async () => {
    const room = await createRoom(su);
    const other = await createRoom(su);
    const later = await createSession(su, [room.id], 120);
    const now = await createSession(su, [room.id]);
    const family = await createFamily([{ first: "W", months: 50 }]);
    const person = family.children[0]!.id;
    const early = await gql(operator).execute(CheckinCheckInDocument, {
      input: { sessionId: later.id, people: [{ personId: person, roomId: room.id }] },
    });
    expect(early.data!.checkIn.refused[0]?.code).toBe("checkin_closed");
    const wrongRoom = await gql(operator).execute(CheckinCheckInDocument, {
      input: { sessionId: now.id, people: [{ personId: person, roomId: other.id }] },
    });
    expect(wrongRoom.data!.checkIn.refused[0]?.code).toBe("room_not_open");
  });
});

describe("checkout", () => {
  it("needs the code on the parent's tag; without it, an operator's reason, kept with the check-in", async () => {
    const room = await createRoom(su);
    const session = await createSession(su, [room.id]);
    const family = await createFamily([
      { first: "O1", months: 50 },
      { first: "O2", months: 50 },
    ]);
    const { checkins, code } = (
      await gql(operator).execute(CheckinCheckInDocument, {
        input: {
          sessionId: session.id,
          people: family.children.map((c) => ({ personId: c.id, roomId: room.id })),
        },
      })
    ).data!.checkIn;
    const wrong = code === "AAAA" ? "CCCC" : "AAAA";
    const refused = await gql(operator).execute(CheckinCheckOutDocument, {
      input: { id: checkins[0]!.id, code: wrong },
    });
    expect(fieldCodes(refused)).toEqual({ code: "wrong_code" });
    const bare = await gql(operator).execute(CheckinCheckOutDocument, { input: { id: checkins[0]!.id } });
    expect(fieldCodes(bare)).toEqual({ code: "code_required" });

    const out = await gql(operator).execute(CheckinCheckOutDocument, {
      input: { id: checkins[0]!.id, code: code!.toLowerCase() },
    });
    expect(out.errors).toBeUndefined();
    expect(out.data!.checkOut).toMatchObject({ overrideReason: null, can: { checkOut: false } });
    expect(out.data!.checkOut.checkedOutAt).toBeTruthy();
    const twice = await gql(operator).execute(CheckinCheckOutDocument, {
      input: { id: checkins[0]!.id, code },
    });
    expect(fieldCodes(twice)).toEqual({ checkedOutAt: "checked_out" });

    const override = await gql(operator).execute(CheckinCheckOutDocument, {
      input: { id: checkins[1]!.id, overrideReason: "Tag lost; mother known to staff, ID checked" },
    });
    expect(override.data!.checkOut.overrideReason).toBe("Tag lost; mother known to staff, ID checked");
    const stored = await su.collection("checkins").getOne(checkins[1]!.id, { fields: "*,pickupCode" });
    expect(stored.checkedOutBy).toBe(operator.id);
    expect(stored.pickupCode).toBe("");
  });

  it("a parent cannot check their child out themself, even with the code", async () => {
    const room = await createRoom(su);
    const session = await createSession(su, [room.id]);
    const family = await createFamily([{ first: "P", months: 50 }]);
    const { checkins, code } = (
      await gql(operator).execute(CheckinCheckInDocument, {
        input: { sessionId: session.id, people: [{ personId: family.children[0]!.id, roomId: room.id }] },
      })
    ).data!.checkIn;
    expect(checkins[0]!.can.checkOut).toBe(true);
    const parentView = (await gql(family.parent).execute(CheckinMineDocument)).data!.myCheckins[0]!;
    expect(parentView.can).toEqual({ checkOut: false, page: false });
    const attempt = await gql(family.parent).execute(CheckinCheckOutDocument, {
      input: { id: checkins[0]!.id, code },
    });
    expect(errorCode(attempt)).toBe("FORBIDDEN");
  });
});

describe("a room's volunteers", () => {
  it("read its list with care notes while they serve, live; page a parent (bell and mail); another room's volunteer reads nothing", async () => {
    const room = await createRoom(su, { name: "Preschool" });
    const elsewhere = await createRoom(su);
    const session = await createSession(su, [room.id, elsewhere.id]);
    const leader = await createUser();
    const stranger = await createUser();
    await gql(leader).execute(CheckinServeDocument, { sessionId: session.id, roomId: room.id });
    await gql(stranger).execute(CheckinServeDocument, { sessionId: session.id, roomId: elsewhere.id });

    const query = `subscription ($s: ID!, $r: ID!) { checkinRoomChanged(sessionId: $s, roomId: $r) { checkinId } }`;
    const live = await SseSubscription.open<{ checkinRoomChanged: { checkinId: string } }>(gateway, {
      query,
      variables: { s: session.id, r: room.id },
      token: leader.token,
      clientIp: "198.51.100.81",
    });
    const refused = await SseSubscription.open(gateway, {
      query,
      variables: { s: session.id, r: room.id },
      token: stranger.token,
      clientIp: "198.51.100.82",
    });
    try {
      expect(JSON.stringify((await refused.next((r) => !!r.errors, "the refusal")).errors)).toMatch(
        /FORBIDDEN/,
      );
      await expect
        .poll(() => gateway.services.realtime.stats().subscribers, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(1);
      const family = await createFamily([
        { first: "Lu", months: 40, allergies: "Dairy", medicalNotes: "Asthma" },
      ]);
      const made = await gql(operator).execute(CheckinCheckInDocument, {
        input: { sessionId: session.id, people: [{ personId: family.children[0]!.id, roomId: room.id }] },
      });
      const checkinId = made.data!.checkIn.checkins[0]!.id;
      await live.next((r) => r.data?.checkinRoomChanged.checkinId === checkinId, "the check-in, live");

      const roster = await gql(leader).execute(CheckinRosterDocument, {
        sessionId: session.id,
        roomId: room.id,
      });
      expect(roster.data!.checkinRoster.children).toEqual([
        expect.objectContaining({
          id: checkinId,
          allergies: "Dairy",
          medicalNotes: "Asthma",
          can: { checkOut: false, page: true },
        }),
      ]);
      expect(roster.data!.checkinRoster.volunteers.map((v) => v.personId)).toEqual([leader.personId]);
      expect(
        errorCode(
          await gql(stranger).execute(CheckinRosterDocument, { sessionId: session.id, roomId: room.id }),
        ),
      ).toBe("FORBIDDEN");
      // The care notes themselves: the parent and operators, never another room's volunteer.
      const pbAs = async (user: TestUser) => {
        const { pbAs: as } = await import("./helpers.ts");
        return as(user);
      };
      expect(
        await (await pbAs(stranger)).collection("checkins").getFullList({ filter: `room = "${room.id}"` }),
      ).toEqual([]);
      expect(await (await pbAs(leader)).collection("person_care").getFullList()).toEqual([]);

      const paged = await gql(leader).execute(CheckinPageDocument, { id: checkinId });
      expect(paged.data!.pageParent).toBe(true);
      await expect
        .poll(async () =>
          (
            await su.collection("notifications").getFullList({
              filter: su.filter('user = {:u} && kind = "checkin_page"', { u: family.parent.id }),
            })
          ).map((n) => n.title),
        )
        .toEqual([expect.stringContaining("Preschool")]);

      // Once the volunteer checks out, the room is closed to them.
      const own = roster.data!.checkinRoster.volunteers[0]!;
      await gql(leader).execute(CheckinCheckOutDocument, { input: { id: own.id } });
      expect(
        errorCode(
          await gql(leader).execute(CheckinRosterDocument, { sessionId: session.id, roomId: room.id }),
        ),
      ).toBe("FORBIDDEN");
    } finally {
      live.close();
      refused.close();
    }
  });
});

describe("a first-time family", () => {
  it("is added as a household of visitors, the children's rooms suggested, and then found by phone", async () => {
    const room = await createRoom(su, { minAgeMonths: 24, maxAgeMonths: 59 });
    const session = await createSession(su, [room.id]);
    const digits = String(Math.floor(Math.random() * 1e4)).padStart(4, "0");
    const added = await gql(operator).execute(CheckinAddFamilyDocument, {
      input: {
        sessionId: session.id,
        firstName: "Nora",
        lastName: "Newcomb",
        phone: `(217) 301-${digits}`,
        children: [{ firstName: "Ned", birthDate: "2023-02-14", allergies: "Eggs" }],
      },
    });
    expect(added.errors).toBeUndefined();
    const family = added.data!.addCheckinFamily;
    expect(family.name).toBe("Newcomb household");
    const ned = family.members.find((m) => m.name === "Ned Newcomb")!;
    expect(ned).toMatchObject({ ageGroup: "CHILD", allergies: "Eggs", suggestedRoomId: room.id });
    const person = await su.collection("people").getOne(ned.personId);
    expect(person).toMatchObject({
      membershipStatus: "visitor",
      householdRole: "child",
      recordStatus: "active",
    });

    const found = await gql(operator).execute(CheckinFamiliesDocument, {
      sessionId: session.id,
      search: digits,
    });
    expect(found.data!.checkinFamilies.map((f) => f.householdId)).toContain(family.householdId);

    const bad = await gql(operator).execute(CheckinAddFamilyDocument, {
      input: { sessionId: session.id, firstName: "", lastName: "X", phone: "12", children: [] },
    });
    expect(fieldCodes(bad)).toMatchObject({
      firstName: "required",
      phone: "invalid_phone",
      children: "out_of_range",
    });
  });

  it("the sessions list shows operators each room's counts (first-timers among them); members see none", async () => {
    const room = await createRoom(su, { capacity: 10 });
    const session = await createSession(su, [room.id]);
    const family = await createFamily([{ first: "F", months: 50 }]);
    await gql(operator).execute(CheckinCheckInDocument, {
      input: { sessionId: session.id, people: [{ personId: family.children[0]!.id, roomId: room.id }] },
    });
    const mine = (await gql(operator).execute(CheckinSessionsDocument)).data!.checkinSessions.find(
      (s) => s.id === session.id,
    )!;
    expect(mine).toMatchObject({ isOpen: true });
    expect(mine.counts).toEqual([
      { room: { id: room.id }, children: 1, volunteers: 0, childrenTotal: 1, firstTime: 1, placesLeft: 9 },
    ]);
    const member = (
      await gql(await createUser()).execute(CheckinSessionsDocument)
    ).data!.checkinSessions.find((s) => s.id === session.id)!;
    expect(member.counts).toEqual([]);
  });
});

describe("a household's care notes and pickup list", () => {
  it("the parent keeps them on /me; the station and the room see them; nobody else may change them", async () => {
    const room = await createRoom(su, { minAgeMonths: 0, maxAgeMonths: 131 });
    const session = await createSession(su, [room.id]);
    const family = await createFamily([{ first: "Ivy", months: 40 }]);
    const ivy = family.children[0]!.id;
    const parent = gql(family.parent);
    const set = await parent.execute(CheckinSetCareDocument, {
      personId: ivy,
      allergies: "Bee stings",
      medicalNotes: "EpiPen in the front pocket",
    });
    expect(set.data!.setCareNotes).toEqual({
      personId: ivy,
      allergies: "Bee stings",
      medicalNotes: "EpiPen in the front pocket",
    });
    const added = await parent.execute(CheckinAddPickupDocument, {
      input: { name: "Rex Stone", relationship: "ex-partner", status: "NOT_AUTHORIZED" },
    });
    expect(added.data!.addPickupPerson).toMatchObject({ name: "Rex Stone", status: "NOT_AUTHORIZED" });
    const mine = (await parent.execute(CheckinHouseholdDocument)).data!.myHouseholdCheckin!;
    expect(mine.children).toEqual([
      expect.objectContaining({
        personId: ivy,
        allergies: "Bee stings",
        medicalNotes: "EpiPen in the front pocket",
      }),
    ]);
    expect(mine.pickups.map((p) => p.name)).toEqual(["Rex Stone"]);

    // The station sees both; the room's copy carries them.
    const found = await gql(operator).execute(CheckinFamiliesDocument, {
      sessionId: session.id,
      search: family.phone.slice(-4),
    });
    const f = found.data!.checkinFamilies.find((x) => x.householdId === family.householdId)!;
    expect(f.notAuthorized).toEqual(["Rex Stone (ex-partner)"]);
    const made = await gql(operator).execute(CheckinCheckInDocument, {
      input: { sessionId: session.id, people: [{ personId: ivy, roomId: room.id }] },
    });
    expect(made.data!.checkIn.checkins[0]).toMatchObject({
      allergies: "Bee stings",
      medicalNotes: "EpiPen in the front pocket",
      notAuthorized: "Rex Stone (ex-partner)",
    });

    // Another member: neither the child's notes nor the household's list.
    const stranger = gql(await createUser());
    expect(
      errorCode(
        await stranger.execute(CheckinSetCareDocument, { personId: ivy, allergies: "", medicalNotes: "" }),
      ),
    ).toBe("NOT_FOUND");
    expect(
      errorCode(await stranger.execute(CheckinRemovePickupDocument, { id: added.data!.addPickupPerson.id })),
    ).toBe("FORBIDDEN");
    expect((await stranger.execute(CheckinHouseholdDocument)).data!.myHouseholdCheckin).toBeNull();
    // Too long is refused on the field.
    const long = await parent.execute(CheckinSetCareDocument, {
      personId: ivy,
      allergies: "x".repeat(501),
      medicalNotes: "",
    });
    expect(fieldCodes(long)).toEqual({ allergies: "too_long" });
    expect(
      await parent.execute(CheckinRemovePickupDocument, { id: added.data!.addPickupPerson.id }),
    ).toMatchObject({
      data: { removePickupPerson: true },
    });
  });
});

describe("Sunday from one IP", () => {
  it("a family's check-in, the room, the parent's and a member's pages make no empty filtered read (PocketBase would throttle them)", async () => {
    const room = await createRoom(su);
    const session = await createSession(su, [room.id]);
    const family = await createFamily([{ first: "Eli", months: 40 }]);
    const volunteer = await createUser();
    const member = await createUser();
    const before = pocketBaseStats.emptyFilteredLists;
    const found = await gql(operator).execute(CheckinFamiliesDocument, {
      sessionId: session.id,
      search: family.phone.slice(-4),
    });
    expect(found.errors).toBeUndefined();
    await gql(operator).execute(CheckinSessionsDocument);
    await gql(volunteer).execute(CheckinServeDocument, { sessionId: session.id, roomId: room.id });
    const made = await gql(operator).execute(CheckinCheckInDocument, {
      input: { sessionId: session.id, people: [{ personId: family.children[0]!.id, roomId: room.id }] },
    });
    expect(made.data!.checkIn.checkins).toHaveLength(1);
    for (const user of [operator, volunteer])
      expect(
        (await gql(user).execute(CheckinRosterDocument, { sessionId: session.id, roomId: room.id })).errors,
      ).toBeUndefined();
    for (const user of [family.parent, member]) {
      expect((await gql(user).execute(CheckinMineDocument)).errors).toBeUndefined();
      expect((await gql(user).execute(CheckinHouseholdDocument)).errors).toBeUndefined();
      expect((await gql(user).execute(CheckinSessionsDocument)).errors).toBeUndefined();
    }
    expect(pocketBaseStats.emptyFilteredLists - before, pocketBaseStats.lastEmptyFilteredList).toBe(0);
  });
});
