/**
 * Staff processes of the people module against a real PocketBase: duplicate suggestions, sign-up
 * approval (link or create, with the approval email), merge (every related record moves; a test
 * fails when a new relation to people is not handled), archive, anonymisation, the deletion request
 * (administrators are mailed) and the "my data" zip.
 */
import { randomBytes, randomUUID } from "node:crypto";
import { unzipSync, strFromU8 } from "fflate";
import type PocketBase from "pocketbase";
import type { RecordModel } from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { SESSION } from "@flock/shared/limits";
import { PERSON_RELATIONS } from "../src/schema/people/merge.ts";
import type { GroupAccessRecord } from "../src/pocketbase/records.ts";
import { linkFrom, waitForMail } from "../../scripts/lib/smtp-catcher.ts";
import {
  createUser,
  errorCode,
  fileOf,
  GqlClient,
  pbAs,
  pngBytes,
  restStatus,
  signUpAndSignIn,
  system,
  testGateway,
  uniqueEmail,
  type TestUser,
  catcherUrl,
} from "./helpers.ts";
import {
  PeopleStaffCancelDeletionDocument,
  PeopleStaffMatchesDocument,
  PeopleStaffRequestDeletionDocument,
  PeopleStaffViewerDocument,
  PeopleStaffViewerPersonDocument,
} from "./__generated__/operations.ts";

let gateway: Gateway;
let baseUrl: string;
let su: PocketBase;
let pastor: TestUser;
let careTeam: TestUser;
let member: TestUser;

const tag = () => randomUUID().replace(/-/g, "").slice(0, 8);
const asUser = (user: TestUser) => new GqlClient(gateway, { token: user.token });
const catcher = () => catcherUrl();

/** Arrange helpers (system client: test data only). */
const newPerson = (data: Record<string, unknown> = {}) =>
  su.collection("people").create({
    firstName: "Test",
    lastName: `Person${tag()}`,
    recordStatus: "active",
    membershipStatus: "member",
    ...data,
  });
const newHousehold = (name = `Household ${tag()}`) => su.collection("households").create({ name });
const addEmail = (person: string, email: string, isPrimary = false, visibility = "private") =>
  su.collection("person_emails").create({ person, email, isPrimary, visibility });
const addPhone = (person: string, number: string, isPrimary = false, visibility = "private") =>
  su.collection("person_phones").create({ person, number, isPrimary, visibility });
const rowsOf = (collection: string, field: string, id: string) =>
  su.collection(collection).getFullList({ filter: su.filter(`${field} = {:id}`, { id }) });
const uniquePhone = () => `+1202555${String(Math.floor(1000 + Math.random() * 8999))}`;

/** A login for an existing person, with a token. */
async function loginFor(personId: string): Promise<TestUser> {
  const user = await createUser({ person: "none" });
  await su.collection("users").update(user.id, { person: personId });
  return { ...user, personId };
}

const MERGE = `mutation($k: ID!, $m: ID!) { mergePeople(keepId: $k, mergeId: $m) { id } }`;
const APPROVE = `mutation($id: ID!, $input: ApproveSignUpInput!) { approveSignUp(personId: $id, input: $input) { id recordStatus } }`;

beforeAll(async () => {
  gateway = await testGateway();
  baseUrl = await gateway.listen();
  su = await system();
  pastor = await createUser({ roles: ["Pastor"] });
  careTeam = await createUser({ roles: ["Care Team"] });
  member = await createUser();
});
afterAll(() => gateway.close());

