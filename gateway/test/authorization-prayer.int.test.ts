/**
 * QUALITY.md S1 for the prayer wall and notifications (issue 5): persona × collection × operation, every
 * cell an explicit expectation, checked directly against PocketBase's REST API and realtime (the API
 * rules in pb_migrations/1732300000_prayer.js are the authorization) and through GraphQL.
 *
 * Personas (columns): anonymous, pending (signed up, person pending), member, otherMember, editor
 * (content rights), careTeam (prayer.moderate + prayer.view_pastoral), moderator (a role with
 * prayer.moderate only), pastor, admin. Group leaders do not exist until the groups issue.
 *
 * The world: one request per visibility (public / members / pastoral) × status (pending / approved /
 * answered / rejected) × identity (named, asked by the member; anonymous, asked by the other member),
 * an archived one, and two asked by visitors (no account). Who asked is in prayer_request_private
 * only. Marks, flags and notifications belong to known personas.
 *
 * Reads are one table per collection (target × persona), driving list, view, realtime and GraphQL.
 * Writes have their own table; each check is made on fresh rows and cleaned up.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientResponseError, type RecordModel } from "pocketbase";
import type PocketBase from "pocketbase";
import { EventSource } from "eventsource";
import type { Gateway } from "../src/index.ts";
import type { PrayerRequestRecord } from "../src/pocketbase/records.ts";
import {
  createUser,
  errorCode,
  GqlClient,
  pbAs,
  restStatus,
  system,
  testGateway,
  type GqlResult,
  type TestUser,
} from "./helpers.ts";
import {
  AuthzNotificationsDocument,
  AuthzPrayerRequestDocument,
  AuthzPrayerWallDocument,
} from "./__generated__/operations.ts";
import { describeRealtimeColumn } from "./realtime-recording.ts";
import {
  A,
  D,
  columns,
  describeAuthorizationTable,
  type Cells as CellsOf,
  type Check,
  type Verdict,
} from "./authorization-table.ts";

// The PocketBase SDK's realtime needs an EventSource (Node 20 has none).
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

const PERSONAS = [
  "anonymous",
  "pending",
  "member",
  "otherMember",
  "editor",
  "careTeam",
  "moderator",
  "pastor",
  "admin",
] as const;
type Persona = (typeof PERSONAS)[number];

type Expected = Verdict;
type Cells = CellsOf<Persona>;
/** Columns: anonymous, pending, member, otherMember, editor, careTeam, moderator, pastor, admin. */
const { cells } = columns(PERSONAS);

// ─── The world ───────────────────────────────────────────────────────────────────────────────────
const VISIBILITIES = ["public", "members", "pastoral"] as const;
const STATUSES = ["pending", "approved", "answered", "rejected"] as const;
type RequestKey =
  | `${(typeof VISIBILITIES)[number]}${Capitalize<(typeof STATUSES)[number]>}${"Named" | "Anon"}`
  | "publicArchivedNamed"
  | "visitorApprovedAnon"
  | "visitorPendingNamed";
const cap = <S extends string>(s: S) => (s.charAt(0).toUpperCase() + s.slice(1)) as Capitalize<S>;

// ─── Reads ───────────────────────────────────────────────────────────────────────────────────────
const READ = {
  // On the wall (approved/answered; public for all, members-only for active members), the whole
  // non-pastoral queue for moderators, everything for pastoral staff, and always the requester's own.
  prayer_requests: {
    publicPendingNamed: /*     */ cells(D, D, A, D, D, A, A, A, A),
    publicApprovedNamed: /*    */ cells(A, A, A, A, A, A, A, A, A),
    publicAnsweredNamed: /*    */ cells(A, A, A, A, A, A, A, A, A),
    publicRejectedNamed: /*    */ cells(D, D, A, D, D, A, A, A, A),
    membersPendingNamed: /*    */ cells(D, D, A, D, D, A, A, A, A),
    membersApprovedNamed: /*   */ cells(D, D, A, A, A, A, A, A, A),
    membersAnsweredNamed: /*   */ cells(D, D, A, A, A, A, A, A, A),
    membersRejectedNamed: /*   */ cells(D, D, A, D, D, A, A, A, A),
    pastoralPendingNamed: /*   */ cells(D, D, A, D, D, A, D, A, A),
    pastoralApprovedNamed: /*  */ cells(D, D, A, D, D, A, D, A, A),
    pastoralAnsweredNamed: /*  */ cells(D, D, A, D, D, A, D, A, A),
    pastoralRejectedNamed: /*  */ cells(D, D, A, D, D, A, D, A, A),
    publicPendingAnon: /*      */ cells(D, D, D, A, D, A, A, A, A),
    publicApprovedAnon: /*     */ cells(A, A, A, A, A, A, A, A, A),
    publicAnsweredAnon: /*     */ cells(A, A, A, A, A, A, A, A, A),
    publicRejectedAnon: /*     */ cells(D, D, D, A, D, A, A, A, A),
    membersPendingAnon: /*     */ cells(D, D, D, A, D, A, A, A, A),
    membersApprovedAnon: /*    */ cells(D, D, A, A, A, A, A, A, A),
    membersAnsweredAnon: /*    */ cells(D, D, A, A, A, A, A, A, A),
    membersRejectedAnon: /*    */ cells(D, D, D, A, D, A, A, A, A),
    pastoralPendingAnon: /*    */ cells(D, D, D, A, D, A, D, A, A),
    pastoralApprovedAnon: /*   */ cells(D, D, D, A, D, A, D, A, A),
    pastoralAnsweredAnon: /*   */ cells(D, D, D, A, D, A, D, A, A),
    pastoralRejectedAnon: /*   */ cells(D, D, D, A, D, A, D, A, A),
    publicArchivedNamed: /*    */ cells(D, D, A, D, D, A, A, A, A), // expired: off the wall
    visitorApprovedAnon: /*    */ cells(A, A, A, A, A, A, A, A, A),
    visitorPendingNamed: /*    */ cells(D, D, D, D, D, A, A, A, A), // a visitor cannot read it back
  } satisfies Record<RequestKey, Cells>,
  // Who asked: pastoral staff and the requester — never moderators without view_pastoral, never the wall.
  prayer_request_private: {
    publicApprovedNamed: /*    */ cells(D, D, A, D, D, A, D, A, A),
    membersPendingNamed: /*    */ cells(D, D, A, D, D, A, D, A, A),
    publicApprovedAnon: /*     */ cells(D, D, D, A, D, A, D, A, A),
    pastoralPendingAnon: /*    */ cells(D, D, D, A, D, A, D, A, A),
    visitorApprovedAnon: /*    */ cells(D, D, D, D, D, A, D, A, A),
    visitorPendingNamed: /*    */ cells(D, D, D, D, D, A, D, A, A),
  } satisfies Partial<Record<RequestKey, Cells>>,
  // "I prayed": each user reads their own marks only; a visitor's marks (device) nobody reads.
  prayer_marks: {
    member: /*                 */ cells(D, D, A, D, D, D, D, D, D),
    otherMember: /*            */ cells(D, D, D, A, D, D, D, D, D),
    pastor: /*                 */ cells(D, D, D, D, D, D, D, A, D),
    visitor: /*                */ cells(D, D, D, D, D, D, D, D, D),
  },
  // Flags: moderators and pastoral staff (the queue), and the member who flagged.
  prayer_flags: {
    member: /*                 */ cells(D, D, A, D, D, A, A, A, A),
    otherMember: /*            */ cells(D, D, D, A, D, A, A, A, A),
  },
  // Notifications: their owner only — not even an administrator.
  notifications: {
    pending: /*                */ cells(D, A, D, D, D, D, D, D, D),
    member: /*                 */ cells(D, D, A, D, D, D, D, D, D),
    otherMember: /*            */ cells(D, D, D, A, D, D, D, D, D),
    pastor: /*                 */ cells(D, D, D, D, D, D, D, A, D),
  },
} as const;
type ReadCollection = keyof typeof READ;
const READ_COLLECTIONS = Object.keys(READ) as ReadCollection[];

