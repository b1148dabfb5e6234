/**
 * Check-in's authorization table (issue 28), through PocketBase's REST API as each persona, and the
 * GraphQL reads built on it. Medical notes are the sensitive case: a member, another parent, people
 * staff without checkin.operate and a volunteer of another room see none; the child's parents,
 * operators and the volunteers serving in the child's room during the session do.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { createUser, errorCode, GqlClient, pbAs, system, testGateway, type TestUser } from "./helpers.ts";
import {
  CheckinFamiliesDocument,
  CheckinMineDocument,
  CheckinRosterDocument,
} from "./__generated__/operations.ts";
import { createFamily, createOperator, createRoom, createSession, type Family } from "./checkin-support.ts";
import { describeRealtimeColumn } from "./realtime-recording.ts";

// The PocketBase SDK's realtime needs an EventSource (Node 20 has none).
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

type Persona =
  | "visitor"
  | "member"
  | "otherParent"
  | "parent"
  | "peopleStaff"
  | "operator"
  | "volunteerHere"
  | "volunteerElsewhere";
const PERSONAS: Persona[] = [
  "visitor",
  "member",
  "otherParent",
  "parent",
  "peopleStaff",
  "operator",
  "volunteerHere",
  "volunteerElsewhere",
];

let gateway: Gateway;
let su: PocketBase;
const users = {} as Record<Persona, TestUser | null>;
let family: Family;
let room: RecordModel;
let session: RecordModel;
let checkin: RecordModel;
let care: RecordModel;
let pickup: RecordModel;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  room = await createRoom(su, { name: "Toddlers" });
  const elsewhere = await createRoom(su);
  session = await createSession(su, [room.id, elsewhere.id]);
  family = await createFamily([{ first: "Mia", months: 30, allergies: "Sesame", medicalNotes: "Inhaler" }], {
    notAuthorized: "Rex",
  });
  const other = await createFamily([{ first: "Noa", months: 30 }]);
  users.visitor = null;
  users.member = await createUser();
  users.otherParent = other.parent;
  users.parent = family.parent;
  users.peopleStaff = await createUser({ roles: ["Administrator"] });
  // Administrators hold checkin.operate too; people staff without it: a role with people.manage only.
  const peopleOnly = await su
    .collection("roles")
    .create({ name: `People only ${Date.now()}`, permissions: ["people.view", "people.manage"] });
  await su.collection("users").update(users.peopleStaff.id, { roles: [peopleOnly.id] });
  users.operator = await createOperator();
  users.volunteerHere = await createUser();
  users.volunteerElsewhere = await createUser();
  await pbAs(users.volunteerHere).collection("checkins").create({
    session: session.id,
    room: room.id,
    person: users.volunteerHere.personId,
    kind: "volunteer",
  });
  await pbAs(users.volunteerElsewhere).collection("checkins").create({
    session: session.id,
    room: elsewhere.id,
    person: users.volunteerElsewhere.personId,
    kind: "volunteer",
  });
  checkin = await pbAs(users.operator).collection("checkins").create({
    session: session.id,
    room: room.id,
    person: family.children[0]!.id,
    kind: "child",
  });
  care = await su
    .collection("person_care")
    .getFirstListItem(su.filter("person = {:p}", { p: family.children[0]!.id }));
  pickup = await su
    .collection("pickup_authorizations")
    .getFirstListItem(su.filter("household = {:h}", { h: family.householdId }));
});
afterAll(() => gateway.close());

const status = async (run: () => Promise<unknown>) => {
  try {
    await run();
    return 200;
  } catch (error) {
    return (error as { status: number }).status;
  }
};
const ids = async (pb: PocketBase, collection: string, filter: string) =>
  (await pb.collection(collection).getFullList({ filter })).map((row) => row.id);

/** Who reads what: the child's check-in (with its copies of the care notes), the care notes, the pickup list. */
const READS: Record<Persona, { checkin: boolean; care: boolean; pickup: boolean; rooms: boolean }> = {
  visitor: { checkin: false, care: false, pickup: false, rooms: false },
  member: { checkin: false, care: false, pickup: false, rooms: true },
  otherParent: { checkin: false, care: false, pickup: false, rooms: true },
  parent: { checkin: true, care: true, pickup: true, rooms: true },
  peopleStaff: { checkin: false, care: false, pickup: false, rooms: true },
  operator: { checkin: true, care: true, pickup: true, rooms: true },
  volunteerHere: { checkin: true, care: false, pickup: false, rooms: true },
  volunteerElsewhere: { checkin: false, care: false, pickup: false, rooms: true },
};

