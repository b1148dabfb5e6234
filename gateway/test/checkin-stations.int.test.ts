/**
 * Check-in stations (issue 28) with the real PocketBase: registered by staff with a pairing code, acting
 * as themselves (never as the operator), checking children into their own rooms only, checking out with
 * the code but never by override, a self station showing no alerts; the codes a station holds for
 * working offline, and a queued offline check-in synced with its code — or the household's, when a
 * sibling was checked in elsewhere meanwhile. Then who reads and writes the new collections, as tables,
 * through PocketBase's REST API and its realtime stream.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import {
  createUser,
  errorCode,
  GqlClient,
  pbAs,
  restStatus,
  system,
  testGateway,
  type TestUser,
} from "./helpers.ts";
import {
  CheckinCheckOutDocument,
  CheckinFamiliesDocument,
  CheckinCreateRoomDocument,
  StationCheckInDocument,
  StationCreateDocument,
  StationDeleteDocument,
  StationHoldDocument,
  StationHouseholdDocument,
  StationListDocument,
  StationPairDocument,
  StationRegisterDocument,
  StationRegularsDocument,
  StationThisDocument,
} from "./__generated__/operations.ts";
import { createFamily, createOperator, createRoom, createSession } from "./checkin-support.ts";
import { describeRealtimeColumn } from "./realtime-recording.ts";

// The PocketBase SDK's realtime needs an EventSource (Node 20 has none).
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

let gateway: Gateway;
let su: PocketBase;
let operator: TestUser;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  operator = await createOperator();
});
afterAll(() => gateway.close());

const gql = (token?: string | null) => new GqlClient(gateway, { token: token ?? undefined });
const CODE = /^[ACDEFHJKMNPRTUVWXY3479]{4}$/;

/** An operator adds a station and a device redeems its code: the device's credential. */
async function registerStation(input: { mode: "STAFFED" | "SELF"; roomIds: string[] }) {
  const created = await gql(operator.token).execute(StationCreateDocument, {
    input: { name: `Lobby ${Math.random().toString(36).slice(2, 6)}`, labelSize: "LABEL_62MM", ...input },
  });
  expect(created.errors).toBeUndefined();
  const { code, station } = created.data!.createCheckinStation;
  const registered = await gql(null).execute(StationRegisterDocument, { code });
  expect(registered.errors).toBeUndefined();
  return { station, code, token: registered.data!.registerCheckinStation.token };
}