// ─── Writes (REST) ───────────────────────────────────────────────────────────────────────────────
const WRITE = {
  prayer_requests: {
    "ask: public, anonymous, pending": /*                 */ cells(A, A, A, A, A, A, A, A, A),
    "ask: public under the account's own name": /*        */ cells(A, A, A, A, A, A, A, A, A), // visitors name themselves
    "ask: under someone else's name": /*                  */ cells(A, D, D, D, D, D, D, D, D),
    "ask: members-only": /*                               */ cells(A, A, A, A, A, A, A, A, A), // visitors too (issue 10)
    "ask: pastoral": /*                                   */ cells(A, A, A, A, A, A, A, A, A),
    "ask: already approved (approval is required)": /*    */ cells(D, D, D, D, D, D, D, D, D),
    "ask: with a prayed count": /*                        */ cells(D, D, D, D, D, D, D, D, D),
    "ask: with flags, an answer or a reject reason": /*   */ cells(D, D, D, D, D, D, D, D, D),
    "approve a public pending request": /*                */ cells(D, D, D, D, D, A, A, A, A),
    "edit the text of a public pending request": /*       */ cells(D, D, D, D, D, A, A, A, A),
    "approve a pastoral pending request": /*              */ cells(D, D, D, D, D, A, D, A, A),
    "move a public request to pastoral": /*               */ cells(D, D, D, D, D, A, D, A, A),
    "member's approved request: mark answered": /*        */ cells(D, D, A, D, D, A, A, A, A), // the requester
    "member's pending request: mark answered": /*         */ cells(D, D, D, D, D, A, A, A, A),
    "member's request: answer and set prayedCount": /*    */ cells(D, D, D, D, D, A, A, A, A),
    "member's request: answer and change visibility": /*  */ cells(D, D, D, D, D, A, A, A, A),
    "member's request: answer and reveal the author": /*  */ cells(D, D, D, D, D, A, A, A, A),
    "someone's request: set prayedCount": /*              */ cells(D, D, D, D, D, A, A, A, A),
    "delete a public request": /*                         */ cells(D, D, D, D, D, A, A, A, A),
    "delete a pastoral request": /*                       */ cells(D, D, D, D, D, A, D, A, A),
  },
  // Written by the gateway's system job only (the collection has no create/update/delete rule).
  prayer_request_private: {
    "claim a request as one's own": /*                    */ cells(D, D, D, D, D, D, D, D, D),
    "re-point a visitor's row at oneself": /*             */ cells(D, D, D, D, D, D, D, D, D),
    delete: /*                                            */ cells(D, D, D, D, D, D, D, D, D),
  },
  prayer_marks: {
    "pray for a public request (own account / device)": /**/ cells(A, A, A, A, A, A, A, A, A),
    "pray for a members-only request": /*                  */ cells(D, D, A, A, A, A, A, A, A),
    // The church turned the public wall off (settings.prayerPublicWall): public requests are for active members.
    "pray for a public request, public wall off": /*        */ cells(D, D, A, A, A, A, A, A, A),
    "view a public request, public wall off": /*            */ cells(D, D, A, A, A, A, A, A, A),
    "list public requests, public wall off": /*             */ cells(D, D, A, A, A, A, A, A, A),
    "pray for a pastoral request": /*                      */ cells(D, D, D, D, D, A, D, A, A),
    "pray for a pending request": /*                       */ cells(D, D, D, D, D, D, D, D, D),
    "pray as someone else (their user id)": /*             */ cells(D, D, D, D, D, D, D, D, D),
    "pray with both a user id and a device key": /*        */ cells(D, D, D, D, D, D, D, D, D),
    "pray on a made-up day": /*                            */ cells(D, D, D, D, D, D, D, D, D),
    update: /*                                             */ cells(D, D, D, D, D, D, D, D, D),
    delete: /*                                             */ cells(D, D, D, D, D, D, D, D, D),
  },
  prayer_flags: {
    "flag a public request on the wall": /*                */ cells(D, D, A, A, A, A, A, A, A), // active members
    "flag a pending request": /*                           */ cells(D, D, D, D, D, D, D, D, D),
    "flag a pastoral request": /*                          */ cells(D, D, D, D, D, D, D, D, D),
    "flag as someone else": /*                             */ cells(D, D, D, D, D, D, D, D, D),
    "change a flag": /*                                    */ cells(D, D, D, D, D, D, D, D, D),
    "delete member's flag": /*                             */ cells(D, D, D, D, D, A, A, A, A),
  },
  notifications: {
    "create for oneself": /*                               */ cells(D, D, D, D, D, D, D, D, D),
    "mark own read": /*                                    */ cells(D, A, A, A, A, A, A, A, A),
    "mark member's read": /*                               */ cells(D, D, A, D, D, D, D, D, D),
    "change own count or title": /*                        */ cells(D, D, D, D, D, D, D, D, D),
    "hand own to another user": /*                         */ cells(D, D, D, D, D, D, D, D, D),
    "delete own": /*                                       */ cells(D, A, A, A, A, A, A, A, A),
    "delete member's": /*                                  */ cells(D, D, A, D, D, D, D, D, D),
  },
} satisfies Record<string, Record<string, Cells>>;
type WriteCollection = keyof typeof WRITE;

// ─── The world and the actors ────────────────────────────────────────────────────────────────────
let gateway: Gateway;
let su: PocketBase;
const run = randomUUID().slice(0, 8);
/** Names that must never reach anyone but pastoral staff and the requester when the request is anonymous. */
const SECRET_NAME = `Secretive Asker ${run}`;
const SECRET_EMAIL = `secret-${run}@test.example`;
const VISITOR_NAME = `Visiting Asker ${run}`;

const users = {} as Record<Exclude<Persona, "anonymous">, TestUser>;
const requests = {} as Record<RequestKey, string>;
const privates = {} as Record<keyof (typeof READ)["prayer_request_private"], string>;
const marks = {} as Record<keyof (typeof READ)["prayer_marks"], string>;
const flags = {} as Record<keyof (typeof READ)["prayer_flags"], string>;
const notifications = {} as Record<keyof (typeof READ)["notifications"], string>;

/** Account names (the create rule holds a signed-in requester to theirs). */
const NAMES: Record<Exclude<Persona, "anonymous">, string> = {
  pending: "Test Person",
  member: `Mary Member ${run}`,
  otherMember: SECRET_NAME,
  editor: "Test Person",
  careTeam: "Test Person",
  moderator: "Test Person",
  pastor: "Test Person",
  admin: "Test Person",
};
const userOf = (persona: Persona) => (persona === "anonymous" ? null : users[persona]);
const rest = (persona: Persona) => pbAs(userOf(persona));
const gql = (persona: Persona) =>
  new GqlClient(gateway, {
    token: userOf(persona)?.token,
    ip: `198.51.100.${PERSONAS.indexOf(persona) + 101}`,
  });
const today = () => new Date().toISOString().slice(0, 10);
const deviceKey = () => randomUUID().replace(/-/g, "").padEnd(64, "0");

function targetId(collection: ReadCollection, key: string): string {
  const byCollection: Record<ReadCollection, Record<string, string>> = {
    prayer_requests: requests,
    prayer_request_private: privates,
    prayer_marks: marks,
    prayer_flags: flags,
    notifications,
  };
  const id = byCollection[collection][key];
  if (!id) throw new Error(`no fixture ${collection}/${key}`);
  return id;
}
const allowedTargets = (collection: ReadCollection, persona: Persona) =>
  Object.entries(READ[collection] as Record<string, Cells>)
    .filter(([, byPersona]) => byPersona[persona] === A)
    .map(([key]) => key)
    .sort();