describe("merge", () => {
  it("knows how to move every relation to people in the schema", async () => {
    const collections = await su.collections.getFullList();
    const people = collections.find((c) => c.name === "people")!;
    const relations = collections.flatMap((c) =>
      c.fields
        .filter((f) => f.type === "relation" && f.collectionId === people.id)
        .map((f) => `${c.name}.${f.name}`),
    );
    // A collection that points at people must say how a merge moves it (gateway/src/schema/people/merge.ts).
    expect(relations.filter((r) => !(r in PERSON_RELATIONS))).toEqual([]);
    expect(Object.keys(PERSON_RELATIONS).filter((r) => !relations.includes(r))).toEqual([]);
  });

  it("moves every related record to the kept person, without doubling shared rows", async () => {
    const shared = uniqueEmail("shared");
    const sharedPhone = uniquePhone();
    const household = await newHousehold();
    const keep = await newPerson({ firstName: "Robert", household: household.id, householdRole: "head" });
    const merge = await newPerson({
      firstName: "Robert",
      preferredName: "Bobby",
      photo: fileOf(pngBytes(), "bobby.png", "image/png"),
    });
    const keepEmail = await addEmail(keep.id, shared, true, "members");
    await addEmail(merge.id, shared.toUpperCase(), false, "private");
    const ownEmail = await addEmail(merge.id, uniqueEmail("bobby"), true, "members");
    await addPhone(keep.id, sharedPhone, true);
    await addPhone(merge.id, sharedPhone, true);
    const ownPhone = await addPhone(merge.id, uniquePhone(), false, "members");
    await su.collection("person_private").create({ person: merge.id, birthDate: "1980-04-05 00:00:00.000Z" });
    const [birthday] = await rowsOf("person_birthdays", "person", merge.id);
    await su.collection("person_birthdays").update(birthday!.id, { visibility: "groups" });
    const login = await loginFor(merge.id);
    const visit = await su
      .collection("visit_requests")
      .create({ name: "Bobby", email: uniqueEmail("visit"), status: "new", person: merge.id });
    const otherHousehold = await newHousehold();
    const invitation = await su.collection("household_invitations").create({
      household: otherHousehold.id,
      email: uniqueEmail("invitee"),
      name: "Invitee",
      tokenHash: randomBytes(32).toString("hex"),
      invitedBy: merge.id,
      status: "pending",
      expiresAt: "2099-01-01 00:00:00.000Z",
    });
    const earlierDuplicate = await newPerson({ recordStatus: "archived", mergedInto: merge.id });

    const result = await asUser(pastor).request(MERGE, { k: keep.id, m: merge.id });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ mergePeople: { id: keep.id } });

    const emails = await rowsOf("person_emails", "person", keep.id);
    expect(emails.map((e) => [e.email, e.isPrimary]).sort()).toEqual(
      [
        [shared, true],
        [ownEmail.email, false],
      ].sort(),
    );
    expect(emails.find((e) => e.email === shared)!.id).toBe(keepEmail.id);
    const phones = await rowsOf("person_phones", "person", keep.id);
    expect(phones.map((p) => p.number).sort()).toEqual([sharedPhone, ownPhone.number].sort());
    expect(phones.filter((p) => p.isPrimary).map((p) => p.number)).toEqual([sharedPhone]);
    const [privateRow] = await rowsOf("person_private", "person", keep.id);
    expect(privateRow?.birthDate).toMatch(/^1980-04-05/);
    expect(
      (await rowsOf("person_birthdays", "person", keep.id)).map((b) => [b.month, b.day, b.visibility]),
    ).toEqual([[4, 5, "groups"]]);
    for (const collection of ["person_emails", "person_phones", "person_private", "person_birthdays"]) {
      expect(await rowsOf(collection, "person", merge.id), collection).toEqual([]);
    }
    expect((await su.collection("users").getOne(login.id)).person).toBe(keep.id);
    expect((await su.collection("visit_requests").getOne(visit.id)).person).toBe(keep.id);
    expect((await su.collection("household_invitations").getOne(invitation.id)).invitedBy).toBe(keep.id);
    expect((await su.collection("people").getOne(earlierDuplicate.id)).mergedInto).toBe(keep.id);

    const kept = await su.collection("people").getOne(keep.id);
    expect(kept).toMatchObject({ preferredName: "Bobby", household: household.id, recordStatus: "active" });
    expect(kept.photo).not.toBe("");
    expect(await su.collection("people").getOne(merge.id)).toMatchObject({
      recordStatus: "archived",
      mergedInto: keep.id,
      household: "",
    });

    // The merged person's login now opens the kept person.
    const viewer = await asUser(login).execute(PeopleStaffViewerPersonDocument);
    expect(viewer.data?.viewer!.person!.id).toBe(keep.id);
  });

  it("keeps the kept person's birth date when both have one", async () => {
    const keep = await newPerson();
    const merge = await newPerson();
    await su.collection("person_private").create({ person: keep.id, birthDate: "1970-01-02 00:00:00.000Z" });
    await su.collection("person_private").create({ person: merge.id, birthDate: "1980-04-05 00:00:00.000Z" });
    expect((await asUser(pastor).request(MERGE, { k: keep.id, m: merge.id })).errors).toBeUndefined();
    expect(
      (await rowsOf("person_private", "person", keep.id)).map((r) => (r.birthDate as string).slice(0, 10)),
    ).toEqual(["1970-01-02"]);
    expect((await rowsOf("person_birthdays", "person", keep.id)).map((b) => [b.month, b.day])).toEqual([
      [1, 2],
    ]);
    expect(await rowsOf("person_private", "person", merge.id)).toEqual([]);
    expect(await rowsOf("person_birthdays", "person", merge.id)).toEqual([]);
  });

  it("moves group memberships, join requests and chat messages; a group both were in keeps one row, led if either led it", async () => {
    const keep = await newPerson();
    const merge = await newPerson();
    const group = (name: string) =>
      su.collection("groups").create({
        name,
        slug: `merge-${name}-${keep.id}`,
        type: "team",
        locationDisplay: "hidden",
        visibility: "public",
        joinPolicy: "request",
        rosterVisibility: "leaders",
        chatEnabled: true,
        status: "active",
      });
    const both = await group("both");
    const only = await group("only");
    const asked = await group("asked");
    await su
      .collection("group_members")
      .create({ group: both.id, person: keep.id, role: "member", status: "active" });
    await su
      .collection("group_members")
      .create({ group: both.id, person: merge.id, role: "leader", status: "active" });
    await su
      .collection("group_members")
      .create({ group: only.id, person: merge.id, role: "member", status: "active" });
    const fellow = await newPerson();
    await su
      .collection("group_members")
      .create({ group: only.id, person: fellow.id, role: "member", status: "active" });
    await su
      .collection("group_join_requests")
      .create({ group: asked.id, person: keep.id, status: "pending" });
    const clash = await su
      .collection("group_join_requests")
      .create({ group: asked.id, person: merge.id, status: "pending" });
    const message = await su.collection("group_messages").create({
      group: both.id,
      author: merge.id,
      authorName: "Bobby",
      body: "Hi",
      clientKey: `merge-${merge.id}`,
    });
    expect((await asUser(pastor).request(MERGE, { k: keep.id, m: merge.id })).errors).toBeUndefined();
    const rows = await rowsOf("group_members", "person", keep.id);
    expect(rows.map((r) => [r.group, r.role]).sort()).toEqual(
      [
        [both.id, "leader"],
        [only.id, "member"],
      ].sort(),
    );
    expect(await rowsOf("group_members", "person", merge.id)).toEqual([]);
    expect(await su.collection("group_join_requests").getOne(clash.id)).toMatchObject({
      person: keep.id,
      status: "cancelled",
    });
    expect((await su.collection("group_messages").getOne(message.id)).author).toBe(keep.id);
    // Who sees whom through groups followed (PocketBase's hooks): a fellow member of "only" sees the kept person.
    const viewersOf = async (personId: string) =>
      (
        await su
          .collection("group_access")
          .getFullList<GroupAccessRecord>({ filter: su.filter("person = {:p}", { p: personId }) })
      )[0]?.groupViewers.split(" ");
    expect(await viewersOf(keep.id)).toEqual([fellow.id]);
    expect(await viewersOf(fellow.id)).toEqual([keep.id]);
    expect(await viewersOf(merge.id)).toBeUndefined();
  });

  it("moves serving rosters, requests, blockouts and clearances; a team both serve on keeps one row with both's positions", async () => {
    const keep = await newPerson({ firstName: "Sam" });
    const merge = await newPerson({ firstName: "Sammy" });
    const team = await su
      .collection("serving_teams")
      .create({ name: `Merge team ${tag()}`, status: "active" });
    const [keys, vocals] = await Promise.all(
      ["Keys", "Vocals"].map((name) => su.collection("serving_positions").create({ team: team.id, name })),
    );
    const keptRow = await su
      .collection("serving_members")
      .create({ team: team.id, person: keep.id, role: "member", status: "active", positions: [keys!.id] });
    await su.collection("serving_members").create({
      team: team.id,
      person: merge.id,
      role: "leader",
      status: "active",
      positions: [keys!.id, vocals!.id],
    });
    const plan = await su
      .collection("serving_plans")
      .create({ title: "Merge plan", date: "2031-01-05 00:00:00.000Z", status: "published" });
    const [keysNeed, vocalsNeed] = await Promise.all(
      [keys!, vocals!].map((p) =>
        su.collection("serving_needs").create({ plan: plan.id, position: p.id, count: 2 }),
      ),
    );
    await su.collection("serving_requests").create({ need: keysNeed!.id, person: keep.id });
    await su.collection("serving_requests").create({ need: keysNeed!.id, person: merge.id });
    const vocalsRequest = await su
      .collection("serving_requests")
      .create({ need: vocalsNeed!.id, person: merge.id });
    const blockout = await su.collection("serving_blockouts").create({
      person: merge.id,
      startsOn: "2031-01-12 00:00:00.000Z",
      endsOn: "2031-01-12 00:00:00.000Z",
    });
    const clearance = await su
      .collection("serving_clearances")
      .create({ person: merge.id, kind: "training", passedOn: "2030-01-01 00:00:00.000Z" });

    const result = await new GqlClient(gateway, { token: pastor.token }).request(MERGE, {
      k: keep.id,
      m: merge.id,
    });
    expect(result.errors).toBeUndefined();

    const rows = await rowsOf("serving_members", "team", team.id);
    expect(rows.map((r) => r.id)).toEqual([keptRow.id]);
    expect(rows[0]).toMatchObject({ person: keep.id, role: "leader" });
    expect([...(rows[0]!.positions as string[])].sort()).toEqual([keys!.id, vocals!.id].sort());
    // Asked twice for the keys: one request stands (the kept person's); the vocals request moved.
    expect((await rowsOf("serving_requests", "need", keysNeed!.id)).map((r) => r.person)).toEqual([keep.id]);
    expect((await su.collection("serving_requests").getOne(vocalsRequest.id)).person).toBe(keep.id);
    expect((await su.collection("serving_blockouts").getOne(blockout.id)).person).toBe(keep.id);
    expect((await su.collection("serving_clearances").getOne(clearance.id)).person).toBe(keep.id);
  });

  it("refuses to merge a person into itself, a merged record, and callers without people.manage", async () => {
    const a = await newPerson();
    const b = await newPerson();
    const same = await asUser(pastor).request(MERGE, { k: a.id, m: a.id });
    expect(errorCode(same)).toBe("BAD_USER_INPUT");
    expect(same.errors?.[0]?.extensions?.fieldErrors).toHaveProperty("mergeId");
    expect(errorCode(await asUser(careTeam).request(MERGE, { k: a.id, m: b.id }))).toBe("FORBIDDEN");
    expect(errorCode(await asUser(member).request(MERGE, { k: a.id, m: b.id }))).toBe("FORBIDDEN");
    expect(errorCode(await new GqlClient(gateway).request(MERGE, { k: a.id, m: b.id }))).toBe(
      "UNAUTHENTICATED",
    );
    expect((await asUser(pastor).request(MERGE, { k: a.id, m: b.id })).errors).toBeUndefined();
    expect(errorCode(await asUser(pastor).request(MERGE, { k: a.id, m: b.id }))).toBe("CONFLICT");
  });
});

