/**
 * QUALITY.md S1 for people and households (issue 4): persona × collection × operation, every cell an
 * explicit expectation, checked directly against PocketBase's REST API, realtime and the file API
 * (the API rules in pb_migrations/1732200000_people.js are the authorization) and through GraphQL.
 *
 * Personas (columns): anonymous, pending (signed up, person pending), member (household A, listed),
 * otherMember (household B, listed), householdAdult (household A, opted out of the directory),
 * editor (content rights; household E, which opted out), careTeam (people.view), pastor
 * (people.manage), admin. Two personas of S1 cannot act here: the child of another household (B) has a
 * record but no login, so it appears as a *target* (`otherChild`). The member leads a group the other
 * member belongs to, so the other member's "leaders" and "groups" rows open to the member (and to no
 * other persona without staff rights); the groups table (authorization-groups.int.test.ts) checks
 * plain co-members, children and leaders of other groups.
 *
 * Reads are one table per collection (target × persona). The same table drives four checks: list
 * (the persona's list, restricted to the fixture targets, is exactly the allowed targets), view
 * (getOne: 200 or 404), realtime (a `*` subscription receives a change to exactly those targets —
 * PocketBase checks the list rule per event) and GraphQL. Writes have their own table.
 * The world is described in people-fixtures.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ClientResponseError, type RecordModel } from "pocketbase";
import type PocketBase from "pocketbase";
import { EventSource } from "eventsource";
import type { Gateway } from "../src/index.ts";
import {
  createUser,
  errorCode,
  GqlClient,
  pbAs,
  pngBytes,
  restStatus,
  system,
  testGateway,
  uniqueEmail,
  type GqlResult,
  pbUrl,
} from "./helpers.ts";
import {
  AuthzCreateChildDocument,
  AuthzDirectoryMembersDocument,
  AuthzHouseholdDocument,
  AuthzHouseholdMembersDocument,
  AuthzPersonDocument,
  AuthzPersonIdDocument,
  AuthzPersonPhonesDocument,
  AuthzVisitRequestsDocument,
  type AuthzHouseholdQuery,
  type AuthzPersonQuery,
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
import {
  assertWorldShape,
  buildPeopleWorld,
  CONTACT_ROWS,
  HOUSEHOLDS,
  PERSONAS,
  targetLogin,
  tokenHash,
  uniquePhone,
  yearsAgo,
  type ADDRESSES,
  type ContactRowKey,
  type HouseholdKey,
  type INVITATIONS,
  type Persona,
  type PeopleWorld,
  type PersonKey,
  type PHOTO_HOUSEHOLDS,
  type PHOTO_PEOPLE,
} from "./people-fixtures.ts";

// The PocketBase SDK's realtime needs an EventSource (Node 20 has none).
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

type Expected = Verdict;
type Cells = CellsOf<Persona>;
/** Columns: anonymous, pending, member, otherMember, householdAdult, editor, careTeam, pastor, admin. */
const { cells } = columns(PERSONAS);

// ─── Reads: who may list, view, receive in realtime (and, for photos, download) each target ───────────
// Emails and phones share one table: same rule, same owners and visibilities (people-fixtures CONTACT_ROWS).
const CONTACT_READ = {
  memberPrivate: /*        */ cells(D, D, A, D, A, D, A, A, A),
  memberMembers: /*        */ cells(D, D, A, A, A, A, A, A, A),
  spouseMembers: /*        */ cells(D, D, A, D, A, D, A, A, A), // the spouse opted out: "members" reaches only the household
  childMembers: /*         */ cells(D, D, A, D, A, D, A, A, A), // children are never listed
  otherMemberPrivate: /*   */ cells(D, D, D, A, D, D, A, A, A),
  otherMemberLeaders: /*   */ cells(D, D, A, A, D, D, A, A, A), // the member leads the other member's group
  otherMemberGroups: /*    */ cells(D, D, A, A, D, D, A, A, A), // …and shares it; the member's spouse does not
  otherMemberMembers: /*   */ cells(D, D, A, A, A, A, A, A, A),
  otherChildMembers: /*    */ cells(D, D, D, A, D, D, A, A, A),
  pendingMembers: /*       */ cells(D, A, D, D, D, D, A, A, A), // a pending person is not listed
  editorMembers: /*        */ cells(D, D, D, D, D, A, A, A, A), // the editor's household opted out
} satisfies Record<keyof typeof CONTACT_ROWS, Cells>;

const READ = {
  people: {
    pending: /*      */ cells(D, A, D, D, D, D, A, A, A),
    member: /*       */ cells(D, D, A, A, A, A, A, A, A),
    spouse: /*       */ cells(D, D, A, D, A, D, A, A, A),
    ownChild: /*     */ cells(D, D, A, D, A, D, A, A, A),
    otherMember: /*  */ cells(D, D, A, A, A, A, A, A, A),
    otherChild: /*   */ cells(D, D, D, A, D, D, A, A, A),
    editor: /*       */ cells(D, D, D, D, D, A, A, A, A),
    archived: /*     */ cells(D, D, D, D, D, D, A, A, A),
  },
  households: {
    A: /*            */ cells(D, D, A, A, A, A, A, A, A),
    B: /*            */ cells(D, D, A, A, A, A, A, A, A),
    E: /*            */ cells(D, D, D, D, D, A, A, A, A), // opted out
    X: /*            */ cells(D, D, D, D, D, D, A, A, A), // nobody listed in it
  },
  // The full birth date: the person, their household and staff — never "members".
  person_private: {
    member: /*       */ cells(D, D, A, D, A, D, A, A, A),
    spouse: /*       */ cells(D, D, A, D, A, D, A, A, A),
    ownChild: /*     */ cells(D, D, A, D, A, D, A, A, A),
    otherMember: /*  */ cells(D, D, D, A, D, D, A, A, A),
    otherChild: /*   */ cells(D, D, D, A, D, D, A, A, A),
    pending: /*      */ cells(D, A, D, D, D, D, A, A, A),
    listedMembers: /**/ cells(D, D, D, D, D, D, A, A, A),
  },
  person_emails: CONTACT_READ,
  person_phones: CONTACT_READ,
  person_birthdays: {
    member: /*       */ cells(D, D, A, D, A, D, A, A, A), // private
    spouse: /*       */ cells(D, D, A, D, A, D, A, A, A), // members, but opted out
    ownChild: /*     */ cells(D, D, A, D, A, D, A, A, A), // members, but a child
    otherMember: /*  */ cells(D, D, A, A, A, A, A, A, A), // members
    otherChild: /*   */ cells(D, D, D, A, D, D, A, A, A),
    pending: /*      */ cells(D, A, D, D, D, D, A, A, A),
    editor: /*       */ cells(D, D, D, D, D, A, A, A, A),
    listedPrivate: /**/ cells(D, D, D, D, D, D, A, A, A),
    listedLeaders: /**/ cells(D, D, D, D, D, D, A, A, A),
    listedGroups: /* */ cells(D, D, D, D, D, D, A, A, A),
    listedMembers: /**/ cells(D, D, A, A, A, A, A, A, A),
  },
  addresses: {
    A: /*            */ cells(D, D, A, D, A, D, A, A, A), // private
    E: /*            */ cells(D, D, D, D, D, A, A, A, A), // members, household opted out
    X: /*            */ cells(D, D, D, D, D, D, A, A, A), // members, household not listed
    Vprivate: /*     */ cells(D, D, D, D, D, D, A, A, A),
    Vleaders: /*     */ cells(D, D, D, D, D, D, A, A, A),
    Vgroups: /*      */ cells(D, D, D, D, D, D, A, A, A),
    Vmembers: /*     */ cells(D, D, A, A, A, A, A, A, A),
  },
  // Invitations: the household and people managers (people.view alone does not show them).
  household_invitations: {
    A: /*            */ cells(D, D, A, D, A, D, D, A, A),
    B: /*            */ cells(D, D, D, A, D, D, D, A, A),
  },
  visit_requests: {
    request: /*      */ cells(D, D, D, D, D, D, A, A, A),
  },
} as const;
type ReadCollection = keyof typeof READ;

// Protected photos: a file token of a persona who may view the record.
const DOWNLOAD = {
  people: {
    member: /*       */ cells(D, D, A, A, A, A, A, A, A),
    spouse: /*       */ cells(D, D, A, D, A, D, A, A, A),
    ownChild: /*     */ cells(D, D, A, D, A, D, A, A, A),
    otherMember: /*  */ cells(D, D, A, A, A, A, A, A, A),
    otherChild: /*   */ cells(D, D, D, A, D, D, A, A, A),
  },
  households: {
    A: /*            */ cells(D, D, A, A, A, A, A, A, A),
    B: /*            */ cells(D, D, A, A, A, A, A, A, A),
    E: /*            */ cells(D, D, D, D, D, A, A, A, A),
    X: /*            */ cells(D, D, D, D, D, D, A, A, A),
  },
} satisfies {
  people: Record<(typeof PHOTO_PEOPLE)[number], Cells>;
  households: Record<(typeof PHOTO_HOUSEHOLDS)[number], Cells>;
};