/** A request written by the system (as the gateway's moderation would leave it), with who asked. */
async function newRequest(
  fields: Partial<PrayerRequestRecord>,
  asker: { user?: string; person?: string; name: string; email?: string } | null,
) {
  const request = await su.collection("prayer_requests").create<PrayerRequestRecord>({
    body: `A prayer request of the authorization world ${run} ${randomUUID().slice(0, 6)}`,
    visibility: "public",
    anonymous: false,
    authorName: asker?.name ?? "",
    status: "approved",
    ...fields,
  });
  const privateRow = asker
    ? await su.collection("prayer_request_private").create({
        request: request.id,
        user: asker.user ?? "",
        person: asker.person ?? "",
        submitterName: asker.name,
        submitterEmail: asker.email ?? "",
      })
    : null;
  return { id: request.id, privateId: privateRow?.id ?? "" };
}

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  const moderatorRole = await su.collection("roles").create({
    name: `Prayer Moderator ${run}`,
    description: "Moderates the wall only.",
    permissions: ["prayer.moderate"],
  });
  const [pending, member, otherMember, editor, careTeam, moderator, pastor, admin] = await Promise.all([
    createUser({ person: "pending" }),
    createUser({ name: NAMES.member }),
    createUser({ name: NAMES.otherMember, email: SECRET_EMAIL }),
    createUser({ roles: ["Editor"] }),
    createUser({ roles: ["Care Team"] }),
    createUser(),
    createUser({ roles: ["Pastor"] }),
    createUser({ roles: ["Administrator"] }),
  ]);
  await su.collection("users").update(moderator.id, { roles: [moderatorRole.id] });
  Object.assign(users, { pending, member, otherMember, editor, careTeam, moderator, pastor, admin });

  const named = {
    user: member.id,
    person: member.personId!,
    name: `Mary Member ${run}`,
    email: member.email,
  };
  const anon = {
    user: otherMember.id,
    person: otherMember.personId!,
    name: SECRET_NAME,
    email: SECRET_EMAIL,
  };
  for (const visibility of VISIBILITIES) {
    for (const status of STATUSES) {
      const n = await newRequest({ visibility, status }, named);
      requests[`${visibility}${cap(status)}Named`] = n.id;
      const a = await newRequest({ visibility, status, anonymous: true, authorName: "" }, anon);
      requests[`${visibility}${cap(status)}Anon`] = a.id;
      if (visibility === "public" && status === "approved")
        Object.assign(privates, { publicApprovedNamed: n.privateId, publicApprovedAnon: a.privateId });
      if (visibility === "members" && status === "pending") privates.membersPendingNamed = n.privateId;
      if (visibility === "pastoral" && status === "pending") privates.pastoralPendingAnon = a.privateId;
    }
  }
  requests.publicArchivedNamed = (await newRequest({ status: "archived" }, named)).id;
  const visitorAnon = await newRequest(
    { anonymous: true, authorName: "" },
    { name: VISITOR_NAME, email: `visitor-${run}@test.example` },
  );
  const visitorNamed = await newRequest(
    { status: "pending", authorName: VISITOR_NAME },
    { name: VISITOR_NAME, email: `visitor-${run}@test.example` },
  );
  Object.assign(requests, { visitorApprovedAnon: visitorAnon.id, visitorPendingNamed: visitorNamed.id });
  Object.assign(privates, {
    visitorApprovedAnon: visitorAnon.privateId,
    visitorPendingNamed: visitorNamed.privateId,
  });

  const mark = (body: Record<string, unknown>) =>
    su.collection("prayer_marks").create({ deviceKey: "", user: "", day: today(), ...body });
  marks.member = (await mark({ request: requests.publicApprovedAnon, user: member.id })).id;
  marks.otherMember = (await mark({ request: requests.publicApprovedNamed, user: otherMember.id })).id;
  marks.pastor = (await mark({ request: requests.pastoralApprovedAnon, user: pastor.id })).id;
  marks.visitor = (await mark({ request: requests.publicApprovedNamed, deviceKey: deviceKey() })).id;
  flags.member = (
    await su
      .collection("prayer_flags")
      .create({ request: requests.publicApprovedAnon, user: member.id, reason: "test" })
  ).id;
  flags.otherMember = (
    await su
      .collection("prayer_flags")
      .create({ request: requests.membersApprovedNamed, user: otherMember.id, reason: "test" })
  ).id;
  for (const owner of ["pending", "member", "otherMember", "pastor"] as const) {
    notifications[owner] = (
      await su
        .collection("notifications")
        .create({ user: users[owner].id, kind: "prayer_prayed", title: "Someone prayed", count: 1 })
    ).id;
  }
  // The cells assume these: fail here, loudly, if the world drifts.
  const settings = (await su.collection("settings").getFullList())[0]!;
  expect(settings.prayerRequiresApproval).toBe(true);
  expect(settings.prayerPublicWall).toBe(true);
  expect((await su.collection("prayer_requests").getOne(requests.publicApprovedAnon)).status).toBe(
    "approved",
  );
});

afterAll(async () => {
  await gateway?.close();
});

// ─── REST write helpers ──────────────────────────────────────────────────────────────────────────
async function attempt(
  runIt: () => Promise<RecordModel | boolean>,
): Promise<{ status: number; id?: string }> {
  try {
    const result = await runIt();
    return { status: 200, id: typeof result === "object" ? result.id : undefined };
  } catch (error) {
    if (error instanceof ClientResponseError) return { status: error.status };
    throw error;
  }
}

/**
 * Create: allowed → 200 and the row exists; refused → `denied` (400 when a rule refuses, 403 when the
 * collection has no create rule at all) and nothing was written. Cleans up.
 */
async function checkCreate(
  persona: Persona,
  expected: Expected,
  collection: string,
  body: Record<string, unknown>,
  marker: string,
  denied = 400,
) {
  const result = await attempt(() => rest(persona).collection(collection).create(body));
  const written = await su.collection(collection).getFullList({ filter: marker });
  try {
    expect(result.status).toBe(expected === A ? 200 : denied);
    expect(written.map((r) => r.id)).toEqual(expected === A ? [result.id] : []);
  } finally {
    for (const row of written) await su.collection(collection).delete(row.id);
  }
}

/** Update: allowed → 200 and the values landed (then restored); refused → `denied` and nothing changed. */
async function checkUpdate(
  persona: Persona,
  expected: Expected,
  collection: string,
  id: string,
  body: Record<string, unknown>,
  denied = 404,
) {
  const before = await su.collection(collection).getOne(id);
  const status = await restStatus(() => rest(persona).collection(collection).update(id, body));
  const after = await su.collection(collection).getOne(id);
  const restore = Object.fromEntries(Object.keys(body).map((key) => [key, before[key]]));
  try {
    expect(status).toBe(expected === A ? 200 : denied);
    for (const [key, value] of Object.entries(body)) {
      expect(after[key], key).toEqual(expected === A ? value : before[key]);
    }
  } finally {
    if (Object.keys(body).some((key) => after[key] !== before[key]))
      await su.collection(collection).update(id, restore);
  }
}

/** Delete: allowed → 200 and gone; refused → `denied` and still there. */
async function checkDelete(
  persona: Persona,
  expected: Expected,
  collection: string,
  id: string,
  denied = 404,
) {
  const status = await restStatus(() => rest(persona).collection(collection).delete(id));
  expect(status).toBe(expected === A ? 200 : denied);
  expect(await restStatus(() => su.collection(collection).getOne(id))).toBe(expected === A ? 404 : 200);
}

/** A request made for one check (asked by the member unless told), removed afterwards with its rows. */
async function withFreshRequest<T>(
  fields: Partial<PrayerRequestRecord>,
  runIt: (id: string) => Promise<T>,
): Promise<T> {
  const { id } = await newRequest(fields, {
    user: users.member.id,
    person: users.member.personId!,
    name: `Mary Member ${run}`,
  });
  try {
    return await runIt(id);
  } finally {
    await su
      .collection("prayer_requests")
      .delete(id)
      .catch(() => undefined);
  }
}