describe.each(PERSONAS)("%s through REST", (persona) => {
  const pb = () => pbAs(users[persona]);
  const expected = READS[persona];

  it("lists and views the child's check-in only as allowed", async () => {
    expect(await ids(pb(), "checkins", `id = "${checkin.id}"`)).toEqual(expected.checkin ? [checkin.id] : []);
    expect(await status(() => pb().collection("checkins").getOne(checkin.id))).toBe(
      expected.checkin ? 200 : 404,
    );
  });

  it("reads the care notes and the pickup list only as allowed", async () => {
    expect(await ids(pb(), "person_care", `id = "${care.id}"`)).toEqual(expected.care ? [care.id] : []);
    expect(await status(() => pb().collection("person_care").getOne(care.id))).toBe(
      expected.care ? 200 : 404,
    );
    expect(await ids(pb(), "pickup_authorizations", `id = "${pickup.id}"`)).toEqual(
      expected.pickup ? [pickup.id] : [],
    );
  });

  it("reads a room's counts only as an operator", async () => {
    expect(
      await ids(pb(), "checkin_counts", `session = "${session.id}" && room = "${room.id}"`),
    ).toHaveLength(persona === "operator" ? 1 : 0);
  });

  it("reads rooms and sessions only when signed in as an active member or operator", async () => {
    expect(await ids(pb(), "checkin_rooms", `id = "${room.id}"`)).toEqual(expected.rooms ? [room.id] : []);
    expect(await ids(pb(), "checkin_sessions", `id = "${session.id}"`)).toEqual(
      expected.rooms ? [session.id] : [],
    );
  });

  it("checks a child in only as an operator, and never writes the hook's fields", async () => {
    const child = (await createFamily([{ first: "Zed", months: 30 }])).children[0]!;
    const made = await status(() =>
      pb()
        .collection("checkins")
        .create({ session: session.id, room: room.id, person: child.id, kind: "child" }),
    );
    expect(made).toBe(persona === "operator" ? 200 : 400);
    const forged = await status(() =>
      pb()
        .collection("checkins")
        .create({ session: session.id, room: room.id, person: child.id, kind: "child", code: "AAAA" }),
    );
    expect(forged).not.toBe(200);
  });

  it("checks the child out only as an operator (with the code), and changes nothing else", async () => {
    const other = await createFamily([{ first: "Out", months: 30 }]);
    const row = await su.collection("checkins").create({
      session: session.id,
      room: room.id,
      person: other.children[0]!.id,
      kind: "child",
    });
    const outcome = await status(() =>
      pb()
        .collection("checkins")
        .update(row.id, { checkedOutAt: new Date().toISOString(), pickupCode: row.code }),
    );
    expect(outcome).toBe(persona === "operator" ? 200 : 404);
    expect(await status(() => pb().collection("checkins").update(row.id, { room: room.id }))).not.toBe(200);
    expect(await status(() => pb().collection("checkins").delete(row.id))).toBe(
      persona === "operator" ? 200 : 404,
    );
  });

  it("keeps rooms and the pickup list only as allowed", async () => {
    expect(await status(() => pb().collection("checkin_rooms").create({ name: "X", active: true }))).toBe(
      persona === "operator" ? 200 : 400,
    );
    expect(await status(() => pb().collection("checkin_rooms").update(room.id, { name: "Toddlers" }))).toBe(
      persona === "operator" ? 200 : 404,
    );
    const added = await status(() =>
      pb()
        .collection("pickup_authorizations")
        .create({ household: family.householdId, name: "Gran", status: "trusted" }),
    );
    expect(added).toBe(persona === "operator" || persona === "parent" ? 200 : 400);
    const careWrite = await status(() =>
      pb().collection("person_care").update(care.id, { allergies: "Sesame" }),
    );
    expect(careWrite).toBe(persona === "operator" || persona === "parent" ? 200 : 404);
  });
});

describe.each(PERSONAS)("%s through GraphQL", (persona) => {
  const gql = () => new GqlClient(gateway, { token: users[persona]?.token });

  it("reads the room's roster (with medical notes) only as an operator or a volunteer serving in it", async () => {
    const result = await gql().execute(CheckinRosterDocument, { sessionId: session.id, roomId: room.id });
    if (persona === "operator" || persona === "volunteerHere") {
      expect(result.data!.checkinRoster.children.find((c) => c.id === checkin.id)).toMatchObject({
        medicalNotes: "Inhaler",
        allergies: "Sesame",
        notAuthorized: "Rex (uncle)",
      });
    } else {
      expect(errorCode(result)).toBe(persona === "visitor" ? "UNAUTHENTICATED" : "FORBIDDEN");
    }
  });

  it("finds families only as an operator", async () => {
    const result = await gql().execute(CheckinFamiliesDocument, {
      sessionId: session.id,
      search: family.phone.slice(-4),
    });
    if (persona === "operator")
      expect(result.data!.checkinFamilies.map((f) => f.householdId)).toContain(family.householdId);
    else expect(errorCode(result)).toBe(persona === "visitor" ? "UNAUTHENTICATED" : "FORBIDDEN");
  });

  it("sees the child's code in their account only as the parent", async () => {
    const result = await gql().execute(CheckinMineDocument);
    if (persona === "visitor") return expect(errorCode(result)).toBe("UNAUTHENTICATED");
    const mine = result.data!.myCheckins.map((c) => c.id);
    if (persona === "parent") expect(mine).toContain(checkin.id);
    else if (persona !== "operator") expect(mine).not.toContain(checkin.id);
  });
});