describe("a station registered with a code", () => {
  it("is added by an operator only, redeemed once, and acts as itself", async () => {
    const room = await createRoom(su);
    const member = await createUser();
    const refused = await gql(member.token).execute(StationCreateDocument, {
      input: { name: "Mine", mode: "SELF", labelSize: "NONE", roomIds: [] },
    });
    expect(errorCode(refused)).toBe("FORBIDDEN");

    const created = await gql(operator.token).execute(StationCreateDocument, {
      input: { name: "Welcome desk", mode: "STAFFED", labelSize: "LABEL_225IN", roomIds: [room.id] },
    });
    const { code, expiresAt, station } = created.data!.createCheckinStation;
    expect(code).toMatch(/^[ACDEFHJKMNPRTUVWXY3479]{4}-[ACDEFHJKMNPRTUVWXY3479]{4}$/);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(14 * 60_000);
    expect(station).toMatchObject({ registeredAt: null, rooms: [{ id: room.id }] });
    // The code is kept only as a hash.
    const stored = await su.collection("checkin_stations").getOne(station.id, { fields: "*,pairingHash" });
    expect(JSON.stringify(stored)).not.toContain(code.replace("-", ""));

    const wrong = await gql(null).execute(StationRegisterDocument, { code: "AAAA-AAAA" });
    expect(errorCode(wrong)).toBe("BAD_USER_INPUT");
    // Typed as people type it: lower case, with spaces.
    const typed = code.toLowerCase().replace("-", " ");
    const registered = await gql(null).execute(StationRegisterDocument, { code: typed });
    expect(registered.errors).toBeUndefined();
    const token = registered.data!.registerCheckinStation.token;
    expect(token).toMatch(/^flock_/);
    expect(registered.data!.registerCheckinStation.station.registeredAt).not.toBeNull();
    // Once: a second device cannot take the same code.
    expect(errorCode(await gql(null).execute(StationRegisterDocument, { code }))).toBe("BAD_USER_INPUT");

    const me = await gql(token).execute(StationThisDocument);
    expect(me.data!.thisCheckinStation).toMatchObject({
      id: station.id,
      mode: "STAFFED",
      labelSize: "LABEL_225IN",
    });
    // Nobody else is a station; the operator lists it.
    expect((await gql(operator.token).execute(StationThisDocument)).data!.thisCheckinStation).toBeNull();
    const list = await gql(operator.token).execute(StationListDocument);
    expect(list.data!.checkinStations.map((s) => s.id)).toContain(station.id);
    // A station is not staff: it lists no stations (no person signed in), keeps no rooms.
    expect(errorCode(await gql(token).execute(StationListDocument))).toBe("UNAUTHENTICATED");
    const roomWrite = await gql(token).execute(CheckinCreateRoomDocument, { input: { name: "Mine" } });
    expect(errorCode(roomWrite)).toBe("FORBIDDEN");
  });

  it("a new pairing replaces the device, and removing the station stops it at once", async () => {
    const first = await registerStation({ mode: "SELF", roomIds: [] });
    expect((await gql(first.token).execute(StationThisDocument)).data!.thisCheckinStation).not.toBeNull();
    const paired = await gql(operator.token).execute(StationPairDocument, { id: first.station.id });
    const second = await gql(null).execute(StationRegisterDocument, {
      code: paired.data!.pairCheckinStation.code,
    });
    const secondToken = second.data!.registerCheckinStation.token;
    expect(errorCode(await gql(first.token).execute(StationThisDocument))).toBe("UNAUTHENTICATED");
    expect((await gql(secondToken).execute(StationThisDocument)).data!.thisCheckinStation!.id).toBe(
      first.station.id,
    );
    await gql(operator.token).execute(StationDeleteDocument, { id: first.station.id });
    expect(errorCode(await gql(secondToken).execute(StationThisDocument))).toBe("UNAUTHENTICATED");
  });

  it("checks children into its own rooms, out with the code only; a self station shows no alerts", async () => {
    const nursery = await createRoom(su, { name: "Nursery", minAgeMonths: 0, maxAgeMonths: 23 });
    const k2 = await createRoom(su, { name: "K-2", minAgeMonths: 60, maxAgeMonths: 95 });
    const session = await createSession(su, [nursery.id, k2.id]);
    const family = await createFamily(
      [
        { first: "Ivy", months: 12, allergies: "Milk", medicalNotes: "Inhaler" },
        { first: "Jon", months: 70 },
      ],
      { notAuthorized: "Uncle Rex" },
    );
    const { token } = await registerStation({ mode: "SELF", roomIds: [k2.id] });

    const found = await gql(token).execute(CheckinFamiliesDocument, {
      sessionId: session.id,
      search: family.phone.slice(-4),
    });
    const mine = found.data!.checkinFamilies.find((f) => f.householdId === family.householdId)!;
    // A self station: no pickup alerts on a lobby screen; the nursery is not its room to suggest.
    expect(mine.notAuthorized).toEqual([]);
    const [ivy, jon] = family.children;
    const suggested = Object.fromEntries(mine.members.map((m) => [m.personId, m.suggestedRoomId]));
    expect(suggested[ivy!.id]).toBeNull();
    expect(suggested[jon!.id]).toBe(k2.id);

    const result = await gql(token).execute(StationCheckInDocument, {
      input: {
        sessionId: session.id,
        people: [
          { personId: ivy!.id, roomId: nursery.id },
          { personId: jon!.id, roomId: k2.id },
        ],
      },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data!.checkIn.refused).toEqual([
      expect.objectContaining({ personId: ivy!.id, code: "room_not_open" }),
    ]);
    const [jonIn] = result.data!.checkIn.checkins;
    expect(jonIn).toMatchObject({
      personId: jon!.id,
      medicalNotes: "",
      notAuthorized: "",
      can: { checkOut: true, page: false },
    });
    // The record names the station, not a person.
    const row = await su.collection("checkins").getOne(jonIn!.id);
    expect(row.checkedInBy).toBe("");
    expect(row.station).not.toBe("");

    const override = await gql(token).execute(CheckinCheckOutDocument, {
      input: { id: jonIn!.id, overrideReason: "Dad forgot the tag" },
    });
    expect(errorCode(override)).toBe("FORBIDDEN");
    const wrongCode = jonIn!.code === "AAAA" ? "CCCC" : "AAAA";
    expect(
      errorCode(
        await gql(token).execute(CheckinCheckOutDocument, { input: { id: jonIn!.id, code: wrongCode } }),
      ),
    ).toBe("BAD_USER_INPUT");
    const out = await gql(token).execute(CheckinCheckOutDocument, {
      input: { id: jonIn!.id, code: jonIn!.code },
    });
    expect(out.errors).toBeUndefined();
    expect(out.data!.checkOut.checkedOutAt).not.toBeNull();
  });

  it("finds a family by its household QR code", async () => {
    const room = await createRoom(su);
    const session = await createSession(su, [room.id]);
    const family = await createFamily([{ first: "Quin", months: 40 }]);
    const qr = await gql(family.parent.token).execute(StationHouseholdDocument);
    const qrText = qr.data!.myHouseholdCheckin!.qrText;
    expect(qrText).toBe(`flock:household:${family.householdId}`);
    const found = await gql(operator.token).execute(CheckinFamiliesDocument, {
      sessionId: session.id,
      search: qrText,
    });
    expect(found.data!.checkinFamilies.map((f) => f.householdId)).toEqual([family.householdId]);
  });
});

describe("working offline", () => {
  it("holds codes no other household gets, and a queued check-in keeps the one its label printed", async () => {
    const room = await createRoom(su, { minAgeMonths: 24, maxAgeMonths: 71 });
    const session = await createSession(su, [room.id]);
    const { token } = await registerStation({ mode: "STAFFED", roomIds: [] });

    const held = (await gql(token).execute(StationHoldDocument, { sessionId: session.id })).data!
      .holdCheckinCodes;
    expect(held).toHaveLength(10);
    expect(new Set(held).size).toBe(10);
    for (const code of held) expect(code).toMatch(CODE);
    // Asked again: the same codes (topped up, never more).
    expect(
      (await gql(token).execute(StationHoldDocument, { sessionId: session.id })).data!.holdCheckinCodes,
    ).toEqual(held);
    // Two sessions of the day opened at once by one station: each answer is the day's codes, at most 10.
    const other = await createSession(su, [room.id], 60);
    const fresh = await registerStation({ mode: "STAFFED", roomIds: [] });
    const both = await Promise.all(
      [session.id, other.id, session.id].map((id) =>
        gql(fresh.token).execute(StationHoldDocument, { sessionId: id }),
      ),
    );
    for (const answer of both) {
      expect(answer.errors).toBeUndefined();
      expect(answer.data!.holdCheckinCodes.length).toBeGreaterThanOrEqual(1);
      expect(answer.data!.holdCheckinCodes.length).toBeLessThanOrEqual(10);
    }
    // Operators and members hold none.
    expect(errorCode(await gql(operator.token).execute(StationHoldDocument, { sessionId: session.id }))).toBe(
      "FORBIDDEN",
    );

    // Made offline 5 minutes ago with the first held code: synced with that code and time.
    const first = await createFamily([{ first: "Ola", months: 40 }]);
    const offlineAt = new Date(Date.now() - 5 * 60_000).toISOString();
    const synced = await gql(token).execute(StationCheckInDocument, {
      input: {
        sessionId: session.id,
        proposedCode: held[0],
        offlineAt,
        people: [{ personId: first.children[0]!.id, roomId: room.id, clientKey: "offline-1" }],
      },
    });
    expect(synced.errors).toBeUndefined();
    expect(synced.data!.checkIn.code).toBe(held[0]);
    expect(Date.parse(synced.data!.checkIn.checkins[0]!.offlineAt!)).toBe(Date.parse(offlineAt));
    // Used: no longer held, and another household proposing it gets a code of its own.
    const after = (await gql(token).execute(StationHoldDocument, { sessionId: session.id })).data!
      .holdCheckinCodes;
    expect(after).not.toContain(held[0]);
    expect(after).toHaveLength(10);
    const second = await createFamily([{ first: "Pia", months: 40 }]);
    const reused = await gql(token).execute(StationCheckInDocument, {
      input: {
        sessionId: session.id,
        proposedCode: held[0],
        offlineAt,
        people: [{ personId: second.children[0]!.id, roomId: room.id }],
      },
    });
    expect(reused.data!.checkIn.code).toMatch(CODE);
    expect(reused.data!.checkIn.code).not.toBe(held[0]);

    // A sibling was checked in at another desk meanwhile: the household's code wins (one per day).
    const siblings = await createFamily([
      { first: "Rae", months: 40 },
      { first: "Sol", months: 50 },
    ]);
    const online = await gql(operator.token).execute(StationCheckInDocument, {
      input: { sessionId: session.id, people: [{ personId: siblings.children[0]!.id, roomId: room.id }] },
    });
    const householdCode = online.data!.checkIn.code;
    const late = await gql(token).execute(StationCheckInDocument, {
      input: {
        sessionId: session.id,
        proposedCode: held[1],
        offlineAt,
        people: [{ personId: siblings.children[1]!.id, roomId: room.id }],
      },
    });
    expect(late.data!.checkIn.code).toBe(householdCode);
    expect(householdCode).not.toBe(held[1]);

    // Too long ago to trust: refused, with the reason.
    const old = await gql(token).execute(StationCheckInDocument, {
      input: {
        sessionId: session.id,
        proposedCode: held[2],
        offlineAt: new Date(Date.now() - 40 * 60_000).toISOString(),
        people: [
          { personId: (await createFamily([{ first: "Tam", months: 40 }])).children[0]!.id, roomId: room.id },
        ],
      },
    });
    expect(old.data!.checkIn.refused.map((r) => r.code)).toEqual(["offline_too_old"]);

    // The station's offline list holds the families it checked in, found by their phone's last digits.
    const regulars = await gql(token).execute(StationRegularsDocument, { sessionId: session.id });
    const listed = regulars.data!.checkinRegulars.find((f) => f.householdId === first.householdId)!;
    expect(listed.phoneEndings).toEqual([first.phone.slice(-4)]);
    expect(listed.members.find((m) => m.personId === first.children[0]!.id)!.checkin!.code).toBe(held[0]);
  });
});

describe("who reads and writes stations and held codes (PocketBase REST)", () => {
  it("as a table", async () => {
    const room = await createRoom(su);
    const session = await createSession(su, [room.id]);
    const mine = await registerStation({ mode: "STAFFED", roomIds: [] });
    const other = await registerStation({ mode: "STAFFED", roomIds: [] });
    await gql(mine.token).execute(StationHoldDocument, { sessionId: session.id });
    await gql(other.token).execute(StationHoldDocument, { sessionId: session.id });
    const clientOf = async (stationId: string) =>
      (await su.collection("checkin_stations").getOne(stationId)).client as string;
    const asClient = async (stationId: string) => {
      const pb = pbAs(null);
      const auth = await su.collection("api_clients").impersonate(await clientOf(stationId), 120);
      pb.authStore.save(auth.authStore.token, auth.authStore.record);
      return pb;
    };
    const member = await createUser();
    const admin = await createUser({ roles: ["Administrator"] });
    const callers: [string, PocketBase, { stations: number | "all"; holds: number; holdCreate: number }][] = [
      ["visitor", pbAs(null), { stations: 0, holds: 0, holdCreate: 400 }],
      ["member", pbAs(member), { stations: 0, holds: 0, holdCreate: 400 }],
      ["operator", pbAs(operator), { stations: "all", holds: 0, holdCreate: 400 }],
      ["administrator", pbAs(admin), { stations: "all", holds: 0, holdCreate: 400 }],
      ["station", await asClient(mine.station.id), { stations: 1, holds: 10, holdCreate: 200 }],
    ];
    const allStations = (await su.collection("checkin_stations").getFullList()).length;
    for (const [who, pb, expected] of callers) {
      const stations = await pb
        .collection("checkin_stations")
        .getFullList()
        .catch(() => []);
      expect(stations.length, `${who} lists stations`).toBe(
        expected.stations === "all" ? allStations : expected.stations,
      );
      if (expected.stations === 1) expect(stations[0]!.id).toBe(mine.station.id);
      // Hidden: nobody reads a pairing hash through the API.
      for (const row of stations) expect(row.pairingHash, who).toBeUndefined();
      const holds = await pb
        .collection("checkin_code_holds")
        .getFullList()
        .catch(() => []);
      expect(holds.length, `${who} lists held codes`).toBe(expected.holds);
      const create = await restStatus(() =>
        pb.collection("checkin_code_holds").create({ session: session.id }),
      );
      expect(create, `${who} holds a code`).toBe(expected.holdCreate);
      // Nobody writes a station's identity or code by the API, and nobody edits a held code.
      const target = await su.collection("checkin_stations").getOne(other.station.id);
      expect(
        await restStatus(() => pb.collection("checkin_stations").update(target.id, { client: "" })),
        `${who} changes a station's identity`,
      ).not.toBe(200);
      const hold = (
        await su.collection("checkin_code_holds").getFirstListItem(`station = "${other.station.id}"`)
      ).id;
      expect(
        await restStatus(() => pb.collection("checkin_code_holds").update(hold, { household: "" })),
        `${who} edits a held code`,
      ).not.toBe(200);
    }
    // A station's identity reads no person, household or care note.
    const station = await asClient(mine.station.id);
    for (const collection of [
      "people",
      "households",
      "person_care",
      "pickup_authorizations",
      "person_phones",
    ])
      expect(
        (
          await station
            .collection(collection)
            .getList(1, 5)
            .catch(() => ({ items: [] }))
        ).items,
        collection,
      ).toEqual([]);
  });
});

// PocketBase's own realtime, as each caller: a change to a station, a held code or a check-in of today
// reaches exactly those who may list it (a station: its own record and codes, and the day's check-ins).
type Caller = "visitor" | "member" | "operator" | "station";
const CALLERS: Caller[] = ["visitor", "member", "operator", "station"];
const streams = {} as Record<Caller, PocketBase>;
const targets = {} as Record<"mine" | "other" | "mineHold" | "otherHold" | "checkin", string>;
beforeAll(async () => {
  const room = await createRoom(su);
  const session = await createSession(su, [room.id]);
  const mine = await registerStation({ mode: "STAFFED", roomIds: [] });
  const other = await registerStation({ mode: "STAFFED", roomIds: [] });
  await gql(mine.token).execute(StationHoldDocument, { sessionId: session.id });
  await gql(other.token).execute(StationHoldDocument, { sessionId: session.id });
  const holdOf = async (stationId: string) =>
    (await su.collection("checkin_code_holds").getFirstListItem(`station = "${stationId}"`)).id;
  const family = await createFamily([{ first: "Wes", months: 40 }]);
  const checked = await gql(mine.token).execute(StationCheckInDocument, {
    input: { sessionId: session.id, people: [{ personId: family.children[0]!.id, roomId: room.id }] },
  });
  Object.assign(targets, {
    mine: mine.station.id,
    other: other.station.id,
    mineHold: await holdOf(mine.station.id),
    otherHold: await holdOf(other.station.id),
    checkin: checked.data!.checkIn.checkins[0]!.id,
  });
  const client = (await su.collection("checkin_stations").getOne(mine.station.id)).client as string;
  const station = pbAs(null);
  const auth = await su.collection("api_clients").impersonate(client, 600);
  station.authStore.save(auth.authStore.token, auth.authStore.record);
  Object.assign(streams, {
    visitor: pbAs(null),
    member: pbAs(await createUser()),
    operator: pbAs(operator),
    station,
  });
});

const KEYS = {
  checkin_stations: ["mine", "other"],
  checkin_code_holds: ["mineHold", "otherHold"],
  checkins: ["checkin"],
} as const;
type Streamed = keyof typeof KEYS;
const ALLOWED: Record<Streamed, Record<Caller, string[]>> = {
  checkin_stations: { visitor: [], member: [], operator: ["mine", "other"], station: ["mine"] },
  checkin_code_holds: { visitor: [], member: [], operator: [], station: ["mineHold"] },
  checkins: { visitor: [], member: [], operator: ["checkin"], station: ["checkin"] },
};
describeRealtimeColumn({
  personas: CALLERS,
  collections: Object.keys(KEYS) as Streamed[],
  targetKeys: (collection) => [...KEYS[collection]],
  targetId: (_, key) => targets[key as keyof typeof targets],
  allowedTargets: (collection, caller) => ALLOWED[collection][caller],
  client: (caller) => streams[caller],
  su: () => su,
});