const marker = () => `Marker ${randomUUID()}`;

/** Runs `runIt` with the church's public prayer wall turned off (settings.prayerPublicWall), then on again. */
async function withPublicWallOff<T>(runIt: () => Promise<T>): Promise<T> {
  const settings = (await su.collection("settings").getFullList())[0]!;
  await su.collection("settings").update(settings.id, { prayerPublicWall: false });
  try {
    return await runIt();
  } finally {
    await su.collection("settings").update(settings.id, { prayerPublicWall: true });
  }
}
/** A new request's body as a persona would send it. */
function askBody(persona: Persona, fields: Record<string, unknown>) {
  const body = `Please pray for this ${marker()}`;
  return {
    body: {
      body,
      visibility: "public",
      anonymous: true,
      authorName: "",
      status: "pending",
      prayedCount: 0,
      flagCount: 0,
      answerNote: "",
      rejectReason: "",
      ...fields,
    },
    filter: `body = "${body}"`,
    name: persona === "anonymous" ? "A Visitor" : NAMES[persona],
  };
}
/** A mark as the persona would make it: their account, or for a visitor a device key. */
const ownMark = (persona: Persona, request: string) =>
  persona === "anonymous"
    ? { request, user: "", deviceKey: deviceKey(), day: today() }
    : { request, user: users[persona].id, deviceKey: "", day: today() };
const markFilter = (request: string) => `request = "${request}"`;

type WriteCheck = Check<Persona>;

const REST_WRITES: { [C in WriteCollection]: Record<keyof (typeof WRITE)[C], WriteCheck> } = {
  prayer_requests: {
    async "ask: public, anonymous, pending"(p, e) {
      const { body, filter } = askBody(p, {});
      await checkCreate(p, e, "prayer_requests", body, filter);
    },
    async "ask: public under the account's own name"(p, e) {
      const ask = askBody(p, {});
      await checkCreate(
        p,
        e,
        "prayer_requests",
        { ...ask.body, anonymous: false, authorName: ask.name },
        ask.filter,
      );
    },
    async "ask: under someone else's name"(p, e) {
      const { body, filter } = askBody(p, { anonymous: false, authorName: "Someone Else Entirely" });
      await checkCreate(p, e, "prayer_requests", body, filter);
    },
    async "ask: members-only"(p, e) {
      const { body, filter } = askBody(p, { visibility: "members" });
      await checkCreate(p, e, "prayer_requests", body, filter);
    },
    async "ask: pastoral"(p, e) {
      const { body, filter } = askBody(p, { visibility: "pastoral" });
      await checkCreate(p, e, "prayer_requests", body, filter);
    },
    async "ask: already approved (approval is required)"(p, e) {
      const { body, filter } = askBody(p, { status: "approved" });
      await checkCreate(p, e, "prayer_requests", body, filter);
    },
    async "ask: with a prayed count"(p, e) {
      const { body, filter } = askBody(p, { prayedCount: 500 });
      await checkCreate(p, e, "prayer_requests", body, filter);
    },
    async "ask: with flags, an answer or a reject reason"(p, e) {
      for (const extra of [{ flagCount: 2 }, { answerNote: "Answered already" }, { rejectReason: "Spam" }]) {
        const { body, filter } = askBody(p, extra);
        await checkCreate(p, e, "prayer_requests", body, filter);
      }
    },
    "approve a public pending request": (p, e) =>
      withFreshRequest({ status: "pending" }, (id) =>
        checkUpdate(p, e, "prayer_requests", id, { status: "approved" }),
      ),
    "edit the text of a public pending request": (p, e) =>
      withFreshRequest({ status: "pending" }, (id) =>
        checkUpdate(p, e, "prayer_requests", id, { body: `Corrected text ${run}` }),
      ),
    "approve a pastoral pending request": (p, e) =>
      withFreshRequest({ status: "pending", visibility: "pastoral" }, (id) =>
        checkUpdate(p, e, "prayer_requests", id, { status: "approved" }),
      ),
    "move a public request to pastoral": (p, e) =>
      withFreshRequest({ status: "pending" }, (id) =>
        checkUpdate(p, e, "prayer_requests", id, { visibility: "pastoral" }),
      ),
    "member's approved request: mark answered": (p, e) =>
      withFreshRequest({}, (id) =>
        checkUpdate(p, e, "prayer_requests", id, { status: "answered", answerNote: "Thank you all" }),
      ),
    "member's pending request: mark answered": (p, e) =>
      withFreshRequest({ status: "pending" }, (id) =>
        checkUpdate(p, e, "prayer_requests", id, { status: "answered", answerNote: "Thank you all" }),
      ),
    "member's request: answer and set prayedCount": (p, e) =>
      withFreshRequest({}, (id) =>
        checkUpdate(p, e, "prayer_requests", id, { status: "answered", prayedCount: 999 }),
      ),
    "member's request: answer and change visibility": (p, e) =>
      withFreshRequest({}, (id) =>
        checkUpdate(p, e, "prayer_requests", id, { status: "answered", visibility: "members" }),
      ),
    "member's request: answer and reveal the author": (p, e) =>
      withFreshRequest({ anonymous: true, authorName: "" }, (id) =>
        checkUpdate(p, e, "prayer_requests", id, { status: "answered", anonymous: false }),
      ),
    "someone's request: set prayedCount": (p, e) =>
      withFreshRequest({}, (id) => checkUpdate(p, e, "prayer_requests", id, { prayedCount: 999 })),
    "delete a public request": (p, e) =>
      withFreshRequest({}, (id) => checkDelete(p, e, "prayer_requests", id)),
    "delete a pastoral request": (p, e) =>
      withFreshRequest({ visibility: "pastoral" }, (id) => checkDelete(p, e, "prayer_requests", id)),
  },
  prayer_request_private: {
    async "claim a request as one's own"(p, e) {
      // A request without a private row (as a visitor's REST create would leave it).
      const { id } = await newRequest({}, null);
      try {
        const self = userOf(p);
        await checkCreate(
          p,
          e,
          "prayer_request_private",
          { request: id, user: self?.id ?? "", submitterName: "Me" },
          `request = "${id}"`,
          403,
        );
      } finally {
        await su.collection("prayer_requests").delete(id);
      }
    },
    "re-point a visitor's row at oneself": (p, e) =>
      checkUpdate(
        p,
        e,
        "prayer_request_private",
        privates.visitorApprovedAnon,
        { user: userOf(p)?.id ?? users.member.id },
        403,
      ),
    delete: (p, e) => checkDelete(p, e, "prayer_request_private", privates.visitorPendingNamed, 403),
  },
  prayer_marks: {
    "pray for a public request (own account / device)": (p, e) =>
      withFreshRequest({}, (id) => checkCreate(p, e, "prayer_marks", ownMark(p, id), markFilter(id))),
    "pray for a members-only request": (p, e) =>
      withFreshRequest({ visibility: "members" }, (id) =>
        checkCreate(p, e, "prayer_marks", ownMark(p, id), markFilter(id)),
      ),
    "pray for a public request, public wall off": (p, e) =>
      withPublicWallOff(() =>
        withFreshRequest({}, (id) => checkCreate(p, e, "prayer_marks", ownMark(p, id), markFilter(id))),
      ),
    // Reads of prayer_requests, kept with the marks because the same rule decides both.
    "view a public request, public wall off": (p, e) =>
      withPublicWallOff(() =>
        withFreshRequest({}, async (id) => {
          expect(await restStatus(() => rest(p).collection("prayer_requests").getOne(id))).toBe(
            e === A ? 200 : 404,
          );
          const seen = await gql(p).execute(AuthzPrayerRequestDocument, { id });
          expect(seen.data?.prayerRequest?.id ?? null).toBe(e === A ? id : null);
        }),
      ),
    "list public requests, public wall off": (p, e) =>
      withPublicWallOff(() =>
        withFreshRequest({}, async (id) => {
          const listed = await rest(p)
            .collection("prayer_requests")
            .getList(1, 1, { filter: `id = "${id}"` });
          expect(listed.items.map((r) => r.id)).toEqual(e === A ? [id] : []);
          const wall = await gql(p).execute(AuthzPrayerWallDocument);
          expect(wall.data!.prayerWall.edges.some((edge) => edge.node.id === id)).toBe(e === A);
        }),
      ),
    "pray for a pastoral request": (p, e) =>
      withFreshRequest({ visibility: "pastoral" }, (id) =>
        checkCreate(p, e, "prayer_marks", ownMark(p, id), markFilter(id)),
      ),
    "pray for a pending request": (p, e) =>
      withFreshRequest({ status: "pending" }, (id) =>
        checkCreate(p, e, "prayer_marks", ownMark(p, id), markFilter(id)),
      ),
    // For a visitor: a guest claiming a member's account; for the member: the other member's.
    "pray as someone else (their user id)": (p, e) =>
      withFreshRequest({}, (id) =>
        checkCreate(
          p,
          e,
          "prayer_marks",
          {
            request: id,
            user: p === "member" ? users.otherMember.id : users.member.id,
            deviceKey: "",
            day: today(),
          },
          markFilter(id),
        ),
      ),
    "pray with both a user id and a device key": (p, e) =>
      withFreshRequest({}, (id) =>
        checkCreate(
          p,
          e,
          "prayer_marks",
          { request: id, user: userOf(p)?.id ?? users.member.id, deviceKey: deviceKey(), day: today() },
          markFilter(id),
        ),
      ),
    "pray on a made-up day": (p, e) =>
      withFreshRequest({}, (id) =>
        checkCreate(p, e, "prayer_marks", { ...ownMark(p, id), day: "2001-01-01" }, markFilter(id)),
      ),
    update: (p, e) => checkUpdate(p, e, "prayer_marks", marks.member, { day: "2001-01-02" }, 403),
    delete: (p, e) => checkDelete(p, e, "prayer_marks", marks.otherMember, 403),
  },
  prayer_flags: {
    "flag a public request on the wall": (p, e) =>
      withFreshRequest({}, (id) =>
        checkCreate(
          p,
          e,
          "prayer_flags",
          { request: id, user: userOf(p)?.id ?? "", reason: "check" },
          markFilter(id),
        ),
      ),
    "flag a pending request": (p, e) =>
      withFreshRequest({ status: "pending" }, (id) =>
        checkCreate(
          p,
          e,
          "prayer_flags",
          { request: id, user: userOf(p)?.id ?? "", reason: "check" },
          markFilter(id),
        ),
      ),
    "flag a pastoral request": (p, e) =>
      withFreshRequest({ visibility: "pastoral" }, (id) =>
        checkCreate(
          p,
          e,
          "prayer_flags",
          { request: id, user: userOf(p)?.id ?? "", reason: "check" },
          markFilter(id),
        ),
      ),
    "flag as someone else": (p, e) =>
      withFreshRequest({}, (id) =>
        checkCreate(
          p,
          e,
          "prayer_flags",
          { request: id, user: p === "member" ? users.otherMember.id : users.member.id, reason: "check" },
          markFilter(id),
        ),
      ),
    "change a flag": (p, e) => checkUpdate(p, e, "prayer_flags", flags.member, { reason: "changed" }, 403),
    "delete member's flag": (p, e) =>
      withFreshRequest({}, async (id) => {
        const flag = await su
          .collection("prayer_flags")
          .create({ request: id, user: users.member.id, reason: "check" });
        await checkDelete(p, e, "prayer_flags", flag.id);
      }),
  },
  notifications: {
    async "create for oneself"(p, e) {
      const title = marker();
      await checkCreate(
        p,
        e,
        "notifications",
        { user: userOf(p)?.id ?? "", kind: "prayer_approved", title, count: 1 },
        `title = "${title}"`,
        403,
      );
    },
    "mark own read": (p, e) =>
      withFreshNotification(p, (id) =>
        checkUpdate(p, e, "notifications", id, { readAt: "2026-01-02 03:04:05.000Z" }),
      ),
    "mark member's read": (p, e) =>
      withFreshNotification("member", (id) =>
        checkUpdate(p, e, "notifications", id, { readAt: "2026-01-02 03:04:05.000Z" }),
      ),
    "change own count or title": (p, e) =>
      withFreshNotification(p, async (id) => {
        await checkUpdate(p, e, "notifications", id, { count: 99 });
        await checkUpdate(p, e, "notifications", id, {
          readAt: "2026-01-02 03:04:05.000Z",
          title: "Changed",
        });
      }),
    "hand own to another user": (p, e) =>
      withFreshNotification(p, (id) => checkUpdate(p, e, "notifications", id, { user: users.admin.id })),
    "delete own": (p, e) => withFreshNotification(p, (id) => checkDelete(p, e, "notifications", id)),
    "delete member's": (p, e) =>
      withFreshNotification("member", (id) => checkDelete(p, e, "notifications", id)),
  },
};