// ─── Writes ──────────────────────────────────────────────────────────────────────────────────────
// Person rows (emails, phones, birthdays) share their rules; each collection still has its own checks.
const PERSON_ROW_WRITE = {
  "create for a new child of member's household": /*     */ cells(D, D, A, D, A, D, D, A, A),
  "create for a new adult of member's household": /*     */ cells(D, D, D, D, D, D, D, A, A), // adults keep their own details
  "create for a new child of other member's household": cells(D, D, D, A, D, D, D, A, A),
  "update member's row": /*                              */ cells(D, D, A, D, D, D, D, A, A),
  "update member's child's row": /*                      */ cells(D, D, A, D, A, D, D, A, A),
  "update other member's members-visible row": /*        */ cells(D, D, D, A, D, D, D, A, A),
  "move member's row to another person": /*              */ cells(D, D, D, D, D, D, D, A, A),
  "delete a row of a new child of member's household": /**/ cells(D, D, A, D, A, D, D, A, A),
  "delete a row of a new adult of member's household": /**/ cells(D, D, D, D, D, D, D, A, A),
};
const WRITE = {
  people: {
    "create a child in own household (member's)": /*       */ cells(D, D, A, D, A, D, D, A, A),
    "create a child in other member's household": /*       */ cells(D, D, D, A, D, D, D, A, A),
    "create an adult in member's household": /*            */ cells(D, D, D, D, D, D, D, A, A),
    "create a child with a membership status": /*          */ cells(D, D, D, D, D, D, D, A, A),
    "create a pending person without household": /*        */ cells(D, D, D, D, D, D, D, A, A),
    "update own name": /*                                  */ cells(D, A, A, A, A, A, A, A, A),
    "update member's name": /*                             */ cells(D, D, A, D, D, D, D, A, A),
    "update member's directory opt-out": /*                */ cells(D, D, A, D, D, D, D, A, A),
    "update member's child": /*                            */ cells(D, D, A, D, A, D, D, A, A),
    "update other member's child": /*                      */ cells(D, D, D, A, D, D, D, A, A),
    "update own status, membership, household, role, merge": cells(D, D, D, D, D, D, D, A, A),
    "delete member": /*                                    */ cells(D, D, D, D, D, D, D, D, D), // archive instead
  },
  households: {
    create: /*                                             */ cells(D, D, D, D, D, D, D, A, A),
    "update member's household": /*                        */ cells(D, D, A, D, A, D, D, A, A),
    "update other member's household": /*                  */ cells(D, D, D, A, D, D, D, A, A),
    "set inDirectory": /*                                  */ cells(D, D, D, D, D, D, D, A, A), // and pb_hooks override it
    "delete a household": /*                               */ cells(D, D, D, D, D, D, D, A, A),
  },
  person_private: {
    "create for a new child of member's household": /*     */ cells(D, D, A, D, A, D, D, A, A),
    "create for a new adult of member's household": /*     */ cells(D, D, D, D, D, D, D, A, A),
    "create for a new child of other member's household": cells(D, D, D, A, D, D, D, A, A),
    "update member's birth date": /*                       */ cells(D, D, A, D, D, D, D, A, A),
    "update member's child's birth date": /*               */ cells(D, D, A, D, A, D, D, A, A),
    "move member's row to another person": /*              */ cells(D, D, D, D, D, D, D, A, A),
    "delete a row of a new child of member's household": /**/ cells(D, D, A, D, A, D, D, A, A),
  },
  person_emails: {
    "create for self": /*                                  */ cells(D, A, A, A, A, A, A, A, A),
    ...PERSON_ROW_WRITE,
  },
  person_phones: {
    "create for self": /*                                  */ cells(D, A, A, A, A, A, A, A, A),
    ...PERSON_ROW_WRITE,
  },
  person_birthdays: PERSON_ROW_WRITE,
  addresses: {
    "create for other member's household": /*              */ cells(D, D, D, A, D, D, D, A, A),
    "create for a new household": /*                       */ cells(D, D, D, D, D, D, D, A, A),
    "update member's household address": /*                */ cells(D, D, A, D, A, D, D, A, A),
    "update a members-visible address of a stranger": /*   */ cells(D, D, D, D, D, D, D, A, A),
    "move member's address to another household": /*       */ cells(D, D, D, D, D, D, D, A, A),
    "delete other member's household address": /*          */ cells(D, D, D, A, D, D, D, A, A),
  },
  household_invitations: {
    "invite to member's household": /*                     */ cells(D, D, A, D, A, D, D, A, A),
    "invite to other member's household": /*               */ cells(D, D, D, A, D, D, D, A, A),
    "invite as someone else": /*                           */ cells(D, D, D, D, D, D, D, A, A),
    "create an already accepted invitation": /*            */ cells(D, D, D, D, D, D, D, A, A),
    "revoke an invitation of member's household": /*       */ cells(D, D, A, D, A, D, D, A, A),
    "change the email of member's household invitation": /**/ cells(D, D, D, D, D, D, D, A, A),
    delete: /*                                             */ cells(D, D, D, D, D, D, D, D, D),
  },
  visit_requests: {
    "plan a visit": /*                                     */ cells(A, A, A, A, A, A, A, A, A),
    "plan a visit with a staff note": /*                   */ cells(D, D, D, D, D, D, D, D, D),
    "plan a visit already contacted": /*                   */ cells(D, D, D, D, D, D, D, D, D),
    "plan a visit linked to a person": /*                  */ cells(D, D, D, D, D, D, D, D, D),
    update: /*                                             */ cells(D, D, D, D, D, D, D, A, A),
    delete: /*                                             */ cells(D, D, D, D, D, D, D, A, A),
  },
  // The people.manage abilities on logins (roles, status, email stay with account managers).
  users: {
    "link a login to a person": /*                         */ cells(D, D, D, D, D, D, D, A, A),
    "link own login to another person": /*                 */ cells(D, D, D, D, D, D, D, A, A),
    "delete the login of an archived person": /*           */ cells(D, D, D, D, D, D, D, A, A),
    "delete the login of an active person": /*            */ cells(D, D, D, D, D, D, D, D, D),
    "delete the login of an archived staff member": /*     */ cells(D, D, D, D, D, D, D, D, A), // roles.manage only
  },
} satisfies Record<string, Record<string, Cells>>;
type WriteCollection = keyof typeof WRITE;

// ─── The world and the actors ────────────────────────────────────────────────────────────────────
let gateway: Gateway;
let su: PocketBase;
let world: PeopleWorld;

const rest = (persona: Persona) => pbAs(world.users[persona]);
const gql = (persona: Persona) =>
  new GqlClient(gateway, {
    token: world.users[persona]?.token,
    ip: `198.51.100.${PERSONAS.indexOf(persona) + 1}`,
  });
/** The persona's own person; the anonymous visitor "acts on" the member's instead. */
const ownPerson = (persona: Persona) => world.users[persona]?.personId ?? world.person.member;

function targetId(collection: ReadCollection, key: string): string {
  const byCollection: Record<ReadCollection, Record<string, string | undefined>> = {
    people: world.person,
    households: world.household,
    person_private: world.privates,
    person_emails: world.emails,
    person_phones: world.phones,
    person_birthdays: world.birthdays,
    addresses: world.addresses,
    household_invitations: world.invitations,
    visit_requests: { request: world.visitRequest },
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

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  world = await buildPeopleWorld();
  // The cells below assume these derived values (pb_hooks): fail here, loudly, if they drift.
  expect(await assertWorldShape(world)).toEqual({
    pending: "adult",
    member: "adult listed",
    spouse: "adult",
    ownChild: "child",
    otherMember: "adult listed",
    otherChild: "child",
    editor: "adult",
    archived: "adult",
    careTeam: "adult",
    pastor: "adult",
    admin: "adult",
    listedPrivate: "adult listed",
    listedLeaders: "adult listed",
    listedGroups: "adult listed",
    listedMembers: "adult listed",
    "household A": "listed",
    "household B": "listed",
    "household E": "unlisted",
    "household X": "unlisted",
    "household Vprivate": "listed",
    "household Vleaders": "listed",
    "household Vgroups": "listed",
    "household Vmembers": "listed",
  });
});

afterAll(async () => {
  await gateway?.close();
});

// ─── REST write helpers ──────────────────────────────────────────────────────────────────────────
async function attempt(run: () => Promise<RecordModel | boolean>): Promise<{ status: number; id?: string }> {
  try {
    const result = await run();
    return { status: 200, id: typeof result === "object" ? result.id : undefined };
  } catch (error) {
    if (error instanceof ClientResponseError) return { status: error.status };
    throw error;
  }
}

/** Create: allowed → 200 and the row exists; refused → 400 and nothing was written. Cleans up. */
async function checkCreate(
  persona: Persona,
  expected: Expected,
  collection: string,
  body: Record<string, unknown>,
  marker: string,
) {
  const result = await attempt(() => rest(persona).collection(collection).create(body));
  const written = await su.collection(collection).getFullList({ filter: marker });
  try {
    expect(result.status).toBe(expected === A ? 200 : 400);
    expect(written.map((r) => r.id)).toEqual(expected === A ? [result.id] : []);
  } finally {
    for (const row of written) await su.collection(collection).delete(row.id);
  }
}

const sameValue = (actual: unknown, wanted: unknown) =>
  typeof wanted === "string" && /^\d{4}-\d{2}-\d{2}$/.test(wanted) && typeof actual === "string"
    ? actual.slice(0, 10) === wanted
    : actual === wanted;

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
      expect(
        sameValue(after[key], expected === A ? value : before[key]),
        `${key}: ${String(after[key])}`,
      ).toBe(true);
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

/** A person made for one check (no membership: never listed), removed with its rows afterwards. */
async function withFreshPerson<T>(
  fields: Record<string, unknown>,
  run: (id: string) => Promise<T>,
): Promise<T> {
  const person = await su
    .collection("people")
    .create({ firstName: "Fresh", lastName: "Person", recordStatus: "active", ...fields });
  try {
    return await run(person.id);
  } finally {
    await su.collection("people").delete(person.id);
  }
}
const newChildOf = (household: string) => ({ household, householdRole: "child" });
const newAdultOf = (household: string) => ({ household, householdRole: "other" });

/**
 * Re-point a row at another person (a fresh one: unique indexes stay satisfied, and what pb_hooks add
 * for it goes with it). An allowed move is undone before the fresh person is removed.
 */
const moveToFreshPerson = (persona: Persona, expected: Expected, collection: string, id: string) =>
  withFreshPerson({}, (person) => checkUpdate(persona, expected, collection, id, { person }));

type RowCollection = "person_emails" | "person_phones" | "person_birthdays";
/** A new row of `collection` for `person` (body for create checks and for fixtures of delete checks). */
function rowBody(
  collection: RowCollection,
  person: string,
): { body: Record<string, unknown>; marker: string } {
  if (collection === "person_emails") {
    const email = uniqueEmail("row");
    return { body: { person, email, visibility: "private" }, marker: `email = "${email}"` };
  }
  if (collection === "person_phones") {
    const number = uniquePhone();
    return { body: { person, number, kind: "home", visibility: "private" }, marker: `number = "${number}"` };
  }
  return { body: { person, month: 2, day: 29, visibility: "private" }, marker: `person = "${person}"` };
}
/** A harmless change for an update check, per collection. */
const ROW_CHANGE: Record<RowCollection, Record<string, unknown>> = {
  person_emails: { isPrimary: true },
  person_phones: { kind: "work" },
  person_birthdays: { day: 28 },
};
/** The fixture row of `owner` in `collection` with the wanted visibility. */
function rowOf(
  collection: RowCollection,
  owner: "member" | "ownChild" | "otherMember",
  visibility: "private" | "members",
): string {
  if (collection === "person_birthdays") {
    // One birthday per person: the member's is private, the children's and the other member's "members".
    return world.birthdays[owner];
  }
  const key =
    owner === "member"
      ? visibility === "private"
        ? "memberPrivate"
        : "memberMembers"
      : owner === "ownChild"
        ? "childMembers"
        : "otherMemberMembers";
  return (collection === "person_emails" ? world.emails : world.phones)[key];
}

type WriteCheck = Check<Persona>;

function personRowChecks(collection: RowCollection): Record<string, WriteCheck> {
  const createFor = async (persona: Persona, expected: Expected, person: string) => {
    const { body, marker } = rowBody(collection, person);
    await checkCreate(persona, expected, collection, body, marker);
  };
  const deleteFor = async (persona: Persona, expected: Expected, fields: Record<string, unknown>) =>
    withFreshPerson(fields, async (person) => {
      const row = await su.collection(collection).create(rowBody(collection, person).body);
      await checkDelete(persona, expected, collection, row.id);
    });
  const checks: Record<keyof typeof PERSON_ROW_WRITE, WriteCheck> = {
    "create for a new child of member's household": (p, e) =>
      withFreshPerson(newChildOf(world.household.A), (id) => createFor(p, e, id)),
    "create for a new adult of member's household": (p, e) =>
      withFreshPerson(newAdultOf(world.household.A), (id) => createFor(p, e, id)),
    "create for a new child of other member's household": (p, e) =>
      withFreshPerson(newChildOf(world.household.B), (id) => createFor(p, e, id)),
    "update member's row": (p, e) =>
      checkUpdate(p, e, collection, rowOf(collection, "member", "private"), ROW_CHANGE[collection]),
    "update member's child's row": (p, e) =>
      checkUpdate(p, e, collection, rowOf(collection, "ownChild", "members"), ROW_CHANGE[collection]),
    "update other member's members-visible row": (p, e) =>
      checkUpdate(p, e, collection, rowOf(collection, "otherMember", "members"), ROW_CHANGE[collection]),
    "move member's row to another person": (p, e) =>
      moveToFreshPerson(p, e, collection, rowOf(collection, "member", "private")),
    "delete a row of a new child of member's household": (p, e) =>
      deleteFor(p, e, newChildOf(world.household.A)),
    "delete a row of a new adult of member's household": (p, e) =>
      deleteFor(p, e, newAdultOf(world.household.A)),
  };
  if (collection === "person_birthdays") return checks;
  return { "create for self": (p, e) => createFor(p, e, ownPerson(p)), ...checks };
}