// PocketBase's own realtime, as each persona: a change to the child's check-in (medical notes in its
// copy), their care notes or the household's pickup list reaches exactly those who may read it.
const REALTIME = ["checkins", "person_care", "pickup_authorizations"] as const;
const READ_KEY = { checkins: "checkin", person_care: "care", pickup_authorizations: "pickup" } as const;
describeRealtimeColumn({
  personas: PERSONAS,
  collections: REALTIME,
  targetKeys: (collection) => [READ_KEY[collection]],
  targetId: (collection) =>
    collection === "checkins" ? checkin.id : collection === "person_care" ? care.id : pickup.id,
  allowedTargets: (collection, persona) =>
    READS[persona][READ_KEY[collection]] ? [READ_KEY[collection]] : [],
  client: (persona) => pbAs(users[persona]),
  su: () => su,
});

describe("API tokens: CHECKIN_COUNTS reads numbers, never a child", () => {
  const tokens = {} as Record<"none" | "counts", { id: string; secret: string }>;
  beforeAll(async () => {
    const admin = await createUser({ roles: ["Administrator"] });
    for (const [name, scopes] of [
      ["none", []],
      ["counts", ["CHECKIN_COUNTS"]],
    ] as const) {
      const created = await new GqlClient(gateway, { token: admin.token }).request<{
        createApiToken: { secret: string; token: { id: string } };
      }>(
        `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { id } } }`,
        {
          input: { name: `Check-in ${name} ${Date.now()}`, scopes },
        },
      );
      expect(created.errors).toBeUndefined();
      tokens[name] = {
        id: created.data!.createApiToken.token.id,
        secret: created.data!.createApiToken.secret,
      };
    }
  });
  const rest = (name: "none" | "counts") => su.collection("api_clients").impersonate(tokens[name].id, 600);
  const gql = (name: "none" | "counts") =>
    new GqlClient(gateway, { token: tokens[name].secret, ip: "198.51.100.91" });
  /** What the room holds now, read by the system: the counts must say the same. */
  const present = async () => {
    const rows = await su
      .collection("checkins")
      .getFullList({ filter: `session = "${session.id}" && room = "${room.id}"` });
    const inRoom = rows.filter((row) => !row.checkedOutAt);
    return {
      children: inRoom.filter((row) => row.kind === "child").length,
      volunteers: inRoom.filter((row) => row.kind === "volunteer").length,
    };
  };
  const SESSIONS = `{ checkinSessions { id counts { room { id name } children volunteers childrenTotal } } }`;

  it("through REST: the counts token reads the room's numbers, sessions and rooms; no token reads a check-in, care note or pickup list", async () => {
    const counts = await rest("counts");
    const row = (
      await counts
        .collection("checkin_counts")
        .getFullList({ filter: `session = "${session.id}" && room = "${room.id}"` })
    )[0];
    const now = await present();
    expect(now.children).toBeGreaterThan(0);
    expect(row).toMatchObject(now);
    expect(await ids(counts, "checkin_sessions", `id = "${session.id}"`)).toEqual([session.id]);
    expect(await ids(counts, "checkin_rooms", `id = "${room.id}"`)).toEqual([room.id]);
    const none = await rest("none");
    expect(await ids(none, "checkin_counts", `session = "${session.id}"`)).toEqual([]);
    expect(await ids(none, "checkin_sessions", `id = "${session.id}"`)).toEqual([]);
    for (const pb of [counts, none]) {
      expect(await ids(pb, "checkins", `session = "${session.id}"`)).toEqual([]);
      expect(await ids(pb, "person_care", `id = "${care.id}"`)).toEqual([]);
      expect(await ids(pb, "pickup_authorizations", `id = "${pickup.id}"`)).toEqual([]);
      expect(
        await status(() => pb.collection("checkin_counts").create({ session: session.id, room: room.id })),
      ).not.toBe(200);
    }
  });

  it("through GraphQL: the counts token gets each room's numbers and no roster; a token without the scope gets no session", async () => {
    const result = await gql("counts").request<{
      checkinSessions: {
        id: string;
        counts: { room: { id: string }; children: number; volunteers: number }[];
      }[];
    }>(SESSIONS);
    expect(result.errors).toBeUndefined();
    const mine = result.data!.checkinSessions.find((s) => s.id === session.id)!;
    expect(mine.counts.find((c) => c.room.id === room.id)).toMatchObject(await present());
    expect(
      errorCode(
        await gql("counts").execute(CheckinRosterDocument, { sessionId: session.id, roomId: room.id }),
      ),
    ).toBe("UNAUTHENTICATED");
    const none = await gql("none").request<{ checkinSessions: { id: string }[] }>(SESSIONS);
    expect(none.data!.checkinSessions.map((s) => s.id)).not.toContain(session.id);
  });
});