/** A notification of `owner` (a visitor "owns" the member's) made for one check, removed afterwards. */
async function withFreshNotification(owner: Persona, runIt: (id: string) => Promise<void>): Promise<void> {
  const user = userOf(owner) ?? users.member;
  const row = await su
    .collection("notifications")
    .create({ user: user.id, kind: "prayer_prayed", title: "Fresh", count: 1 });
  try {
    await runIt(row.id);
  } finally {
    await su
      .collection("notifications")
      .delete(row.id)
      .catch(() => undefined);
  }
}

// ─── REST: reads ─────────────────────────────────────────────────────────────────────────────────
describe("every cell has an expectation and a check", () => {
  it("covers every persona for every read target and write", () => {
    for (const table of [...Object.values(READ), ...Object.values(WRITE)]) {
      for (const byPersona of Object.values(table as Record<string, Cells>))
        expect(Object.keys(byPersona).sort()).toEqual([...PERSONAS].sort());
    }
    for (const collection of Object.keys(WRITE) as WriteCollection[]) {
      expect(Object.keys(REST_WRITES[collection]).sort()).toEqual(Object.keys(WRITE[collection]).sort());
    }
  });
});

describe.each(READ_COLLECTIONS)("%s through PocketBase: list and view", (collection) => {
  it.each(PERSONAS)("list as %s shows exactly the allowed targets", async (persona) => {
    const keyOf = new Map(Object.keys(READ[collection]).map((key) => [targetId(collection, key), key]));
    const ids = [...keyOf.keys()];
    const pb = rest(persona);
    const filter = ids.map((id) => pb.filter("id = {:id}", { id })).join(" || ");
    const status = await restStatus(() => pb.collection(collection).getFullList({ filter }));
    expect(status).toBe(200);
    const rows = await pb.collection(collection).getFullList({ filter, fields: "id" });
    expect(rows.map((r) => keyOf.get(r.id)!).sort()).toEqual(allowedTargets(collection, persona));
  });

  const rows = Object.entries(READ[collection] as Record<string, Cells>).flatMap(([key, byPersona]) =>
    PERSONAS.map((persona) => ({ key, persona, expected: byPersona[persona] })),
  );
  it.each(rows)("view $key as $persona → $expected", async ({ key, persona, expected }) => {
    expect(
      await restStatus(() => rest(persona).collection(collection).getOne(targetId(collection, key))),
    ).toBe(expected === A ? 200 : 404);
  });
});