const invitationBody = (household: string, invitedBy: string, extra: Record<string, unknown> = {}) => {
  const email = uniqueEmail("invite");
  return {
    body: {
      household,
      email,
      name: "Invited",
      tokenHash: tokenHash(),
      invitedBy,
      status: "pending",
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
      ...extra,
    },
    marker: `email = "${email}"`,
  };
};
const personMarker = () => `Marker${Math.random().toString(36).slice(2, 10)}`;

const REST_WRITES: { [C in WriteCollection]: Record<keyof (typeof WRITE)[C], WriteCheck> } = {
  people: {
    async "create a child in own household (member's)"(persona, expected) {
      const lastName = personMarker();
      await checkCreate(
        persona,
        expected,
        "people",
        {
          firstName: "New",
          lastName,
          household: world.household.A,
          householdRole: "child",
          recordStatus: "active",
        },
        `lastName = "${lastName}"`,
      );
    },
    async "create a child in other member's household"(persona, expected) {
      const lastName = personMarker();
      await checkCreate(
        persona,
        expected,
        "people",
        {
          firstName: "New",
          lastName,
          household: world.household.B,
          householdRole: "child",
          recordStatus: "active",
        },
        `lastName = "${lastName}"`,
      );
    },
    async "create an adult in member's household"(persona, expected) {
      const lastName = personMarker();
      await checkCreate(
        persona,
        expected,
        "people",
        {
          firstName: "New",
          lastName,
          household: world.household.A,
          householdRole: "spouse",
          recordStatus: "active",
        },
        `lastName = "${lastName}"`,
      );
    },
    async "create a child with a membership status"(persona, expected) {
      const lastName = personMarker();
      await checkCreate(
        persona,
        expected,
        "people",
        {
          firstName: "New",
          lastName,
          household: world.household.A,
          householdRole: "child",
          recordStatus: "active",
          membershipStatus: "member",
        },
        `lastName = "${lastName}"`,
      );
    },
    async "create a pending person without household"(persona, expected) {
      const lastName = personMarker();
      await checkCreate(
        persona,
        expected,
        "people",
        { firstName: "New", lastName, recordStatus: "pending" },
        `lastName = "${lastName}"`,
      );
    },
    "update own name": (p, e) => checkUpdate(p, e, "people", ownPerson(p), { preferredName: `Nick ${p}` }),
    "update member's name": (p, e) =>
      checkUpdate(p, e, "people", world.person.member, { preferredName: `Nick ${p}` }),
    "update member's directory opt-out": (p, e) =>
      checkUpdate(p, e, "people", world.person.member, { directoryOptOut: true }),
    "update member's child": (p, e) =>
      checkUpdate(p, e, "people", world.person.ownChild, { preferredName: `Nick ${p}` }),
    "update other member's child": (p, e) =>
      checkUpdate(p, e, "people", world.person.otherChild, { preferredName: `Nick ${p}` }),
    async "update own status, membership, household, role, merge"(persona, expected) {
      const attempts = [
        { recordStatus: "archived" },
        { membershipStatus: "inactive" },
        { household: world.household.B },
        { householdRole: "child" },
        { mergedInto: world.person.otherMember },
        { anonymizedAt: "2020-01-01 00:00:00.000Z" },
      ];
      for (const body of attempts) await checkUpdate(persona, expected, "people", ownPerson(persona), body);
    },
    "delete member": (p, e) => checkDelete(p, e, "people", world.person.member, 403),
  },
  households: {
    async create(persona, expected) {
      const name = personMarker();
      await checkCreate(persona, expected, "households", { name }, `name = "${name}"`);
    },
    "update member's household": (p, e) =>
      checkUpdate(p, e, "households", world.household.A, { name: `Adams ${p}` }),
    "update other member's household": (p, e) =>
      checkUpdate(p, e, "households", world.household.B, { name: `Brown ${p}` }),
    async "set inDirectory"(persona, expected) {
      // Allowed for people managers, but pb_hooks derive the value again: it never sticks.
      const status = await restStatus(() =>
        rest(persona).collection("households").update(world.household.X, { inDirectory: true }),
      );
      expect(status).toBe(expected === A ? 200 : 404);
      expect((await su.collection("households").getOne(world.household.X)).inDirectory).toBe(false);
    },
    async "delete a household"(persona, expected) {
      const household = await su.collection("households").create({ name: "Doomed" });
      try {
        await checkDelete(persona, expected, "households", household.id);
      } finally {
        if (expected === D) await su.collection("households").delete(household.id);
      }
    },
  },
  person_private: {
    "create for a new child of member's household": (p, e) =>
      withFreshPerson(newChildOf(world.household.A), (id) =>
        checkCreate(p, e, "person_private", { person: id, birthDate: yearsAgo(5) }, `person = "${id}"`),
      ),
    "create for a new adult of member's household": (p, e) =>
      withFreshPerson(newAdultOf(world.household.A), (id) =>
        checkCreate(p, e, "person_private", { person: id, birthDate: yearsAgo(30) }, `person = "${id}"`),
      ),
    "create for a new child of other member's household": (p, e) =>
      withFreshPerson(newChildOf(world.household.B), (id) =>
        checkCreate(p, e, "person_private", { person: id, birthDate: yearsAgo(5) }, `person = "${id}"`),
      ),
    // Same age group before and after: the change does not shift any derived value.
    "update member's birth date": (p, e) =>
      checkUpdate(p, e, "person_private", world.privates.member!, { birthDate: yearsAgo(41, "01-02") }),
    "update member's child's birth date": (p, e) =>
      checkUpdate(p, e, "person_private", world.privates.ownChild!, { birthDate: yearsAgo(7, "01-02") }),
    "move member's row to another person": (p, e) =>
      moveToFreshPerson(p, e, "person_private", world.privates.member!),
    "delete a row of a new child of member's household": (p, e) =>
      withFreshPerson(newChildOf(world.household.A), async (id) => {
        const row = await su.collection("person_private").create({ person: id, birthDate: yearsAgo(5) });
        await checkDelete(p, e, "person_private", row.id);
      }),
  },
  person_emails: personRowChecks("person_emails") as never,
  person_phones: personRowChecks("person_phones") as never,
  person_birthdays: personRowChecks("person_birthdays") as never,
  addresses: {
    async "create for other member's household"(persona, expected) {
      const street1 = personMarker();
      await checkCreate(
        persona,
        expected,
        "addresses",
        { household: world.household.B, street1, city: "Springfield", country: "US", visibility: "private" },
        `street1 = "${street1}"`,
      );
    },
    async "create for a new household"(persona, expected) {
      const household = await su.collection("households").create({ name: "Fresh" });
      try {
        const street1 = personMarker();
        await checkCreate(
          persona,
          expected,
          "addresses",
          { household: household.id, street1, city: "Springfield", country: "US", visibility: "private" },
          `street1 = "${street1}"`,
        );
      } finally {
        await su.collection("households").delete(household.id);
      }
    },
    "update member's household address": (p, e) =>
      checkUpdate(p, e, "addresses", world.addresses.A, { street2: `Flat ${p}` }),
    "update a members-visible address of a stranger": (p, e) =>
      checkUpdate(p, e, "addresses", world.addresses.Vmembers, { street2: `Flat ${p}` }),
    "move member's address to another household": (p, e) =>
      checkUpdate(p, e, "addresses", world.addresses.A, { household: world.household.B }),
    async "delete other member's household address"(persona, expected) {
      const address = await su.collection("addresses").create({
        household: world.household.B,
        street1: "2 Brown Street",
        city: "Springfield",
        country: "US",
        visibility: "members",
      });
      try {
        await checkDelete(persona, expected, "addresses", address.id);
      } finally {
        if (expected === D) await su.collection("addresses").delete(address.id);
      }
    },
  },
  household_invitations: {
    async "invite to member's household"(persona, expected) {
      const { body, marker } = invitationBody(world.household.A, ownPerson(persona));
      await checkCreate(persona, expected, "household_invitations", body, marker);
    },
    async "invite to other member's household"(persona, expected) {
      const { body, marker } = invitationBody(world.household.B, ownPerson(persona));
      await checkCreate(persona, expected, "household_invitations", body, marker);
    },
    async "invite as someone else"(persona, expected) {
      // For the household's adults: in the other adult's name; for everyone else: in the listed stranger's.
      const someoneElse =
        persona === "member"
          ? world.person.spouse
          : persona === "householdAdult"
            ? world.person.member
            : world.person.listedMembers;
      const { body, marker } = invitationBody(world.household.A, someoneElse);
      await checkCreate(persona, expected, "household_invitations", body, marker);
    },
    async "create an already accepted invitation"(persona, expected) {
      const { body, marker } = invitationBody(world.household.A, ownPerson(persona), { status: "accepted" });
      await checkCreate(persona, expected, "household_invitations", body, marker);
    },
    async "revoke an invitation of member's household"(persona, expected) {
      const invitation = await su
        .collection("household_invitations")
        .create(invitationBody(world.household.A, world.person.member).body);
      try {
        await checkUpdate(persona, expected, "household_invitations", invitation.id, { status: "revoked" });
      } finally {
        await su.collection("household_invitations").delete(invitation.id);
      }
    },
    async "change the email of member's household invitation"(persona, expected) {
      const invitation = await su
        .collection("household_invitations")
        .create(invitationBody(world.household.A, world.person.member).body);
      try {
        await checkUpdate(persona, expected, "household_invitations", invitation.id, {
          email: uniqueEmail("redirected"),
        });
      } finally {
        await su.collection("household_invitations").delete(invitation.id);
      }
    },
    delete: (p, e) => checkDelete(p, e, "household_invitations", world.invitations.A, 403),
  },
  visit_requests: {
    async "plan a visit"(persona, expected) {
      const email = uniqueEmail("visit");
      await checkCreate(
        persona,
        expected,
        "visit_requests",
        { name: "Guest", email, status: "new", partySize: 2 },
        `email = "${email}"`,
      );
    },
    async "plan a visit with a staff note"(persona, expected) {
      const email = uniqueEmail("visit");
      await checkCreate(
        persona,
        expected,
        "visit_requests",
        { name: "Guest", email, status: "new", staffNote: "VIP" },
        `email = "${email}"`,
      );
    },
    async "plan a visit already contacted"(persona, expected) {
      const email = uniqueEmail("visit");
      await checkCreate(
        persona,
        expected,
        "visit_requests",
        { name: "Guest", email, status: "contacted" },
        `email = "${email}"`,
      );
    },
    async "plan a visit linked to a person"(persona, expected) {
      const email = uniqueEmail("visit");
      await checkCreate(
        persona,
        expected,
        "visit_requests",
        { name: "Guest", email, status: "new", person: world.person.member },
        `email = "${email}"`,
      );
    },
    update: (p, e) =>
      checkUpdate(p, e, "visit_requests", world.visitRequest, {
        status: "contacted",
        staffNote: `Called by ${p}`,
      }),
    async delete(persona, expected) {
      const visit = await su
        .collection("visit_requests")
        .create({ name: "Doomed", email: uniqueEmail("visit"), status: "new" });
      try {
        await checkDelete(persona, expected, "visit_requests", visit.id);
      } finally {
        if (expected === D) await su.collection("visit_requests").delete(visit.id);
      }
    },
  },
  users: {
    async "link a login to a person"(persona, expected) {
      const login = await targetLogin({ person: "none" });
      await withFreshPerson({}, (person) => checkUpdate(persona, expected, "users", login.id, { person }));
      await su.collection("users").delete(login.id);
    },
    async "link own login to another person"(persona, expected) {
      // The visitor has no login: it tries the member's.
      const own = world.users[persona]?.id ?? world.users.member!.id;
      await checkUpdate(persona, expected, "users", own, { person: world.person.listedMembers });
    },
    async "delete the login of an archived person"(persona, expected) {
      const login = await targetLogin({ person: "archived" });
      await checkDelete(persona, expected, "users", login.id);
      if (expected === D) await su.collection("users").delete(login.id);
    },
    async "delete the login of an active person"(persona, expected) {
      const login = await targetLogin({ person: "active" });
      await checkDelete(persona, expected, "users", login.id);
      await su.collection("users").delete(login.id);
    },
    async "delete the login of an archived staff member"(persona, expected) {
      const login = await targetLogin({ person: "archived", roles: ["Administrator"] });
      await checkDelete(persona, expected, "users", login.id);
      if (expected === D) await su.collection("users").delete(login.id);
    },
  },
};