describe("match suggestions", () => {
  const MATCHES = PeopleStaffMatchesDocument; // ./operations/people-staff.graphql

  it("suggests existing people by email, phone and name, best first, for staff only", async () => {
    const last = `Lopez${tag()}`;
    const email = uniqueEmail("maria");
    const phone = uniquePhone();
    const pending = await newPerson({
      firstName: "Maria",
      lastName: last,
      recordStatus: "pending",
      membershipStatus: "",
    });
    await addEmail(pending.id, email, true);
    await addPhone(pending.id, phone, true);
    const byEmail = await newPerson({ firstName: "Mary", lastName: "Other" });
    await addEmail(byEmail.id, email.toUpperCase(), true);
    const byPhone = await newPerson({ firstName: "M.", lastName: "Someone", recordStatus: "archived" });
    await addPhone(byPhone.id, phone, true);
    const byName = await newPerson({
      firstName: "María José",
      preferredName: "maria",
      lastName: last.toUpperCase(),
    });
    const byEmailAndName = await newPerson({ firstName: "Maria", lastName: last });
    await addEmail(byEmailAndName.id, email, false);
    // Never suggested: merged duplicates, other pending sign-ups, a different first name.
    const merged = await newPerson({
      firstName: "Maria",
      lastName: last,
      recordStatus: "archived",
      mergedInto: byName.id,
    });
    await addEmail(merged.id, email, true);
    await newPerson({ firstName: "Maria", lastName: last, recordStatus: "pending" });
    await newPerson({ firstName: "Marta", lastName: last });

    const result = await asUser(careTeam).execute(MATCHES, { id: pending.id });
    expect(result.errors).toBeUndefined();
    expect(result.data?.person!.matchSuggestions).toEqual([
      { person: { id: byEmailAndName.id }, reasons: ["EMAIL", "NAME"] },
      { person: { id: byEmail.id }, reasons: ["EMAIL"] },
      { person: { id: byPhone.id }, reasons: ["PHONE"] },
      { person: { id: byName.id }, reasons: ["NAME"] },
    ]);
  });

  it("is empty for anyone without people rights", async () => {
    // Same name as the member's own record: staff would see it suggested.
    await newPerson({ firstName: "Test", lastName: "Person" });
    const result = await asUser(member).execute(MATCHES, { id: member.personId! });
    expect(result.errors).toBeUndefined();
    expect(result.data?.person!.matchSuggestions).toEqual([]);
  });
});