describe("who asked never leaks through a request's relations", () => {
  it.each(PERSONAS)(
    "expanding or filtering on the private row as %s reveals only what the private table allows",
    async (persona) => {
      const pb = rest(persona);
      const anonymousOnWall = requests.publicApprovedAnon;
      const expanded = await pb
        .collection("prayer_requests")
        .getOne(anonymousOnWall, { expand: "prayer_request_private_via_request" });
      const sees = READ.prayer_request_private.publicApprovedAnon[persona] === A;
      expect(!!expanded.expand?.prayer_request_private_via_request).toBe(sees);
      // Guessing the name through a filter finds nothing unless the caller may read the private row.
      const guessed = await pb.collection("prayer_requests").getList(1, 5, {
        filter: pb.filter("id = {:id} && prayer_request_private_via_request.submitterName ~ {:name}", {
          id: anonymousOnWall,
          name: "Secretive",
        }),
      });
      expect(guessed.totalItems).toBe(sees ? 1 : 0);
    },
  );
});

// ─── REST: writes ────────────────────────────────────────────────────────────────────────────────
// The write table (./authorization-table.ts). The GraphQL operations are not one-to-one with these rows:
// they have their own table below (GQL_WRITES), with the code each persona gets.
describeAuthorizationTable({
  personas: PERSONAS,
  table: WRITE,
  rest: REST_WRITES,
  gaps: {
    graphql: 'the gateway\'s prayer operations have their own table (GQL_WRITES, "writes through GraphQL")',
  },
  title: "writes",
});

// ─── Realtime ────────────────────────────────────────────────────────────────────────────────────
describeRealtimeColumn({
  personas: PERSONAS,
  collections: READ_COLLECTIONS,
  targetKeys: (collection) => Object.keys(READ[collection]),
  targetId,
  allowedTargets,
  client: rest,
  su: () => su,
});

// ─── GraphQL ─────────────────────────────────────────────────────────────────────────────────────
type GqlRequest = {
  id: string;
  authorName: string | null;
  requester: { name: string; email: string | null } | null;
  isMine: boolean;
  flaggedByMe: boolean;
} | null;
const REQUEST_FIELDS = "id authorName requester { name email } isMine flaggedByMe";

/** What each persona sees through GraphQL, read once: every fixture request by id (aliases), as raw JSON too. */
const snapshots = new Map<Persona, { requests: Record<string, GqlRequest>; raw: string }>();
async function snapshotOf(persona: Persona) {
  const cached = snapshots.get(persona);
  if (cached) return cached;
  // A few requests per query: the gateway allows GRAPHQL_LIMITS.maxAliases aliases in one.
  const entries = Object.entries(requests);
  const seen: Record<string, GqlRequest> = {};
  for (let i = 0; i < entries.length; i += 10) {
    const query = `{ ${entries
      .slice(i, i + 10)
      .map(([key, id]) => `${key}: prayerRequest(id: "${id}") { ${REQUEST_FIELDS} }`)
      .join(" ")} }`;
    const result = await gql(persona).request<Record<string, GqlRequest>>(query);
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    Object.assign(seen, result.data);
  }
  const snapshot = { requests: seen, raw: JSON.stringify(seen) };
  snapshots.set(persona, snapshot);
  return snapshot;
}

describe("prayer_requests through GraphQL: view (prayerRequest)", () => {
  const rows = Object.entries(READ.prayer_requests as Record<string, Cells>).flatMap(([key, byPersona]) =>
    PERSONAS.map((persona) => ({ key, persona, expected: byPersona[persona] })),
  );
  it.each(rows)("view $key as $persona → $expected", async ({ key, persona, expected }) => {
    const seen = (await snapshotOf(persona)).requests[key];
    expect(seen?.id ?? null).toBe(expected === A ? requests[key as RequestKey] : null);
  });
});

describe("prayer_request_private through GraphQL: PrayerRequest.requester", () => {
  const rows = Object.entries(READ.prayer_request_private as Record<string, Cells>).flatMap(
    ([key, byPersona]) => PERSONAS.map((persona) => ({ key, persona, expected: byPersona[persona] })),
  );
  it.each(rows)("requester of $key as $persona → $expected", async ({ key, persona, expected }) => {
    const seen = (await snapshotOf(persona)).requests[key];
    expect(!!seen?.requester).toBe(expected === A);
    if (seen?.requester)
      expect(seen.requester.name).toBe(
        (await su.collection("prayer_request_private").getOne(privates[key as keyof typeof privates]))
          .submitterName,
      );
  });

  it.each(PERSONAS)(
    "an anonymous request's identity never appears for %s unless pastoral staff or the requester",
    async (persona) => {
      const { raw, requests: seen } = await snapshotOf(persona);
      const mayKnow =
        persona === "otherMember" || READ.prayer_request_private.visitorApprovedAnon[persona] === A;
      expect(raw.includes(SECRET_NAME) || raw.includes(SECRET_EMAIL)).toBe(mayKnow);
      for (const key of Object.keys(requests).filter((k) => k.endsWith("Anon")))
        expect(seen[key]?.authorName ?? null).toBeNull();
    },
  );
});

type RequestPage = {
  edges: Array<{ node: { id: string } }>;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
};
/** Every id of a request list (all pages: other files' requests may come first), or the error code. */
async function allPages(
  persona: Persona,
  field: "prayerWall" | "prayerQueue" | "myPrayerRequests",
): Promise<{ ids: Set<string>; code?: string }> {
  const ids = new Set<string>();
  let after: string | null = null;
  for (let page = 0; page < 50; page++) {
    const result: GqlResult<Record<string, RequestPage>> = await gql(persona).request<
      Record<string, RequestPage>
    >(
      `query($after: String) { ${field}(first: 100, after: $after) { edges { node { id } } pageInfo { hasNextPage endCursor } } }`,
      { after },
    );
    if (result.errors) return { ids, code: errorCode(result) };
    const connection = result.data![field]!;
    for (const edge of connection.edges) ids.add(edge.node.id);
    if (!connection.pageInfo.hasNextPage) break;
    after = connection.pageInfo.endCursor;
  }
  return { ids };
}
const keysIn = (ids: Set<string>) =>
  (Object.entries(requests) as Array<[RequestKey, string]>)
    .filter(([, id]) => ids.has(id))
    .map(([key]) => key)
    .sort();