// ─── The matrix itself ───────────────────────────────────────────────────────────────────────────
describe("every cell has an expectation and a check", () => {
  it("covers every persona for every read target, download and write", () => {
    for (const table of [READ, DOWNLOAD, WRITE] as Array<Record<string, Record<string, Cells>>>) {
      for (const [collection, rows] of Object.entries(table)) {
        for (const [name, byPersona] of Object.entries(rows))
          expect(Object.keys(byPersona), `${collection} ${name}`).toEqual([...PERSONAS]);
      }
    }
    for (const [collection, operations] of Object.entries(WRITE)) {
      expect(Object.keys(REST_WRITES[collection as WriteCollection]).sort(), collection).toEqual(
        Object.keys(operations).sort(),
      );
    }
    for (const collection of Object.keys(READ) as ReadCollection[]) {
      for (const key of Object.keys(READ[collection]))
        expect(targetId(collection, key)).toMatch(/^[a-z0-9]{15}$/);
    }
  });
});

const READ_COLLECTIONS = Object.keys(READ) as ReadCollection[];

describe.each(READ_COLLECTIONS)("%s through PocketBase's REST API: list and view", (collection) => {
  const targets = () => Object.keys(READ[collection]);

  it.each(PERSONAS)(`list as %s → exactly the allowed targets`, async (persona) => {
    const ids = targets().map((key) => targetId(collection, key));
    const listed = await rest(persona)
      .collection(collection)
      .getFullList({ filter: ids.map((id) => `id = "${id}"`).join(" || ") });
    const keyOf = new Map(targets().map((key) => [targetId(collection, key), key]));
    expect(listed.map((row) => keyOf.get(row.id)).sort()).toEqual(allowedTargets(collection, persona));
  });

  const cellsOf = () =>
    Object.entries(READ[collection] as Record<string, Cells>).flatMap(([key, byPersona]) =>
      PERSONAS.map((persona) => ({ key, persona, expected: byPersona[persona] })),
    );
  it.each(cellsOf())("view $key as $persona → $expected", async ({ key, persona, expected }) => {
    expect(
      await restStatus(() => rest(persona).collection(collection).getOne(targetId(collection, key))),
    ).toBe(expected === A ? 200 : 404);
  });
});

describe("protected photos through PocketBase's file API (a file token of the persona)", () => {
  const rows = (["people", "households"] as const).flatMap((collection) =>
    Object.entries(DOWNLOAD[collection] as Record<string, Cells>).flatMap(([key, byPersona]) =>
      PERSONAS.map((persona) => ({ collection, key, persona, expected: byPersona[persona] })),
    ),
  );
  const tokens = new Map<Persona, string>();
  const fileUrl = (collection: "people" | "households", key: string) => {
    const id =
      collection === "people"
        ? world.person[key as PersonKey]
        : world.household[key as (typeof HOUSEHOLDS)[number]];
    const name =
      collection === "people"
        ? world.personPhoto[key as (typeof PHOTO_PEOPLE)[number]]
        : world.householdPhoto[key as (typeof PHOTO_HOUSEHOLDS)[number]];
    return `${pbUrl()}/api/files/${collection}/${id}/${name}`;
  };

  beforeAll(async () => {
    for (const persona of PERSONAS)
      if (world.users[persona]) tokens.set(persona, await rest(persona).files.getToken());
  });

  it("a visitor cannot get a file token", async () => {
    expect(await restStatus(() => rest("anonymous").files.getToken())).toBe(401);
  });

  it.each(rows)(
    "$collection $key photo as $persona → $expected",
    async ({ collection, key, persona, expected }) => {
      const token = tokens.get(persona);
      for (const query of ["", "thumb=96x96"]) {
        const search = new URLSearchParams(query);
        if (token) search.set("token", token);
        const response = await fetch(`${fileUrl(collection, key)}?${search}`);
        expect(response.status, query || "original").toBe(expected === A ? 200 : 404);
        if (expected === A) expect(response.headers.get("content-type")).toBe("image/png");
        if (expected === A && !query)
          expect(Buffer.from(await response.arrayBuffer()).equals(pngBytes())).toBe(true);
        else await response.arrayBuffer();
      }
    },
  );

  it("without a token even the household's own people get 404 (the files are protected)", async () => {
    const response = await fetch(fileUrl("households", "A"), {
      headers: { authorization: world.users.member!.token },
    });
    expect(response.status).toBe(404);
  });
});

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
// The gateway forwards the caller's token: a row PocketBase hides is absent (null or missing from a
// list), a hidden record answers NOT_FOUND to a write, a visible one the caller may not change FORBIDDEN.

// The static operations are in ./operations/authorization.graphql (typed by npm run codegen); the snapshot's
// aliased queries select the same fields (PERSON_FIELDS, HOUSEHOLD_FIELDS).
type GqlPerson = AuthzPersonQuery["person"];
type GqlHousehold = AuthzHouseholdQuery["household"];
const PERSON_QUERY = AuthzPersonDocument;
const HOUSEHOLD_QUERY = AuthzHouseholdDocument;

async function gqlPerson(persona: Persona, id: string): Promise<GqlPerson> {
  const result = await gql(persona).execute(PERSON_QUERY, { id });
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data!.person;
}
async function gqlHousehold(persona: Persona, id: string): Promise<GqlHousehold> {
  const result = await gql(persona).execute(HOUSEHOLD_QUERY, { id });
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  return result.data!.household;
}

/**
 * What each persona sees through GraphQL, read once: every fixture person (one request, one alias
 * each — within the gateway's alias limit) and every household, as a page would ask for them (the
 * gateway batches the related rows). The cells below then look up their target in it.
 */
interface GqlSnapshot {
  people: Record<string, GqlPerson>;
  households: Record<string, GqlHousehold>;
  visitRequests: string[] | "UNAUTHENTICATED" | "FORBIDDEN";
}
const snapshots = new Map<Persona, GqlSnapshot>();
const PERSON_FIELDS = "id birthDate birthday { month } emails { id } phones { id } photoUrl(size: ORIGINAL)";
const HOUSEHOLD_FIELDS = "id address { id } invitations { id } photoUrl(size: ORIGINAL)";

async function snapshotOf(persona: Persona): Promise<GqlSnapshot> {
  const cached = snapshots.get(persona);
  if (cached) return cached;
  const aliased = (ids: Record<string, string>, field: string, fields: string) =>
    `{ ${Object.entries(ids)
      .map(([key, id]) => `${key}: ${field}(id: "${id}") { ${fields} }`)
      .join(" ")} }`;
  const people = await gql(persona).request<Record<string, GqlPerson>>(
    aliased(world.person, "person", PERSON_FIELDS),
  );
  const households = await gql(persona).request<Record<string, GqlHousehold>>(
    aliased(world.household, "household", HOUSEHOLD_FIELDS),
  );
  for (const result of [people, households])
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  const visits = await gql(persona).execute(AuthzVisitRequestsDocument);
  const snapshot: GqlSnapshot = {
    people: people.data!,
    households: households.data!,
    visitRequests: visits.errors
      ? (errorCode(visits) as "UNAUTHENTICATED" | "FORBIDDEN")
      : visits.data!.visitRequests.edges.map((e) => e.node.id),
  };
  snapshots.set(persona, snapshot);
  return snapshot;
}

/** Whether `key` of `collection` reaches the persona through GraphQL. */
const GQL_READ: Record<ReadCollection, (seen: GqlSnapshot, key: string, persona: Persona) => boolean> = {
  people: (seen, key) => seen.people[key]?.id === world.person[key as PersonKey],
  households: (seen, key) => seen.households[key]?.id === world.household[key as HouseholdKey],
  person_private: (seen, key) => !!seen.people[key]?.birthDate,
  person_emails: (seen, key) =>
    !!seen.people[CONTACT_ROWS[key as ContactRowKey][0]]?.emails.some(
      (e) => e.id === world.emails[key as ContactRowKey],
    ),
  person_phones: (seen, key) =>
    !!seen.people[CONTACT_ROWS[key as ContactRowKey][0]]?.phones.some(
      (p) => p.id === world.phones[key as ContactRowKey],
    ),
  person_birthdays: (seen, key) => !!seen.people[key]?.birthday,
  addresses: (seen, key) =>
    seen.households[key]?.address?.id === world.addresses[key as keyof typeof ADDRESSES],
  household_invitations: (seen, key) =>
    !!seen.households[key]?.invitations.some(
      (i) => i.id === world.invitations[key as keyof typeof INVITATIONS],
    ),
  visit_requests: (seen, _key, persona) => {
    // Staff only: everyone else is refused outright (never an empty list that hides the refusal).
    if (typeof seen.visitRequests === "string") {
      expect(seen.visitRequests).toBe(persona === "anonymous" ? "UNAUTHENTICATED" : "FORBIDDEN");
      return false;
    }
    return seen.visitRequests.includes(world.visitRequest);
  },
};

describe.each(READ_COLLECTIONS)("%s through GraphQL: view", (collection) => {
  const rows = Object.entries(READ[collection] as Record<string, Cells>).flatMap(([key, byPersona]) =>
    PERSONAS.map((persona) => ({ key, persona, expected: byPersona[persona] })),
  );
  it.each(rows)("view $key as $persona → $expected", async ({ key, persona, expected }) => {
    expect(GQL_READ[collection](await snapshotOf(persona), key, persona)).toBe(expected === A);
  });
});