describe("sign-up approval", () => {
  const VIEWER = PeopleStaffViewerDocument;

  async function signUp(lastName: string) {
    const email = uniqueEmail("newcomer");
    const { client, person } = await signUpAndSignIn(
      gateway,
      { firstName: "Nina", lastName, email },
      `198.51.100.${Math.floor(Math.random() * 250) + 1}`,
    );
    return { client, email, personId: person.id };
  }

  it("activates the pending person in a new household, mails them, and opens member areas at once", async () => {
    const last = `Newcomer${tag()}`;
    const { client, email, personId } = await signUp(last);
    expect((await client.execute(VIEWER)).data?.viewer!.isMember).toBe(false);

    const result = await asUser(pastor).request(APPROVE, {
      id: personId,
      input: { membershipStatus: "REGULAR_ATTENDER" },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ approveSignUp: { id: personId, recordStatus: "ACTIVE" } });
    const person = await su.collection("people").getOne(personId, { expand: "household" });
    expect(person).toMatchObject({
      recordStatus: "active",
      membershipStatus: "regular_attender",
      householdRole: "head",
    });
    expect(person.expand?.household.name).toBe(`${last} household`);

    const mail = await waitForMail(catcher(), email, /membership is approved/);
    expect(linkFrom(mail, "/me")).toBe("http://flock.test/me");
    // The viewer cache forgot the old pending person.
    expect((await client.execute(VIEWER)).data?.viewer!.isMember).toBe(true);

    expect(errorCode(await asUser(pastor).request(APPROVE, { id: personId, input: {} }))).toBe("CONFLICT");
  });

  it("puts the person into a chosen household as spouse of its head; without a choice, a new sign-up is a visitor", async () => {
    const household = await newHousehold();
    await newPerson({ household: household.id, householdRole: "head" });
    const { personId } = await signUp(`Spouse${tag()}`);
    expect(
      (await asUser(pastor).request(APPROVE, { id: personId, input: { householdId: household.id } })).errors,
    ).toBeUndefined();
    expect(await su.collection("people").getOne(personId)).toMatchObject({
      household: household.id,
      householdRole: "spouse",
      membershipStatus: "visitor",
    });
  });

  it("links the sign-up to an existing person: the login and the sign-up's details move there", async () => {
    const household = await newHousehold();
    const existing = await newPerson({
      firstName: "Nina",
      lastName: `Known${tag()}`,
      membershipStatus: "regular_attender",
      household: household.id,
      householdRole: "head",
    });
    const { client, email, personId } = await signUp(existing.lastName as string);

    const result = await asUser(pastor).request(APPROVE, {
      id: personId,
      input: { linkToPersonId: existing.id },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({ approveSignUp: { id: existing.id, recordStatus: "ACTIVE" } });
    expect(await su.collection("people").getOne(existing.id)).toMatchObject({
      recordStatus: "active",
      membershipStatus: "regular_attender",
      household: household.id,
    });
    expect(await su.collection("people").getOne(personId)).toMatchObject({
      recordStatus: "archived",
      mergedInto: existing.id,
    });
    expect((await rowsOf("person_emails", "person", existing.id)).map((e) => e.email)).toContain(email);

    await waitForMail(catcher(), email, /membership is approved/);
    expect((await client.execute(VIEWER)).data?.viewer).toEqual({
      isMember: true,
      person: { id: existing.id },
    });
  });

  it("refuses bad links and callers without people.manage", async () => {
    const { personId } = await signUp(`Refused${tag()}`);
    const self = await asUser(pastor).request(APPROVE, { id: personId, input: { linkToPersonId: personId } });
    expect(errorCode(self)).toBe("BAD_USER_INPUT");
    expect(self.errors?.[0]?.extensions?.fieldErrors).toHaveProperty("linkToPersonId");
    const missingHousehold = await asUser(pastor).request(APPROVE, {
      id: personId,
      input: { householdId: "zzzzzzzzzzzzzzz" },
    });
    expect(missingHousehold.errors?.[0]?.extensions?.fieldErrors).toHaveProperty("householdId");
    expect(errorCode(await asUser(careTeam).request(APPROVE, { id: personId, input: {} }))).toBe("FORBIDDEN");
    expect(errorCode(await asUser(member).request(APPROVE, { id: personId, input: {} }))).toBe("FORBIDDEN");
    expect((await su.collection("people").getOne(personId)).recordStatus).toBe("pending");
  });
});

describe("archive", () => {
  it("archives a person (people.manage only)", async () => {
    const person = await newPerson();
    const ARCHIVE = `mutation($id: ID!) { archivePerson(id: $id) { id recordStatus } }`;
    expect(errorCode(await asUser(careTeam).request(ARCHIVE, { id: person.id }))).toBe("FORBIDDEN");
    expect((await asUser(pastor).request(ARCHIVE, { id: person.id })).data).toEqual({
      archivePerson: { id: person.id, recordStatus: "ARCHIVED" },
    });
  });
});

describe("deletion requests", () => {
  const REQUEST = PeopleStaffRequestDeletionDocument;
  const CANCEL = PeopleStaffCancelDeletionDocument;

  it("records the request with the member's own token and mails every people manager", async () => {
    const admin = await createUser({ roles: ["Administrator"] });
    const editor = await createUser({ roles: ["Editor"] });
    const requester = await createUser();
    await su
      .collection("people")
      .update(requester.personId!, { firstName: "Dora", lastName: `Delete${tag()}` });

    const result = await asUser(requester).execute(REQUEST);
    expect(result.errors).toBeUndefined();
    expect(result.data?.requestDataDeletion.id).toBe(requester.personId);
    expect(result.data?.requestDataDeletion.deletionRequestedAt).toBeTruthy();

    const mail = await waitForMail(catcher(), admin.email, /asked for their data to be deleted/);
    expect(mail.subject).toContain("Dora");
    expect(linkFrom(mail, "/admin/people/")).toBe(`http://flock.test/admin/people/${requester.personId}`);
    await waitForMail(catcher(), pastor.email, /Dora .* asked for their data to be deleted/);
    // Mail is sent before the mutation answers: an editor (no people.manage) got nothing.
    const editorMail = (await (
      await fetch(`${catcher()}/messages?to=${encodeURIComponent(editor.email)}`)
    ).json()) as unknown[];
    expect(editorMail).toEqual([]);

    const cancelled = await asUser(requester).execute(CANCEL);
    expect(cancelled.data?.cancelDataDeletion.deletionRequestedAt).toBeNull();
    expect((await su.collection("people").getOne(requester.personId!)).deletionRequestedAt).toBe("");
  });

  it("needs a signed-in user", async () => {
    expect(errorCode(await new GqlClient(gateway).request(REQUEST))).toBe("UNAUTHENTICATED");
  });
});

describe("anonymisation", () => {
  const ANONYMIZE = `mutation($id: ID!) {
    anonymizePerson(id: $id) { id firstName lastName preferredName recordStatus photoUrl emails { id } phones { id } birthDate birthday { month } household { id } user { id } }
  }`;

  /** The gateway URL of a protected file, with a file token of `viewer`. */
  async function fileUrl(viewer: TestUser, record: RecordModel, filename: string): Promise<string> {
    const token = await pbAs(viewer).files.getToken();
    return `${baseUrl}/files/${record.collectionName}/${record.id}/${filename}?token=${token}`;
  }

  it("removes personal fields, contact rows, files and the login; the household and posts stay", async () => {
    const household = await newHousehold();
    await su.collection("addresses").create({
      household: household.id,
      street1: "1 Main St",
      city: "Springfield",
      country: "US",
      visibility: "members",
    });
    const partner = await newPerson({ household: household.id, householdRole: "head" });
    const person = await newPerson({
      firstName: "Erin",
      preferredName: "Ez",
      household: household.id,
      householdRole: "spouse",
      photo: fileOf(pngBytes(), "erin.png", "image/png"),
    });
    await addEmail(person.id, uniqueEmail("erin"), true, "members");
    await addPhone(person.id, uniquePhone(), true, "members");
    await su
      .collection("person_private")
      .create({ person: person.id, birthDate: "1985-06-07 00:00:00.000Z" });
    const login = await loginFor(person.id);
    const post = await su.collection("posts").create({
      title: "Erin's testimony",
      slug: `erin-${tag()}`,
      body: "Hello",
      status: "published",
      audience: "public",
      author: login.id,
      authorName: "Erin",
      revision: 1,
    });
    const photoUrl = await fileUrl(pastor, person, person.photo as string);
    expect((await fetch(photoUrl)).status).toBe(200);

    expect(errorCode(await asUser(member).request(ANONYMIZE, { id: person.id }))).toBe("FORBIDDEN");
    const result = await asUser(pastor).request(ANONYMIZE, { id: person.id });
    expect(result.errors).toBeUndefined();
    expect(result.data).toEqual({
      anonymizePerson: {
        id: person.id,
        firstName: "Former",
        lastName: "member",
        preferredName: null,
        recordStatus: "ARCHIVED",
        photoUrl: null,
        emails: [],
        phones: [],
        birthDate: null,
        birthday: null,
        household: null,
        user: null,
      },
    });

    const after = await su.collection("people").getOne(person.id);
    expect(after).toMatchObject({
      firstName: "Former",
      lastName: "member",
      preferredName: "",
      photo: "",
      household: "",
      directoryOptOut: true,
      recordStatus: "archived",
      inDirectory: false,
    });
    expect(after.anonymizedAt).not.toBe("");
    for (const collection of ["person_emails", "person_phones", "person_private", "person_birthdays"]) {
      expect(await rowsOf(collection, "person", person.id), collection).toEqual([]);
    }
    expect((await fetch(photoUrl)).status).toBe(404);
    expect(await restStatus(() => su.collection("users").getOne(login.id))).toBe(404);
    // Aggregate records stay: the household with its other member and address, the post and its byline.
    expect((await su.collection("people").getOne(partner.id)).household).toBe(household.id);
    expect(await rowsOf("addresses", "household", household.id)).toHaveLength(1);
    expect(await su.collection("posts").getOne(post.id)).toMatchObject({
      title: "Erin's testimony",
      authorName: "Erin",
    });
  });

  it("takes the person out of their groups and requests; their chat messages stay, signed with the anonymised name", async () => {
    const person = await newPerson({ firstName: "Gwen" });
    const group = await su.collection("groups").create({
      name: "Anon",
      slug: `anon-${tag()}`,
      type: "team",
      locationDisplay: "hidden",
      visibility: "public",
      joinPolicy: "request",
      rosterVisibility: "leaders",
      chatEnabled: true,
      status: "active",
    });
    const other = await su.collection("groups").create({
      name: "Anon 2",
      slug: `anon-${tag()}`,
      type: "team",
      locationDisplay: "hidden",
      visibility: "public",
      joinPolicy: "request",
      rosterVisibility: "leaders",
      chatEnabled: true,
      status: "active",
    });
    await su
      .collection("group_members")
      .create({ group: group.id, person: person.id, role: "leader", status: "active" });
    await su
      .collection("group_join_requests")
      .create({ group: other.id, person: person.id, message: "I'm Gwen", status: "pending" });
    const message = await su.collection("group_messages").create({
      group: group.id,
      author: person.id,
      authorName: "Gwen Person",
      body: "Hello",
      clientKey: `anon-${tag()}`,
    });
    expect((await asUser(pastor).request(ANONYMIZE, { id: person.id })).errors).toBeUndefined();
    expect(await rowsOf("group_members", "person", person.id)).toEqual([]);
    expect(await rowsOf("group_join_requests", "person", person.id)).toEqual([]);
    expect((await su.collection("group_messages").getOne(message.id)).authorName).not.toContain("Gwen");
    expect((await su.collection("groups").getOne(group.id)).leaderNames).toEqual([]);
  });

  it("clears a household nobody is left in: address, photo and name", async () => {
    const household = await su
      .collection("households")
      .create({ name: `Solo${tag()} household`, photo: fileOf(pngBytes(), "home.png", "image/png") });
    await su.collection("addresses").create({
      household: household.id,
      street1: "2 Side St",
      city: "Springfield",
      country: "US",
      visibility: "private",
    });
    const person = await newPerson({ household: household.id, householdRole: "head" });
    const photoUrl = await fileUrl(pastor, household, household.photo as string);
    expect((await fetch(photoUrl)).status).toBe(200);
    expect((await asUser(pastor).request(ANONYMIZE, { id: person.id })).errors).toBeUndefined();
    expect(await rowsOf("addresses", "household", household.id)).toEqual([]);
    expect(await su.collection("households").getOne(household.id)).toMatchObject({
      photo: "",
      name: "Former household",
    });
    expect((await fetch(photoUrl)).status).toBe(404);
  });

  it("refuses to anonymise the caller's own record", async () => {
    expect(errorCode(await asUser(pastor).request(ANONYMIZE, { id: pastor.personId }))).toBe("CONFLICT");
  });
});

describe("my data export", () => {
  const download = (cookie?: string) =>
    fetch(
      `${baseUrl}/me/data/export.zip`,
      cookie ? { headers: { cookie: `${SESSION.cookieName}=${encodeURIComponent(cookie)}` } } : {},
    );

  it("zips data.json and the user's files, read with their own token", async () => {
    const photo = pngBytes(6, 6, [200, 30, 30]);
    const householdPhoto = pngBytes(5, 5, [30, 200, 30]);
    const household = await su
      .collection("households")
      .create({ name: `Export${tag()} household`, photo: fileOf(householdPhoto, "home.png", "image/png") });
    await su.collection("addresses").create({
      household: household.id,
      street1: "3 Export Rd",
      city: "Springfield",
      country: "US",
      visibility: "members",
    });
    const user = await createUser({ name: "Esther Export" });
    await su.collection("people").update(user.personId!, {
      firstName: "Esther",
      lastName: "Export",
      household: household.id,
      householdRole: "head",
      photo: fileOf(photo, "esther.png", "image/png"),
    });
    const child = await newPerson({ firstName: "Eli", household: household.id, householdRole: "child" });
    const email = await addEmail(user.personId!, uniqueEmail("esther"), true, "members");
    const phone = await addPhone(user.personId!, uniquePhone(), true, "private");
    await su
      .collection("person_private")
      .create({ person: user.personId!, birthDate: "1990-02-03 00:00:00.000Z" });
    const post = await su.collection("posts").create({
      title: "Esther writes",
      slug: `esther-${tag()}`,
      body: "Hi",
      status: "published",
      audience: "public",
      author: user.id,
      authorName: "Esther",
      revision: 1,
    });

    const response = await download(user.token);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(response.headers.get("content-disposition")).toMatch(
      /^attachment; filename="[a-z0-9-]+-my-data-\d{4}-\d{2}-\d{2}\.zip"$/,
    );

    const zip = unzipSync(new Uint8Array(await response.arrayBuffer()));
    const data = JSON.parse(strFromU8(zip["data.json"]!)) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
    expect(Date.parse(data.exportedAt)).not.toBeNaN();
    expect(data.about).toContain("data.json");
    expect(data.account).toMatchObject({ id: user.id, email: user.email, name: "Esther Export" });
    expect(data.person).toMatchObject({ id: user.personId, firstName: "Esther", lastName: "Export" });
    expect(data.private.birthDate).toMatch(/^1990-02-03/);
    expect(data.birthday).toMatchObject({ month: 2, day: 3 });
    expect(data.emails.map((e: { email: string }) => e.email)).toEqual([email.email]);
    expect(data.phones.map((p: { number: string }) => p.number)).toEqual([phone.number]);
    expect(data.household).toMatchObject({ id: household.id, address: { street1: "3 Export Rd" } });
    expect(data.household.people.map((p: { id: string }) => p.id).sort()).toEqual(
      [user.personId, child.id].sort(),
    );
    expect(data.postsAuthored).toEqual([
      expect.objectContaining({ id: post.id, title: "Esther writes", status: "published" }),
    ]);
    expect(JSON.stringify(data)).not.toContain("tokenHash");

    expect(Buffer.from(zip[data.files["person-photo"]]!)).toEqual(photo);
    expect(Buffer.from(zip[data.files["household-photo"]]!)).toEqual(householdPhoto);
    expect(Object.keys(zip).filter((p) => p.startsWith("files/"))).toHaveLength(2);
  });

  it("needs the session cookie", async () => {
    expect((await download()).status).toBe(401);
    expect((await download("not-a-token")).status).toBe(401);
    // A bearer token is not a way in: the route is for the browser's own session.
    const bearer = await fetch(`${baseUrl}/me/data/export.zip`, {
      headers: { authorization: `Bearer ${member.token}` },
    });
    expect(bearer.status).toBe(401);
  });
});