describe("lists through GraphQL", () => {
  // The wall: approved and answered, never pastoral, whoever looks (pastoral staff see pastoral ones in the queue).
  const PUBLIC_WALL: RequestKey[] = [
    "publicApprovedNamed",
    "publicAnsweredNamed",
    "publicApprovedAnon",
    "publicAnsweredAnon",
    "visitorApprovedAnon",
  ];
  const MEMBERS_WALL: RequestKey[] = [
    ...PUBLIC_WALL,
    "membersApprovedNamed",
    "membersAnsweredNamed",
    "membersApprovedAnon",
    "membersAnsweredAnon",
  ];
  const WALL: Record<Persona, RequestKey[]> = {
    anonymous: PUBLIC_WALL,
    pending: PUBLIC_WALL,
    member: MEMBERS_WALL,
    otherMember: MEMBERS_WALL,
    editor: MEMBERS_WALL,
    careTeam: MEMBERS_WALL,
    moderator: MEMBERS_WALL,
    pastor: MEMBERS_WALL,
    admin: MEMBERS_WALL,
  };

  it.each(PERSONAS)("the wall as %s", async (persona) => {
    const { ids, code } = await allPages(persona, "prayerWall");
    expect(code).toBeUndefined();
    expect(keysIn(ids)).toEqual([...WALL[persona]].sort());
  });

  // The queue (pending): moderators; pastoral ones for pastoral staff only.
  const QUEUE: Record<Persona, "UNAUTHENTICATED" | "FORBIDDEN" | RequestKey[]> = {
    anonymous: "UNAUTHENTICATED",
    pending: "FORBIDDEN",
    member: "FORBIDDEN",
    otherMember: "FORBIDDEN",
    editor: "FORBIDDEN",
    careTeam: [
      "publicPendingNamed",
      "membersPendingNamed",
      "pastoralPendingNamed",
      "publicPendingAnon",
      "membersPendingAnon",
      "pastoralPendingAnon",
      "visitorPendingNamed",
    ],
    moderator: [
      "publicPendingNamed",
      "membersPendingNamed",
      "publicPendingAnon",
      "membersPendingAnon",
      "visitorPendingNamed",
    ],
    pastor: [
      "publicPendingNamed",
      "membersPendingNamed",
      "pastoralPendingNamed",
      "publicPendingAnon",
      "membersPendingAnon",
      "pastoralPendingAnon",
      "visitorPendingNamed",
    ],
    admin: [
      "publicPendingNamed",
      "membersPendingNamed",
      "pastoralPendingNamed",
      "publicPendingAnon",
      "membersPendingAnon",
      "pastoralPendingAnon",
      "visitorPendingNamed",
    ],
  };
  it.each(PERSONAS)("the moderation queue as %s", async (persona) => {
    const { ids, code } = await allPages(persona, "prayerQueue");
    const expected = QUEUE[persona];
    if (typeof expected === "string") {
      expect(code).toBe(expected);
    } else {
      expect(code).toBeUndefined();
      // Other files' requests may wait in the queue too: compare within this world.
      expect(keysIn(ids)).toEqual([...expected].sort());
    }
  });

  // Own requests: the requester's, through their private rows.
  // Read when the test runs: the world is built in beforeAll.
  const askedBy = (suffix: string) =>
    Object.keys(requests).filter((k) => k.endsWith(suffix) && !k.startsWith("visitor"));
  it.each(PERSONAS)("my requests as %s", async (persona) => {
    const { ids, code } = await allPages(persona, "myPrayerRequests");
    if (persona === "anonymous") {
      expect(code).toBe("UNAUTHENTICATED");
      return;
    }
    expect(code).toBeUndefined();
    const mine = persona === "member" ? askedBy("Named") : persona === "otherMember" ? askedBy("Anon") : [];
    expect(keysIn(ids)).toEqual([...mine].sort());
  });

  it.each(PERSONAS)("notifications as %s: only their own", async (persona) => {
    const result = await gql(persona).execute(AuthzNotificationsDocument);
    if (persona === "anonymous") {
      expect(errorCode(result)).toBe("UNAUTHENTICATED");
      return;
    }
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    const fixtureIds = new Map(Object.entries(notifications).map(([owner, id]) => [id, owner]));
    const got = (result.data?.notifications.edges ?? [])
      .map((e) => fixtureIds.get(e.node.id))
      .filter(Boolean);
    expect(got).toEqual(allowedTargets("notifications", persona));
  });
});

// GraphQL writes where an operation exists. Outcomes per persona: "ok" or the error code.
type Outcome = "ok" | "UNAUTHENTICATED" | "FORBIDDEN" | "NOT_FOUND" | "CONFLICT" | "BAD_USER_INPUT";
type Outcomes = CellsOf<Persona, Outcome>;
const outcomes = columns(PERSONAS).cells<Outcome>;

const GQL_WRITES: Record<
  string,
  { outcomes: Outcomes; check: (persona: Persona, expected: Outcome) => Promise<void> }
> = {
  // Staff who may not moderate are refused; a moderator without view_pastoral cannot find a pastoral request.
  "approvePrayerRequest (public pending)": {
    outcomes: outcomes(
      "UNAUTHENTICATED",
      "FORBIDDEN",
      "FORBIDDEN",
      "FORBIDDEN",
      "FORBIDDEN",
      "ok",
      "ok",
      "ok",
      "ok",
    ),
    check: (p, e) =>
      withFreshRequest({ status: "pending" }, (id) =>
        gqlWrite(
          p,
          e,
          `mutation($id: ID!) { approvePrayerRequest(id: $id) { id } }`,
          { id },
          id,
          "status",
          "approved",
        ),
      ),
  },
  "approvePrayerRequest (pastoral pending)": {
    outcomes: outcomes(
      "UNAUTHENTICATED",
      "FORBIDDEN",
      "FORBIDDEN",
      "FORBIDDEN",
      "FORBIDDEN",
      "ok",
      "NOT_FOUND",
      "ok",
      "ok",
    ),
    check: (p, e) =>
      withFreshRequest({ status: "pending", visibility: "pastoral" }, (id) =>
        gqlWrite(
          p,
          e,
          `mutation($id: ID!) { approvePrayerRequest(id: $id) { id } }`,
          { id },
          id,
          "status",
          "approved",
        ),
      ),
  },
  "rejectPrayerRequest (public pending)": {
    outcomes: outcomes(
      "UNAUTHENTICATED",
      "FORBIDDEN",
      "FORBIDDEN",
      "FORBIDDEN",
      "FORBIDDEN",
      "ok",
      "ok",
      "ok",
      "ok",
    ),
    check: (p, e) =>
      withFreshRequest({ status: "pending" }, (id) =>
        gqlWrite(
          p,
          e,
          `mutation($id: ID!) { rejectPrayerRequest(id: $id, reason: "Duplicate") { id } }`,
          { id },
          id,
          "status",
          "rejected",
        ),
      ),
  },
  "editPrayerRequest (public pending)": {
    outcomes: outcomes(
      "UNAUTHENTICATED",
      "FORBIDDEN",
      "FORBIDDEN",
      "FORBIDDEN",
      "FORBIDDEN",
      "ok",
      "ok",
      "ok",
      "ok",
    ),
    check: (p, e) =>
      withFreshRequest({ status: "pending" }, (id) =>
        gqlWrite(
          p,
          e,
          `mutation($id: ID!) { editPrayerRequest(id: $id, body: "Fixed the typos in this one") { id } }`,
          { id },
          id,
          "body",
          "Fixed the typos in this one",
        ),
      ),
  },
  // The requester (the member) marks their request answered, and so may moderators (a praise report
  // shared in person); other members who can see it are refused.
  "markPrayerAnswered (member's approved public request)": {
    outcomes: outcomes(
      "UNAUTHENTICATED",
      "FORBIDDEN",
      "ok",
      "FORBIDDEN",
      "FORBIDDEN",
      "ok",
      "ok",
      "ok",
      "ok",
    ),
    check: (p, e) =>
      withFreshRequest({}, (id) =>
        gqlWrite(
          p,
          e,
          `mutation($id: ID!) { markPrayerAnswered(id: $id, note: "God is good") { id } }`,
          { id },
          id,
          "status",
          "answered",
        ),
      ),
  },
  "prayFor (public approved)": {
    outcomes: outcomes("ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"),
    check: (p, e) =>
      withFreshRequest({}, (id) =>
        gqlWrite(p, e, `mutation($id: ID!) { prayFor(id: $id) { id } }`, { id }, id, "prayedCount", 1),
      ),
  },
  "prayFor (members-only approved)": {
    outcomes: outcomes("NOT_FOUND", "NOT_FOUND", "ok", "ok", "ok", "ok", "ok", "ok", "ok"),
    check: (p, e) =>
      withFreshRequest({ visibility: "members" }, (id) =>
        gqlWrite(p, e, `mutation($id: ID!) { prayFor(id: $id) { id } }`, { id }, id, "prayedCount", 1),
      ),
  },
  "prayFor (public pending)": {
    outcomes: outcomes(
      "NOT_FOUND",
      "NOT_FOUND",
      "CONFLICT",
      "NOT_FOUND",
      "NOT_FOUND",
      "CONFLICT",
      "CONFLICT",
      "CONFLICT",
      "CONFLICT",
    ),
    check: (p, e) =>
      withFreshRequest({ status: "pending" }, (id) =>
        gqlWrite(p, e, `mutation($id: ID!) { prayFor(id: $id) { id } }`, { id }, id, "prayedCount", 1),
      ),
  },
  "flagPrayerRequest (public approved)": {
    outcomes: outcomes("UNAUTHENTICATED", "FORBIDDEN", "ok", "ok", "ok", "ok", "ok", "ok", "ok"),
    check: (p, e) =>
      withFreshRequest({}, (id) =>
        gqlWrite(
          p,
          e,
          `mutation($id: ID!) { flagPrayerRequest(id: $id, reason: "check") { id } }`,
          { id },
          id,
          "flagCount",
          1,
        ),
      ),
  },
  "submitPrayerRequest (members-only)": {
    outcomes: outcomes("ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"),
    async check(p, e) {
      const body = `Members-only request ${marker()}`;
      const result = await gql(p).request(
        `mutation($input: PrayerRequestInput!) { submitPrayerRequest(input: $input) { id } }`,
        {
          input: { body, visibility: "MEMBERS", anonymous: true, email: "visitor@test.example" },
        },
      );
      const written = await su
        .collection("prayer_requests")
        .getFullList({ filter: su.filter("body = {:b}", { b: body }) });
      try {
        expectOutcome(result, e);
        expect(written.length).toBe(e === "ok" ? 1 : 0);
      } finally {
        for (const row of written) await su.collection("prayer_requests").delete(row.id);
      }
    },
  },
  "markNotificationRead (member's)": {
    outcomes: outcomes(
      "UNAUTHENTICATED",
      "NOT_FOUND",
      "ok",
      "NOT_FOUND",
      "NOT_FOUND",
      "NOT_FOUND",
      "NOT_FOUND",
      "NOT_FOUND",
      "NOT_FOUND",
    ),
    check: (p, e) =>
      withFreshNotification("member", async (id) => {
        const result = await gql(p).request(`mutation($id: ID!) { markNotificationRead(id: $id) { id } }`, {
          id,
        });
        expectOutcome(result, e);
        expect((await su.collection("notifications").getOne(id)).readAt !== "").toBe(e === "ok");
      }),
  },
  "markAllNotificationsRead (touches only the caller's)": {
    outcomes: outcomes("UNAUTHENTICATED", "ok", "ok", "ok", "ok", "ok", "ok", "ok", "ok"),
    check: (p, e) =>
      withFreshNotification(p === "member" ? "otherMember" : "member", async (othersId) => {
        const result = await gql(p).request(`mutation { markAllNotificationsRead }`);
        expectOutcome(result, e);
        expect((await su.collection("notifications").getOne(othersId)).readAt).toBe("");
      }),
  },
};