// Lists through GraphQL have their own shapes: the staff lists, and the directory (listed households
// and the members of each the caller may see). Every fixture name carries the world's `run` word.
type ListExpectation = "UNAUTHENTICATED" | "FORBIDDEN" | string[];
const ALL_PEOPLE = [
  "pending",
  "member",
  "spouse",
  "ownChild",
  "otherMember",
  "otherChild",
  "editor",
  "archived",
  "careTeam",
  "pastor",
  "admin",
  "listedPrivate",
  "listedLeaders",
  "listedGroups",
  "listedMembers",
].sort();
const ALL_HOUSEHOLDS = [...HOUSEHOLDS].sort();
const LISTED_STRANGERS = [
  "Vgroups:listedGroups",
  "Vleaders:listedLeaders",
  "Vmembers:listedMembers",
  "Vprivate:listedPrivate",
];
const STAFF_LIST = (all: string[]): Record<Persona, ListExpectation> => ({
  anonymous: "UNAUTHENTICATED",
  pending: "FORBIDDEN",
  member: "FORBIDDEN",
  otherMember: "FORBIDDEN",
  householdAdult: "FORBIDDEN",
  editor: "FORBIDDEN",
  careTeam: all,
  pastor: all,
  admin: all,
});
const GQL_LIST: Record<"people" | "households" | "directory", Record<Persona, ListExpectation>> = {
  people: STAFF_LIST(ALL_PEOPLE),
  households: STAFF_LIST(ALL_HOUSEHOLDS),
  // Directory cards show listed people only, whoever looks: children, opted-out people and opted-out
  // households never (their own household sees them on its household page, not in the directory).
  directory: {
    anonymous: "UNAUTHENTICATED",
    pending: "FORBIDDEN",
    member: /*         */ ["A:member", "B:otherMember", ...LISTED_STRANGERS].sort(),
    otherMember: /*    */ ["A:member", "B:otherMember", ...LISTED_STRANGERS].sort(),
    householdAdult: /* */ ["A:member", "B:otherMember", ...LISTED_STRANGERS].sort(),
    editor: /*         */ ["A:member", "B:otherMember", ...LISTED_STRANGERS].sort(),
    careTeam: /*       */ ["A:member", "B:otherMember", ...LISTED_STRANGERS].sort(),
    pastor: /*         */ ["A:member", "B:otherMember", ...LISTED_STRANGERS].sort(),
    admin: /*          */ ["A:member", "B:otherMember", ...LISTED_STRANGERS].sort(),
  },
};

describe("lists through GraphQL", () => {
  const keyOfPerson = () => new Map(Object.entries(world.person).map(([key, id]) => [id, key]));
  const keyOfHousehold = () => new Map(Object.entries(world.household).map(([key, id]) => [id, key]));
  const rows = (Object.keys(GQL_LIST) as Array<keyof typeof GQL_LIST>).flatMap((list) =>
    PERSONAS.map((persona) => ({ list, persona, expected: GQL_LIST[list][persona] })),
  );

  it.each(rows)("$list as $persona → $expected", async ({ list, persona, expected }) => {
    let got: string[] = [];
    let result: GqlResult;
    if (list === "people") {
      result = await gql(persona).request<{ people: { edges: Array<{ node: { id: string } }> } }>(
        `query($q: String) { people(first: 100, filter: { search: $q }) { edges { node { id } } } }`,
        { q: world.run },
      );
      got =
        (result.data as { people?: { edges: Array<{ node: { id: string } }> } } | null)?.people?.edges.map(
          (e) => keyOfPerson().get(e.node.id) ?? e.node.id,
        ) ?? [];
    } else if (list === "households") {
      result = await gql(persona).request(
        `query($q: String) { households(first: 100, search: $q) { edges { node { id } } } }`,
        { q: world.run },
      );
      got =
        (
          result.data as { households?: { edges: Array<{ node: { id: string } }> } } | null
        )?.households?.edges.map((e) => keyOfHousehold().get(e.node.id) ?? e.node.id) ?? [];
    } else {
      result = await gql(persona).request(
        `query($q: String) { directory(first: 100, search: $q) { edges { node { id members { id } } } } }`,
        { q: world.run },
      );
      const edges =
        (
          result.data as {
            directory?: { edges: Array<{ node: { id: string; members: Array<{ id: string }> } }> };
          } | null
        )?.directory?.edges ?? [];
      got = edges.flatMap((e) =>
        e.node.members.map(
          (m) => `${keyOfHousehold().get(e.node.id) ?? e.node.id}:${keyOfPerson().get(m.id) ?? m.id}`,
        ),
      );
    }
    if (typeof expected === "string") {
      expect(errorCode(result)).toBe(expected);
      expect(result.data).toBeNull();
    } else {
      expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
      expect(got.sort()).toEqual(expected);
    }
  });
});

describe("protected photos through GraphQL and the gateway's /files", () => {
  let base: string;
  beforeAll(async () => {
    base = await gateway.listen();
  });
  const rows = (["people", "households"] as const).flatMap((collection) =>
    Object.entries(DOWNLOAD[collection] as Record<string, Cells>).flatMap(([key, byPersona]) =>
      PERSONAS.map((persona) => ({ collection, key, persona, expected: byPersona[persona] })),
    ),
  );

  it.each(rows)(
    "$collection $key photo as $persona → $expected",
    async ({ collection, key, persona, expected }) => {
      const id =
        collection === "people" ? world.person[key as PersonKey] : world.household[key as HouseholdKey];
      const file =
        collection === "people"
          ? world.personPhoto[key as (typeof PHOTO_PEOPLE)[number]]
          : world.householdPhoto[key as (typeof PHOTO_HOUSEHOLDS)[number]];
      const path = `/files/${collection}/${id}/${file}`;
      const record = collection === "people" ? await gqlPerson(persona, id) : await gqlHousehold(persona, id);
      expect(record?.photoUrl ?? null).toBe(expected === A ? path : null);
      // The path is guessable: the gateway must still refuse it to those who may not see the record.
      const token = world.users[persona]?.token;
      const response = await fetch(`${base}${path}`, {
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      expect(response.status).toBe(expected === A ? 200 : 404);
      if (expected === A) expect(Buffer.from(await response.arrayBuffer()).equals(pngBytes())).toBe(true);
      else await response.arrayBuffer();
    },
  );
});

// GraphQL writes, where the gateway has a matching operation. Cells without one are listed (with the
// reason) in REST_ONLY; the coverage test below checks that every write cell is in exactly one place.
const REST_ONLY: Partial<Record<WriteCollection, Record<string, string>>> = {
  people: {
    "create a pending person without household": "createPerson always creates an active person",
    "delete member": "no operation deletes a person (archivePerson, mergePeople, anonymizePerson instead)",
  },
  households: {
    "set inDirectory": "derived: not in HouseholdInput",
    "delete a household": "no operation deletes a household",
  },
  person_private: { "move member's row to another person": "rows follow their person" },
  person_emails: { "move member's row to another person": "rows follow their person" },
  person_phones: { "move member's row to another person": "rows follow their person" },
  person_birthdays: { "move member's row to another person": "rows follow their person" },
  addresses: { "move member's address to another household": "an address follows its household" },
  household_invitations: {
    "invite as someone else": "the gateway records the caller as the inviter",
    "create an already accepted invitation": "invitations start pending",
    "change the email of member's household invitation": "no operation edits an invitation",
    delete: "invitations are revoked, not deleted",
  },
  visit_requests: {
    "plan a visit with a staff note": "VisitRequestInput has no staff note",
    "plan a visit already contacted": "VisitRequestInput has no status",
    "plan a visit linked to a person": "VisitRequestInput has no person",
    delete: "no operation deletes a visit request",
  },
  users: {
    "link own login to another person": "approveSignUp links pending sign-ups only",
    "delete the login of an active person": "anonymizePerson archives the person first (its purpose)",
  },
};

/**
 * The code a refused caller gets: visitors must sign in; a record they cannot see is NOT_FOUND. Writes
 * addressed by a row id look the row up first, so a visitor gets NOT_FOUND there (`rowFirst`).
 */
function refusal(persona: Persona, visibleTo: Cells | "permission", rowFirst = false): string {
  if (persona === "anonymous") return rowFirst ? "NOT_FOUND" : "UNAUTHENTICATED";
  if (visibleTo === "permission") return "FORBIDDEN";
  return visibleTo[persona] === A ? "FORBIDDEN" : "NOT_FOUND";
}
function expectGql(result: GqlResult, expected: Expected, refused: string) {
  if (expected === A) expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  else expect(errorCode(result), JSON.stringify(result.errors)).toBe(refused);
}

/** GraphQL update: allowed → no error and `fields` changed as `wanted` (then restored); refused → the code and nothing changed. */
async function gqlUpdate(
  persona: Persona,
  expected: Expected,
  target: { collection: string; id: string; wanted: Record<string, unknown> },
  query: string,
  variables: Record<string, unknown>,
  refused: string,
) {
  const before = await su.collection(target.collection).getOne(target.id);
  const result = await gql(persona).request(query, variables);
  const after = await su.collection(target.collection).getOne(target.id);
  const keys = Object.keys(target.wanted);
  try {
    expectGql(result, expected, refused);
    for (const key of keys)
      expect(
        sameValue(after[key], expected === A ? target.wanted[key] : before[key]),
        `${key}: ${String(after[key])}`,
      ).toBe(true);
  } finally {
    if (keys.some((key) => after[key] !== before[key]))
      await su
        .collection(target.collection)
        .update(target.id, Object.fromEntries(keys.map((k) => [k, before[k]])));
  }
}
/** GraphQL create: allowed → no error and one row matches `marker`; refused → the code and none. Cleans up. */
async function gqlCreate(
  persona: Persona,
  expected: Expected,
  collection: string,
  marker: string,
  query: string,
  variables: Record<string, unknown>,
  refused: string,
) {
  const result = await gql(persona).request(query, variables);
  const written = await su.collection(collection).getFullList({ filter: marker });
  try {
    expectGql(result, expected, refused);
    expect(written.length).toBe(expected === A ? 1 : 0);
  } finally {
    for (const row of written) await su.collection(collection).delete(row.id);
  }
}
/** GraphQL delete: allowed → gone; refused → the code and still there. */
async function gqlDelete(
  persona: Persona,
  expected: Expected,
  collection: string,
  id: string,
  query: string,
  variables: Record<string, unknown>,
  refused: string,
) {
  const result = await gql(persona).request(query, variables);
  expectGql(result, expected, refused);
  expect(await restStatus(() => su.collection(collection).getOne(id))).toBe(expected === A ? 404 : 200);
}

// Who can see the records the writes aim at (fresh people of household A are visible to it and staff).
const SEES_HOUSEHOLD_A = cells(D, D, A, D, A, D, A, A, A);
const SEES_HOUSEHOLD_B = cells(D, D, D, A, D, D, A, A, A);
const SEES_STAFF_ONLY = cells(D, D, D, D, D, D, A, A, A);
const SEES_LISTED = cells(D, D, A, A, A, A, A, A, A);
const SEES_SELF = cells(D, A, A, A, A, A, A, A, A);

const UPDATE_PERSON = `mutation($id: ID!, $input: PersonInput!) { updatePerson(id: $id, input: $input) { id } }`;
const CREATE_PERSON = `mutation($input: NewPersonInput!) { createPerson(input: $input) { id } }`;

function gqlPersonRowChecks(collection: RowCollection): Record<string, WriteCheck> {
  const isBirthday = collection === "person_birthdays";
  const kind = collection === "person_emails" ? "Email" : "Phone";
  const addQuery = `mutation($p: ID!, $input: ${kind}Input!) { add${kind}(personId: $p, input: $input) { id } }`;
  const input = () =>
    collection === "person_emails"
      ? { email: uniqueEmail("gql-row"), visibility: "PRIVATE" }
      : { number: uniquePhone(), visibility: "PRIVATE" };
  const markerOf = (value: Record<string, unknown>) =>
    collection === "person_emails" ? `email = "${value.email}"` : `number = "${value.number}"`;
  // Birthdays come from the birth date: creating one is giving a birth date, deleting one is clearing it.
  const createFor = async (persona: Persona, expected: Expected, person: string, visibleTo: Cells) => {
    if (isBirthday) {
      return gqlCreate(
        persona,
        expected,
        "person_birthdays",
        `person = "${person}"`,
        UPDATE_PERSON,
        { id: person, input: { birthDate: yearsAgo(9), birthdayVisibility: "MEMBERS" } },
        refusal(persona, visibleTo),
      );
    }
    const value = input();
    return gqlCreate(
      persona,
      expected,
      collection,
      markerOf(value),
      addQuery,
      { p: person, input: value },
      refusal(persona, visibleTo),
    );
  };
  const deleteFor = (
    persona: Persona,
    expected: Expected,
    fields: Record<string, unknown>,
    visibleTo: Cells,
  ) =>
    withFreshPerson(fields, async (person) => {
      if (isBirthday) {
        await su
          .collection("person_private")
          .create({ person, birthDate: fields.householdRole === "child" ? yearsAgo(9) : yearsAgo(30) });
        const row = await su.collection("person_birthdays").getFirstListItem(`person = "${person}"`);
        return gqlDelete(
          persona,
          expected,
          "person_birthdays",
          row.id,
          UPDATE_PERSON,
          { id: person, input: { birthDate: null } },
          refusal(persona, visibleTo),
        );
      }
      const row = await su.collection(collection).create(rowBody(collection, person).body);
      return gqlDelete(
        persona,
        expected,
        collection,
        row.id,
        `mutation($id: ID!) { remove${kind}(id: $id) }`,
        { id: row.id },
        refusal(persona, visibleTo, true),
      );
    });
  const update = async (
    persona: Persona,
    expected: Expected,
    rowId: string,
    owner: PersonKey,
    visibleTo: Cells,
  ) => {
    const row = await su.collection(collection).getOne(rowId);
    if (isBirthday) {
      const visibility = row.visibility === "private" ? "MEMBERS" : "PRIVATE";
      return gqlUpdate(
        persona,
        expected,
        { collection, id: rowId, wanted: { visibility: visibility.toLowerCase() } },
        UPDATE_PERSON,
        { id: world.person[owner], input: { birthdayVisibility: visibility } },
        refusal(persona, visibleTo),
      );
    }
    const wanted = collection === "person_emails" ? { isPrimary: true } : { kind: "work" };
    const variables =
      collection === "person_emails"
        ? { email: row.email, isPrimary: true }
        : { number: row.number, kind: "WORK" };
    return gqlUpdate(
      persona,
      expected,
      { collection, id: rowId, wanted },
      `mutation($id: ID!, $input: ${kind}Input!) { update${kind}(id: $id, input: $input) { id } }`,
      { id: rowId, input: variables },
      refusal(persona, visibleTo, true),
    );
  };
  // For birthdays the refusal depends on seeing the person; for emails and phones, on seeing the row.
  const rowVisibility = (rowKey: keyof typeof CONTACT_READ, person: keyof typeof READ.people) =>
    isBirthday ? READ.people[person] : CONTACT_READ[rowKey];
  const checks: Record<string, WriteCheck> = {
    "create for a new child of member's household": (p, e) =>
      withFreshPerson(newChildOf(world.household.A), (id) => createFor(p, e, id, SEES_HOUSEHOLD_A)),
    "create for a new adult of member's household": (p, e) =>
      withFreshPerson(newAdultOf(world.household.A), (id) => createFor(p, e, id, SEES_HOUSEHOLD_A)),
    "create for a new child of other member's household": (p, e) =>
      withFreshPerson(newChildOf(world.household.B), (id) => createFor(p, e, id, SEES_HOUSEHOLD_B)),
    "update member's row": (p, e) =>
      update(
        p,
        e,
        rowOf(collection, "member", "private"),
        "member",
        rowVisibility("memberPrivate", "member"),
      ),
    "update member's child's row": (p, e) =>
      update(
        p,
        e,
        rowOf(collection, "ownChild", "members"),
        "ownChild",
        rowVisibility("childMembers", "ownChild"),
      ),
    "update other member's members-visible row": (p, e) =>
      update(
        p,
        e,
        rowOf(collection, "otherMember", "members"),
        "otherMember",
        rowVisibility("otherMemberMembers", "otherMember"),
      ),
    "delete a row of a new child of member's household": (p, e) =>
      deleteFor(p, e, newChildOf(world.household.A), SEES_HOUSEHOLD_A),
    "delete a row of a new adult of member's household": (p, e) =>
      deleteFor(p, e, newAdultOf(world.household.A), SEES_HOUSEHOLD_A),
  };
  if (isBirthday) return checks;
  return { "create for self": (p, e) => createFor(p, e, ownPerson(p), SEES_SELF), ...checks };
}

const personPreferredName = (persona: Persona, expected: Expected, key: PersonKey | "own") => {
  const id = key === "own" ? ownPerson(persona) : world.person[key];
  const visibleTo = key === "own" ? SEES_SELF : READ.people[key as keyof typeof READ.people];
  const preferredName = `Gql ${persona}`;
  return gqlUpdate(
    persona,
    expected,
    { collection: "people", id, wanted: { preferredName } },
    UPDATE_PERSON,
    { id, input: { preferredName } },
    refusal(persona, visibleTo),
  );
};
const newPersonInput = (fields: Record<string, unknown>) => {
  const lastName = personMarker();
  return { input: { firstName: "New", lastName, ...fields }, marker: `lastName = "${lastName}"` };
};
const createPersonCheck =
  (fields: Record<string, unknown>) => async (persona: Persona, expected: Expected) => {
    const { input, marker } = newPersonInput(fields);
    // Non-staff may add a child to their own household only; the gateway refuses anything else up front.
    await gqlCreate(
      persona,
      expected,
      "people",
      marker,
      CREATE_PERSON,
      { input },
      refusal(persona, "permission"),
    );
  };
const addressInput = (street2: string) => ({
  street1: "1 Gql Street",
  street2,
  city: "Springfield",
  country: "US",
  visibility: "PRIVATE",
});
const SET_ADDRESS = `mutation($h: ID!, $input: AddressInput!) { setAddress(householdId: $h, input: $input) { id } }`;
const INVITE = `mutation($h: ID!, $email: String!) { inviteToHousehold(householdId: $h, email: $email, name: "Invited Adult") { id } }`;

const GQL_WRITES: { [C in WriteCollection]: Partial<Record<keyof (typeof WRITE)[C], WriteCheck>> } = {
  people: {
    "create a child in own household (member's)": (p, e) =>
      createPersonCheck({ householdId: world.household.A, householdRole: "CHILD" })(p, e),
    "create a child in other member's household": (p, e) =>
      createPersonCheck({ householdId: world.household.B, householdRole: "CHILD" })(p, e),
    "create an adult in member's household": (p, e) =>
      createPersonCheck({ householdId: world.household.A, householdRole: "SPOUSE" })(p, e),
    "create a child with a membership status": (p, e) =>
      createPersonCheck({
        householdId: world.household.A,
        householdRole: "CHILD",
        membershipStatus: "MEMBER",
      })(p, e),
    "update own name": (p, e) => personPreferredName(p, e, "own"),
    "update member's name": (p, e) => personPreferredName(p, e, "member"),
    "update member's directory opt-out": (p, e) =>
      gqlUpdate(
        p,
        e,
        { collection: "people", id: world.person.member, wanted: { directoryOptOut: true } },
        UPDATE_PERSON,
        { id: world.person.member, input: { directoryOptOut: true } },
        refusal(p, READ.people.member),
      ),
    "update member's child": (p, e) => personPreferredName(p, e, "ownChild"),
    "update other member's child": (p, e) => personPreferredName(p, e, "otherChild"),
    async "update own status, membership, household, role, merge"(persona, expected) {
      for (const [input, wanted] of [
        [{ recordStatus: "ARCHIVED" }, { recordStatus: "archived" }],
        [{ membershipStatus: "INACTIVE" }, { membershipStatus: "inactive" }],
      ] as const) {
        const id = ownPerson(persona);
        await gqlUpdate(
          persona,
          expected,
          { collection: "people", id, wanted },
          UPDATE_PERSON,
          { id, input },
          refusal(persona, SEES_SELF),
        );
      }
    },
  },
  households: {
    async create(persona, expected) {
      const name = personMarker();
      await gqlCreate(
        persona,
        expected,
        "households",
        `name = "${name}"`,
        `mutation($n: String!) { createHousehold(input: { name: $n }) { id } }`,
        { n: name },
        refusal(persona, "permission"),
      );
    },
    "update member's household": (p, e) =>
      gqlUpdate(
        p,
        e,
        { collection: "households", id: world.household.A, wanted: { name: `Adams gql ${p}` } },
        `mutation($id: ID!, $n: String!) { updateHousehold(id: $id, input: { name: $n }) { id } }`,
        { id: world.household.A, n: `Adams gql ${p}` },
        refusal(p, READ.households.A),
      ),
    "update other member's household": (p, e) =>
      gqlUpdate(
        p,
        e,
        { collection: "households", id: world.household.B, wanted: { name: `Brown gql ${p}` } },
        `mutation($id: ID!, $n: String!) { updateHousehold(id: $id, input: { name: $n }) { id } }`,
        { id: world.household.B, n: `Brown gql ${p}` },
        refusal(p, READ.households.B),
      ),
  },
  person_private: {
    "create for a new child of member's household": (p, e) =>
      withFreshPerson(newChildOf(world.household.A), (id) =>
        gqlCreate(
          p,
          e,
          "person_private",
          `person = "${id}"`,
          UPDATE_PERSON,
          { id, input: { birthDate: yearsAgo(5) } },
          refusal(p, SEES_HOUSEHOLD_A),
        ),
      ),
    "create for a new adult of member's household": (p, e) =>
      withFreshPerson(newAdultOf(world.household.A), (id) =>
        gqlCreate(
          p,
          e,
          "person_private",
          `person = "${id}"`,
          UPDATE_PERSON,
          { id, input: { birthDate: yearsAgo(30) } },
          refusal(p, SEES_HOUSEHOLD_A),
        ),
      ),
    "create for a new child of other member's household": (p, e) =>
      withFreshPerson(newChildOf(world.household.B), (id) =>
        gqlCreate(
          p,
          e,
          "person_private",
          `person = "${id}"`,
          UPDATE_PERSON,
          { id, input: { birthDate: yearsAgo(5) } },
          refusal(p, SEES_HOUSEHOLD_B),
        ),
      ),
    "update member's birth date": (p, e) =>
      gqlUpdate(
        p,
        e,
        {
          collection: "person_private",
          id: world.privates.member!,
          wanted: { birthDate: yearsAgo(41, "01-02") },
        },
        UPDATE_PERSON,
        { id: world.person.member, input: { birthDate: yearsAgo(41, "01-02") } },
        refusal(p, READ.people.member),
      ),
    "update member's child's birth date": (p, e) =>
      gqlUpdate(
        p,
        e,
        {
          collection: "person_private",
          id: world.privates.ownChild!,
          wanted: { birthDate: yearsAgo(7, "01-02") },
        },
        UPDATE_PERSON,
        { id: world.person.ownChild, input: { birthDate: yearsAgo(7, "01-02") } },
        refusal(p, READ.people.ownChild),
      ),
    "delete a row of a new child of member's household": (p, e) =>
      withFreshPerson(newChildOf(world.household.A), async (id) => {
        const row = await su.collection("person_private").create({ person: id, birthDate: yearsAgo(5) });
        await gqlDelete(
          p,
          e,
          "person_private",
          row.id,
          UPDATE_PERSON,
          { id, input: { birthDate: null } },
          refusal(p, SEES_HOUSEHOLD_A),
        );
      }),
  },
  person_emails: gqlPersonRowChecks("person_emails") as never,
  person_phones: gqlPersonRowChecks("person_phones") as never,
  person_birthdays: gqlPersonRowChecks("person_birthdays") as never,
  addresses: {
    "create for other member's household": (p, e) =>
      gqlCreate(
        p,
        e,
        "addresses",
        `household = "${world.household.B}"`,
        SET_ADDRESS,
        { h: world.household.B, input: addressInput("") },
        refusal(p, READ.households.B),
      ),
    async "create for a new household"(persona, expected) {
      const household = await su.collection("households").create({ name: "Fresh" });
      try {
        await gqlCreate(
          persona,
          expected,
          "addresses",
          `household = "${household.id}"`,
          SET_ADDRESS,
          { h: household.id, input: addressInput("") },
          refusal(persona, SEES_STAFF_ONLY),
        );
      } finally {
        await su.collection("households").delete(household.id);
      }
    },
    async "update member's household address"(persona, expected) {
      const current = await su.collection("addresses").getOne(world.addresses.A);
      await gqlUpdate(
        persona,
        expected,
        { collection: "addresses", id: world.addresses.A, wanted: { street2: `Gql ${persona}` } },
        SET_ADDRESS,
        { h: world.household.A, input: { ...addressInput(`Gql ${persona}`), street1: current.street1 } },
        refusal(persona, READ.households.A),
      );
    },
    async "update a members-visible address of a stranger"(persona, expected) {
      const current = await su.collection("addresses").getOne(world.addresses.Vmembers);
      await gqlUpdate(
        persona,
        expected,
        { collection: "addresses", id: world.addresses.Vmembers, wanted: { street2: `Gql ${persona}` } },
        SET_ADDRESS,
        {
          h: world.household.Vmembers,
          input: { ...addressInput(`Gql ${persona}`), street1: current.street1, visibility: "MEMBERS" },
        },
        refusal(persona, SEES_LISTED),
      );
    },
    async "delete other member's household address"(persona, expected) {
      const address = await su.collection("addresses").create({
        household: world.household.B,
        street1: "2 Brown Street",
        city: "Springfield",
        country: "US",
        visibility: "members",
      });
      try {
        await gqlDelete(
          persona,
          expected,
          "addresses",
          address.id,
          `mutation($h: ID!) { removeAddress(householdId: $h) }`,
          { h: world.household.B },
          refusal(persona, READ.households.B),
        );
      } finally {
        if (expected === D) await su.collection("addresses").delete(address.id);
      }
    },
  },
  household_invitations: {
    async "invite to member's household"(persona, expected) {
      const email = uniqueEmail("gql-invite");
      await gqlCreate(
        persona,
        expected,
        "household_invitations",
        `email = "${email}"`,
        INVITE,
        { h: world.household.A, email },
        refusal(persona, READ.households.A),
      );
    },
    async "invite to other member's household"(persona, expected) {
      const email = uniqueEmail("gql-invite");
      await gqlCreate(
        persona,
        expected,
        "household_invitations",
        `email = "${email}"`,
        INVITE,
        { h: world.household.B, email },
        refusal(persona, READ.households.B),
      );
    },
    async "revoke an invitation of member's household"(persona, expected) {
      const invitation = await su
        .collection("household_invitations")
        .create(invitationBody(world.household.A, world.person.member).body);
      try {
        await gqlUpdate(
          persona,
          expected,
          { collection: "household_invitations", id: invitation.id, wanted: { status: "revoked" } },
          `mutation($id: ID!) { revokeHouseholdInvitation(id: $id) { id } }`,
          { id: invitation.id },
          refusal(persona, READ.household_invitations.A),
        );
      } finally {
        await su.collection("household_invitations").delete(invitation.id);
      }
    },
  },
  visit_requests: {
    async "plan a visit"(persona, expected) {
      const email = uniqueEmail("gql-visit");
      await gqlCreate(
        persona,
        expected,
        "visit_requests",
        `email = "${email}"`,
        `mutation($input: VisitRequestInput!) { submitVisitRequest(input: $input) }`,
        { input: { name: "Gql Guest", email } },
        "none",
      );
    },
    update: (p, e) =>
      gqlUpdate(
        p,
        e,
        {
          collection: "visit_requests",
          id: world.visitRequest,
          wanted: { status: "contacted", staffNote: `Gql ${p}` },
        },
        `mutation($id: ID!, $note: String) { updateVisitRequest(id: $id, status: CONTACTED, staffNote: $note) { id } }`,
        { id: world.visitRequest, note: `Gql ${p}` },
        refusal(p, "permission"),
      ),
  },
  users: {
    async "link a login to a person"(persona, expected) {
      // A pending sign-up linked to an existing person: the login now belongs to that person.
      const signUp = await targetLogin({ person: "pending" });
      await withFreshPerson({}, async (existing) => {
        const result = await gql(persona).request(
          `mutation($p: ID!, $to: ID!) { approveSignUp(personId: $p, input: { linkToPersonId: $to }) { id } }`,
          {
            p: signUp.personId,
            to: existing,
          },
        );
        expectGql(result, expected, refusal(persona, "permission"));
        expect((await su.collection("users").getOne(signUp.id)).person).toBe(
          expected === A ? existing : signUp.personId,
        );
        await su.collection("users").delete(signUp.id);
      });
      await su
        .collection("people")
        .delete(signUp.personId!)
        .catch(() => undefined);
    },
    async "delete the login of an archived person"(persona, expected) {
      const login = await targetLogin({ person: "archived" });
      await gqlDelete(
        persona,
        expected,
        "users",
        login.id,
        `mutation($id: ID!) { anonymizePerson(id: $id) { id } }`,
        { id: login.personId },
        refusal(persona, "permission"),
      );
      if (expected === D) await su.collection("users").delete(login.id);
    },
    async "delete the login of an archived staff member"(persona, expected) {
      const login = await targetLogin({ person: "archived", roles: ["Administrator"] });
      // A people manager without roles.manage is refused before anything is anonymised.
      const before = await su.collection("people").getOne(login.personId!);
      await gqlDelete(
        persona,
        expected,
        "users",
        login.id,
        `mutation($id: ID!) { anonymizePerson(id: $id) { id } }`,
        { id: login.personId },
        refusal(persona, "permission"),
      );
      if (expected === D) {
        expect((await su.collection("people").getOne(login.personId!)).firstName).toBe(before.firstName);
        await su.collection("users").delete(login.id);
      }
    },
  },
};

// The write table, through both channels (./authorization-table.ts): PocketBase's REST API for every
// cell, GraphQL where the gateway has the operation (REST_ONLY says why not).
describeAuthorizationTable({
  personas: PERSONAS,
  table: WRITE,
  rest: REST_WRITES,
  graphql: GQL_WRITES,
  gaps: { graphql: REST_ONLY },
  title: "writes",
});

// ─── The refusals issue 4 names, each as its own test ───────────────────────────────────────────
describe("required refusals (issue 4)", () => {
  it("a member trying to read another member's private phone is refused", async () => {
    const privatePhone = await su.collection("person_phones").getOne(world.phones.otherMemberPrivate);
    const pb = rest("member");
    expect(await restStatus(() => pb.collection("person_phones").getOne(privatePhone.id))).toBe(404);
    const listed = await pb
      .collection("person_phones")
      .getFullList({ filter: `person = "${world.person.otherMember}"` });
    // The rows the member sees: "members", and "leaders" and "groups" since the member leads their group.
    const visible = [
      world.phones.otherMemberLeaders,
      world.phones.otherMemberGroups,
      world.phones.otherMemberMembers,
    ].sort();
    expect(listed.map((row) => row.id).sort()).toEqual(visible);
    // Not even a filter on the number finds it (no oracle through filters).
    expect(
      await pb.collection("person_phones").getFullList({ filter: `number = "${privatePhone.number}"` }),
    ).toEqual([]);
    expect(
      await pb
        .collection("people")
        .getFullList({ filter: `person_phones_via_person.number ?= "${privatePhone.number}"` }),
    ).toEqual([]);

    const result = await gql("member").execute(AuthzPersonPhonesDocument, { id: world.person.otherMember });
    expect(result.errors).toBeUndefined();
    expect(result.data!.person!.phones.map((p) => p.id).sort()).toEqual(visible);
    expect(JSON.stringify(result)).not.toContain(privatePhone.number);
  });

  it("a visitor listing people is refused", async () => {
    const pb = rest("anonymous");
    // PocketBase answers an empty list (the rule filters every row), not an error.
    const page = await pb.collection("people").getList(1, 50);
    expect({ totalItems: page.totalItems, items: page.items }).toEqual({ totalItems: 0, items: [] });
    expect((await pb.collection("households").getList(1, 50)).totalItems).toBe(0);
    expect(await restStatus(() => pb.collection("people").getOne(world.person.otherMember))).toBe(404);

    for (const query of [
      `{ people(first: 10) { totalCount } }`,
      `{ directory(first: 10) { totalCount } }`,
      `{ households(first: 10) { totalCount } }`,
    ]) {
      const result = await gql("anonymous").request(query);
      expect(errorCode(result), query).toBe("UNAUTHENTICATED");
      expect(result.data).toBeNull();
    }
  });

  it("a member reading a child's record is refused", async () => {
    const pb = rest("member");
    expect(await restStatus(() => pb.collection("people").getOne(world.person.otherChild))).toBe(404);
    expect(
      await pb.collection("people").getFullList({ filter: `household = "${world.household.B}"` }),
    ).toEqual([expect.objectContaining({ id: world.person.otherMember })]);
    expect(await restStatus(() => pb.collection("person_private").getOne(world.privates.otherChild!))).toBe(
      404,
    );
    expect(await restStatus(() => pb.collection("person_birthdays").getOne(world.birthdays.otherChild))).toBe(
      404,
    );
    expect(
      await restStatus(() => pb.collection("person_phones").getOne(world.phones.otherChildMembers)),
    ).toBe(404);

    const person = await gql("member").request(`query($id: ID!) { person(id: $id) { id firstName } }`, {
      id: world.person.otherChild,
    });
    expect(person.errors).toBeUndefined();
    expect(person.data).toEqual({ person: null });
    const household = await gql("member").execute(AuthzHouseholdMembersDocument, { id: world.household.B });
    expect(household.data!.household!.members.map((m) => m.id)).toEqual([world.person.otherMember]);
  });

  it("a pending user reading the directory is refused", async () => {
    const result = await gql("pending").request(`{ directory(first: 20) { edges { node { id } } } }`);
    expect(errorCode(result)).toBe("FORBIDDEN");
    expect(result.data).toBeNull();
    const pb = rest("pending");
    expect((await pb.collection("people").getFullList()).map((p) => p.id)).toEqual([world.person.pending]);
    expect(await pb.collection("households").getFullList()).toEqual([]);
    expect(await pb.collection("person_phones").getFullList()).toEqual([
      expect.objectContaining({ id: world.phones.pendingMembers }),
    ]);
  });

  it("a member editing someone else's household is refused", async () => {
    const before = await su.collection("households").getOne(world.household.B);
    expect(
      await restStatus(() =>
        rest("member")
          .collection("households")
          .update(world.household.B, { name: "Taken over", directoryOptOut: true }),
      ),
    ).toBe(404);
    const result = await gql("member").request(
      `mutation($id: ID!) { updateHousehold(id: $id, input: { name: "Taken over" }) { id } }`,
      { id: world.household.B },
    );
    expect(errorCode(result)).toBe("FORBIDDEN"); // the member sees the listed household, but may not change it
    const hidden = await gql("member").request(
      `mutation($id: ID!) { updateHousehold(id: $id, input: { name: "Taken over" }) { id } }`,
      { id: world.household.E },
    );
    expect(errorCode(hidden)).toBe("NOT_FOUND"); // an opted-out household is not even there
    expect(await su.collection("households").getOne(world.household.B)).toMatchObject({
      name: before.name,
      directoryOptOut: false,
    });
  });

  it('a shared group opens "leaders" and "groups" rows to the group\'s leader only among non-staff, never "private" ones', () => {
    for (const key of ["otherMemberLeaders", "otherMemberGroups"] as const) {
      expect(CONTACT_READ[key]).toEqual({ ...CONTACT_READ.otherMemberPrivate, member: A });
    }
  });
});

// ─── Derived fields and the member's own writes ─────────────────────────────────────────────────
describe("derived-field tampering", () => {
  it("a member setting their own inDirectory, ageGroup, recordStatus or membershipStatus is refused", async () => {
    const before = await su.collection("people").getOne(world.person.member);
    for (const body of [
      { inDirectory: false },
      { ageGroup: "child" },
      { recordStatus: "archived" },
      { membershipStatus: "inactive" },
      { ageGroup: "adult", inDirectory: true },
    ]) {
      expect(
        await restStatus(() => rest("member").collection("people").update(world.person.member, body)),
        JSON.stringify(body),
      ).toBe(404);
    }
    expect(
      await restStatus(() =>
        rest("member").collection("households").update(world.household.A, { inDirectory: false }),
      ),
    ).toBe(404);
    const after = await su.collection("people").getOne(world.person.member);
    expect(pick(after)).toEqual(pick(before));
    expect((await su.collection("households").getOne(world.household.A)).inDirectory).toBe(true);
  });

  it("a people manager writing the derived fields has no effect (pb_hooks derive them again)", async () => {
    expect(
      await restStatus(() =>
        rest("pastor")
          .collection("people")
          .update(world.person.ownChild, { ageGroup: "adult", inDirectory: true }),
      ),
    ).toBe(200);
    expect(pick(await su.collection("people").getOne(world.person.ownChild))).toMatchObject({
      ageGroup: "child",
      inDirectory: false,
    });
    expect(
      await restStatus(() =>
        rest("pastor").collection("households").update(world.household.E, { inDirectory: true }),
      ),
    ).toBe(200);
    expect((await su.collection("households").getOne(world.household.E)).inDirectory).toBe(false);
  });

  it("a member creating a person that is not a child of their own household is refused", async () => {
    const attempts: Array<Record<string, unknown>> = [
      { household: world.household.A, householdRole: "spouse", recordStatus: "active" },
      { household: world.household.A, householdRole: "head", recordStatus: "active" },
      { household: world.household.B, householdRole: "child", recordStatus: "active" },
      { householdRole: "child", recordStatus: "active" },
      { household: world.household.A, householdRole: "child", recordStatus: "pending" },
      {
        household: world.household.A,
        householdRole: "child",
        recordStatus: "active",
        membershipStatus: "member",
      },
      {
        household: world.household.A,
        householdRole: "child",
        recordStatus: "active",
        mergedInto: world.person.otherMember,
      },
    ];
    for (const fields of attempts) {
      const lastName = personMarker();
      expect(
        await restStatus(() =>
          rest("member")
            .collection("people")
            .create({ firstName: "Not", lastName, ...fields }),
        ),
        JSON.stringify(fields),
      ).toBe(400);
      expect(await su.collection("people").getFullList({ filter: `lastName = "${lastName}"` })).toEqual([]);
    }
    for (const input of [
      { householdId: world.household.B },
      { householdId: world.household.A, householdRole: "SPOUSE" },
      { householdId: world.household.A, membershipStatus: "MEMBER" },
    ]) {
      const { input: full, marker } = newPersonInput(input);
      const result = await gql("member").request(CREATE_PERSON, { input: full });
      expect(errorCode(result), JSON.stringify(input)).toBe("FORBIDDEN");
      expect(await su.collection("people").getFullList({ filter: marker })).toEqual([]);
    }
  });

  it("a member adding a child: the child never appears to other members", async () => {
    const lastName = personMarker();
    // Through REST, with derived values the hooks must override; then through GraphQL, with a birth date.
    const viaRest = await rest("member").collection("people").create({
      firstName: "Baby",
      lastName,
      household: world.household.A,
      householdRole: "child",
      recordStatus: "active",
      inDirectory: true,
      ageGroup: "adult",
    });
    const viaGql = await gql("member").execute(AuthzCreateChildDocument, {
      input: { firstName: "Toddler", lastName, birthDate: yearsAgo(3), phone: uniquePhone() },
    });
    expect(viaGql.errors).toBeUndefined();
    expect(viaGql.data!.createPerson).toMatchObject({ ageGroup: "CHILD", inDirectory: false });
    const children = [viaRest.id, viaGql.data!.createPerson.id];
    try {
      await rest("member")
        .collection("person_phones")
        .create({ person: viaRest.id, number: uniquePhone(), visibility: "members" });
      for (const id of children)
        expect(pick(await su.collection("people").getOne(id))).toMatchObject({
          ageGroup: "child",
          inDirectory: false,
        });
      // The parent cannot list the child either (membership status is staff's).
      expect(
        await restStatus(() => rest("member").collection("people").update(viaRest.id, { inDirectory: true })),
      ).toBe(404);
      expect(
        await restStatus(() =>
          rest("member").collection("people").update(viaRest.id, { membershipStatus: "member" }),
        ),
      ).toBe(404);

      for (const persona of ["otherMember", "editor", "pending", "anonymous"] as const) {
        const pb = rest(persona);
        expect(
          await pb.collection("people").getFullList({ filter: `lastName = "${lastName}"` }),
          persona,
        ).toEqual([]);
        expect(
          await pb
            .collection("person_phones")
            .getFullList({ filter: children.map((id) => `person = "${id}"`).join(" || ") }),
          persona,
        ).toEqual([]);
        for (const id of children) {
          const result = await gql(persona).execute(AuthzPersonIdDocument, { id });
          expect(result.data?.person ?? null, persona).toBeNull();
        }
      }
      const directory = await gql("otherMember").execute(AuthzDirectoryMembersDocument, { q: world.run });
      const listed = directory.data!.directory.edges.flatMap((e) => e.node.members.map((m) => m.id));
      expect(listed).toContain(world.person.member);
      for (const id of children) expect(listed).not.toContain(id);
    } finally {
      for (const id of children) await su.collection("people").delete(id);
    }
  });
});

// ─── Holes found while writing this table (fixed in pb_migrations/1732200000_people.js) ─────────
describe("another adult's privacy and an archived login", () => {
  it("a household adult cannot publish the other adult's private phone, nor undo their opt-out", async () => {
    const pb = rest("householdAdult");
    const phone = await su.collection("person_phones").getOne(world.phones.memberPrivate);
    expect(
      await restStatus(() => pb.collection("person_phones").update(phone.id, { visibility: "members" })),
    ).toBe(404);
    // Nor by deleting the row and adding it again with a wider visibility.
    expect(await restStatus(() => pb.collection("person_phones").delete(phone.id))).toBe(404);
    expect(
      await restStatus(() =>
        pb
          .collection("person_phones")
          .create({ person: world.person.member, number: uniquePhone(), visibility: "members" }),
      ),
    ).toBe(400);
    // Nor by making them a minor first (their birth date is theirs).
    expect(
      await restStatus(() =>
        pb.collection("person_private").update(world.privates.member!, { birthDate: yearsAgo(5) }),
      ),
    ).toBe(404);
    expect(
      await restStatus(() =>
        rest("member").collection("people").update(world.person.spouse, { directoryOptOut: false }),
      ),
    ).toBe(404);
    expect((await su.collection("person_phones").getOne(phone.id)).visibility).toBe("private");
    expect((await su.collection("people").getOne(world.person.spouse)).directoryOptOut).toBe(true);
    // Their own child's details remain theirs to manage.
    expect(
      await restStatus(() =>
        pb.collection("person_phones").update(world.phones.childMembers, { visibility: "members" }),
      ),
    ).toBe(200);
  });

  it("the login of an archived person no longer reaches their household", async () => {
    const leaver = await createUser({ person: "active" });
    await su.collection("people").update(leaver.personId!, {
      household: world.household.A,
      householdRole: "other",
      membershipStatus: "member",
      recordStatus: "archived",
    });
    try {
      const pb = pbAs(leaver);
      expect(
        (await pb.collection("people").getFullList({ filter: `household = "${world.household.A}"` })).map(
          (p) => p.id,
        ),
      ).toEqual([leaver.personId]);
      expect(await restStatus(() => pb.collection("person_private").getOne(world.privates.ownChild!))).toBe(
        404,
      );
      expect(await restStatus(() => pb.collection("addresses").getOne(world.addresses.A))).toBe(404);
      expect(
        await restStatus(() =>
          pb.collection("people").update(world.person.ownChild, { preferredName: "Mine" }),
        ),
      ).toBe(404);
      expect(
        await restStatus(() => pb.collection("households").update(world.household.A, { name: "Mine" })),
      ).toBe(404);
      expect(await restStatus(() => pb.collection("household_invitations").getOne(world.invitations.A))).toBe(
        404,
      );
    } finally {
      await su.collection("users").delete(leaver.id);
      await su.collection("people").delete(leaver.personId!);
    }
  });

  it("a pastor cannot remove an administrator's login by archiving their person", async () => {
    const admin = await targetLogin({ roles: ["Administrator"] });
    try {
      expect(
        await restStatus(() =>
          rest("pastor").collection("people").update(admin.personId!, { recordStatus: "archived" }),
        ),
      ).toBe(200);
      expect(await restStatus(() => rest("pastor").collection("users").delete(admin.id))).toBe(404);
      expect(await restStatus(() => su.collection("users").getOne(admin.id))).toBe(200);
    } finally {
      await su.collection("users").delete(admin.id);
    }
  });
});

function pick(person: RecordModel) {
  return {
    ageGroup: person.ageGroup,
    inDirectory: person.inDirectory,
    recordStatus: person.recordStatus,
    membershipStatus: person.membershipStatus,
  };
}