function expectOutcome(
  result: { errors?: unknown[] | undefined } & Parameters<typeof errorCode>[0],
  expected: Outcome,
) {
  if (expected === "ok") expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  else expect(errorCode(result), JSON.stringify(result.errors)).toBe(expected);
}

/** A GraphQL write on a request: ok → `field` became `value`; refused → the code and `field` unchanged. */
async function gqlWrite(
  persona: Persona,
  expected: Outcome,
  query: string,
  variables: Record<string, unknown>,
  id: string,
  field: string,
  value: unknown,
) {
  const before = await su.collection("prayer_requests").getOne(id);
  const result = await gql(persona).request(query, variables);
  const after = await su.collection("prayer_requests").getOne(id);
  expectOutcome(result, expected);
  expect(after[field]).toEqual(expected === "ok" ? value : before[field]);
}

describeAuthorizationTable<Persona, Outcome>({
  personas: PERSONAS,
  table: {
    prayer: Object.fromEntries(
      Object.entries(GQL_WRITES).map(([operation, { outcomes: byPersona }]) => [operation, byPersona]),
    ),
  },
  graphql: {
    prayer: Object.fromEntries(
      Object.entries(GQL_WRITES).map(([operation, { check }]) => [operation, check]),
    ),
  },
  gaps: { rest: "the gateway's operations: their PocketBase rows are the REST write table (WRITE)" },
  title: "writes through GraphQL",
});

// ─── Required refusals (issue 5) ─────────────────────────────────────────────────────────────────
describe("required refusals (issue 5)", () => {
  it("a visitor cannot read pending or members-only requests", async () => {
    for (const key of [
      "publicPendingNamed",
      "membersApprovedNamed",
      "membersApprovedAnon",
      "visitorPendingNamed",
    ] as const) {
      expect(
        await restStatus(() => rest("anonymous").collection("prayer_requests").getOne(requests[key])),
      ).toBe(404);
      expect((await snapshotOf("anonymous")).requests[key]).toBeNull();
    }
  });

  it("nobody but pastoral staff and the requester can read prayer_request_private", async () => {
    for (const persona of PERSONAS) {
      const rows = await rest(persona)
        .collection("prayer_request_private")
        .getFullList({ filter: `request.body ~ "${run}"`, fields: "id,user" });
      const pastoral = persona === "careTeam" || persona === "pastor" || persona === "admin";
      if (pastoral) expect(rows.length).toBe(Object.keys(requests).length);
      else expect(rows.every((r) => r.user === userOf(persona)?.id)).toBe(true);
    }
  });

  it("a member cannot read another user's notifications or mark them read", async () => {
    await withFreshNotification("otherMember", async (id) => {
      expect(await restStatus(() => rest("member").collection("notifications").getOne(id))).toBe(404);
      expect(
        await restStatus(() =>
          rest("member").collection("notifications").update(id, { readAt: "2026-01-01 00:00:00.000Z" }),
        ),
      ).toBe(404);
      expect(
        errorCode(
          await gql("member").request(`mutation($id: ID!) { markNotificationRead(id: $id) { id } }`, { id }),
        ),
      ).toBe("NOT_FOUND");
      const list = await gql("member").execute(AuthzNotificationsDocument);
      expect(list.data!.notifications.edges.map((e) => e.node.id)).not.toContain(id);
      expect((await su.collection("notifications").getOne(id)).readAt).toBe("");
    });
  });

  it("a member cannot set prayedCount directly (not even on their own request)", async () => {
    for (const id of [requests.publicApprovedNamed, requests.publicApprovedAnon]) {
      const before = (await su.collection("prayer_requests").getOne(id)).prayedCount as number;
      expect(
        await restStatus(() =>
          rest("member")
            .collection("prayer_requests")
            .update(id, { prayedCount: before + 100 }),
        ),
      ).toBe(404);
      expect(
        await restStatus(() =>
          rest("member").collection("prayer_requests").update(id, { "prayedCount+": 100 }),
        ),
      ).toBe(404);
      expect((await su.collection("prayer_requests").getOne(id)).prayedCount).toBe(before);
    }
  });

  it("a guest cannot create a mark with a user id", async () => {
    await withFreshRequest({}, async (id) => {
      for (const user of [users.member.id, users.otherMember.id]) {
        expect(
          await restStatus(() =>
            rest("anonymous")
              .collection("prayer_marks")
              .create({ request: id, user, deviceKey: "", day: today() }),
          ),
        ).toBe(400);
        expect(
          await restStatus(() =>
            rest("anonymous")
              .collection("prayer_marks")
              .create({ request: id, user, deviceKey: deviceKey(), day: today() }),
          ),
        ).toBe(400);
      }
      expect(await su.collection("prayer_marks").getFullList({ filter: markFilter(id) })).toEqual([]);
    });
  });

  it("made-up days cannot raise the count: one mark per user per day, only around today", async () => {
    await withFreshRequest({}, async (id) => {
      const member = rest("member");
      expect(
        await restStatus(() =>
          member.collection("prayer_marks").create({ request: id, user: users.member.id, day: today() }),
        ),
      ).toBe(200);
      expect(
        await restStatus(() =>
          member.collection("prayer_marks").create({ request: id, user: users.member.id, day: today() }),
        ),
      ).toBe(400);
      for (const day of ["2001-01-01", "2099-12-31", "2026-02-30x"]) {
        expect(
          await restStatus(() =>
            member.collection("prayer_marks").create({ request: id, user: users.member.id, day }),
          ),
        ).toBe(400);
      }
      expect((await su.collection("prayer_requests").getOne(id)).prayedCount).toBe(1);
    });
  });
});
