/**
 * The member-facing people module through GraphQL against a real PocketBase: profile editing, field
 * errors (PRODUCT.md §6), household invitations by mail, the directory's "Contact" relay (the
 * recipient's address never reaches the sender), its rate limit, protected photos through /files,
 * and the staff list with its CSV export.
 */
import { createHash, randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Gateway } from "../src/index.ts";
import { SESSION, THROTTLE } from "@flock/shared/limits";
import { linkFrom, waitForMail, type CaughtMail } from "../../scripts/lib/smtp-catcher.ts";
import {
  createUser,
  CSRF_HEADER,
  errorCode,
  expectRateLimited,
  signUpAndSignIn,
  fileOf,
  GqlClient,
  multipartBody,
  pngBytes,
  system,
  testGateway,
  uniqueEmail,
  type GqlResult,
  type RoleName,
  type TestUser,
  catcherUrl,
} from "./helpers.ts";
import {
  PeopleAddEmailDocument,
  PeopleAddPhoneDocument,
  PeopleCanEditDocument,
  PeopleContactDocument,
  PeopleCreatePersonDocument,
  PeopleCsvDocument,
  PeopleEmailsDocument,
  PeopleInviteDocument,
  PeopleListDocument,
  PeoplePersonDocument,
  PeopleRevokeInvitationDocument,
  PeopleSetAddressDocument,
  PeopleSignUpDocument,
  PeopleUpdatePersonDocument,
} from "./__generated__/operations.ts";

let gateway: Gateway;
let baseUrl: string;
let su: PocketBase;

const tag = () => randomUUID().replace(/-/g, "").slice(0, 8);
let ipCounter = 0;
/** Each client its own IP, so the per-IP form throttles of one test do not reach another. */
const as = (user: TestUser | null) =>
  new GqlClient(gateway, { token: user?.token, ip: `198.51.100.${++ipCounter % 250}` });
const catcher = () => catcherUrl();

/** Arrange (system client, test data only): households and their people. */
const newHousehold = async (name = `Household ${tag()}`) =>
  (await su.collection("households").create({ name })).id;

async function memberOf(
  household: string,
  fields: Record<string, unknown> = {},
  options: { person?: "active" | "pending"; roles?: RoleName[] } = {},
) {
  const user = await createUser({ person: options.person ?? "active", roles: options.roles });
  await su.collection("people").update(user.personId!, {
    firstName: "Test",
    lastName: `Member${tag()}`,
    membershipStatus: "member",
    household,
    householdRole: "head",
    ...fields,
  });
  return user as TestUser & { personId: string };
}

const childOf = (household: string, fields: Record<string, unknown> = {}) =>
  su.collection("people").create({
    firstName: "Kid",
    lastName: `Child${tag()}`,
    recordStatus: "active",
    membershipStatus: "member",
    household,
    householdRole: "child",
    ...fields,
  });

// The operations are in ./operations/people.graphql (typed by npm run codegen); the uploads stay strings
// (multipartBody sends them as written).
const PERSON = PeoplePersonDocument;
const UPDATE_PERSON = PeopleUpdatePersonDocument;
const ADD_EMAIL = PeopleAddEmailDocument;
const ADD_PHONE = PeopleAddPhoneDocument;
const SET_ADDRESS = PeopleSetAddressDocument;
const CREATE_PERSON = PeopleCreatePersonDocument;
const INVITE = PeopleInviteDocument;
const REVOKE = PeopleRevokeInvitationDocument;
const SIGN_UP = PeopleSignUpDocument;
const CONTACT = PeopleContactDocument;
const SET_PERSON_PHOTO = `mutation($id: ID!, $file: File) { setPersonPhoto(id: $id, file: $file) { card: photoUrl thumb: photoUrl(size: THUMB) original: photoUrl(size: ORIGINAL) } }`;
const SET_HOUSEHOLD_PHOTO = `mutation($id: ID!, $file: File) { setHouseholdPhoto(id: $id, file: $file) { card: photoUrl thumb: photoUrl(size: THUMB) } }`;

const fieldErrors = (result: Pick<GqlResult, "errors">) =>
  result.errors?.[0]?.extensions?.fieldErrors as Record<string, string> | undefined;

beforeAll(async () => {
  gateway = await testGateway();
  baseUrl = await gateway.listen();
  su = await system();
});
afterAll(() => gateway.close());

describe("my profile", () => {
  it("edits names, birth date and its visibility, emails, phones and the address; others see only what was shared", async () => {
    const household = await newHousehold();
    const anna = await memberOf(household, { firstName: "Anna", lastName: "Smith" });
    const neighbour = await memberOf(await newHousehold());
    const me = as(anna);

    const updated = await me.request(UPDATE_PERSON, {
      id: anna.personId,
      input: {
        firstName: "  Annabel ",
        lastName: "Smith-Jones",
        preferredName: "Bel",
        birthDate: "1985-04-12",
        birthdayVisibility: "MEMBERS",
      },
    });
    expect(updated.errors).toBeUndefined();
    expect(updated.data).toEqual({
      updatePerson: {
        firstName: "Annabel",
        lastName: "Smith-Jones",
        preferredName: "Bel",
        displayName: "Bel Smith-Jones",
        birthDate: "1985-04-12",
        ageGroup: "ADULT",
        birthday: { month: 4, day: 12, visibility: "MEMBERS" },
        canEdit: true,
      },
    });

    const email = await me.request(ADD_EMAIL, {
      p: anna.personId,
      input: { email: " Bel@Example.TEST ", visibility: "PRIVATE" },
    });
    expect(email.data).toMatchObject({
      addEmail: { email: "bel@example.test", isPrimary: true, visibility: "PRIVATE" },
    });
    const second = await me.request(ADD_EMAIL, {
      p: anna.personId,
      input: { email: "work@example.test", visibility: "MEMBERS" },
    });
    expect(second.data).toMatchObject({ addEmail: { isPrimary: false, visibility: "MEMBERS" } });
    const phone = await me.request(ADD_PHONE, {
      p: anna.personId,
      input: { number: "(202) 555-0143", kind: "MOBILE", visibility: "MEMBERS" },
    });
    expect(phone.data).toMatchObject({
      addPhone: {
        number: "+12025550143",
        formatted: "+1 202 555 0143",
        kind: "MOBILE",
        isPrimary: true,
        visibility: "MEMBERS",
      },
    });
    const address = await me.request(SET_ADDRESS, {
      h: household,
      input: { street1: "1 Main St", city: "Springfield", country: " us ", visibility: "MEMBERS" },
    });
    expect(address.data).toEqual({
      setAddress: {
        street1: "1 Main St",
        street2: null,
        city: "Springfield",
        country: "US",
        visibility: "MEMBERS",
      },
    });

    const own = (await me.execute(PERSON, { id: anna.personId })).data!.person;
    expect(own).toMatchObject({
      displayName: "Bel Smith-Jones",
      birthDate: "1985-04-12",
      canEdit: true,
      emails: [
        { email: "bel@example.test", isPrimary: true, visibility: "PRIVATE" },
        { email: "work@example.test", isPrimary: false, visibility: "MEMBERS" },
      ],
      phones: [{ number: "+12025550143", isPrimary: true }],
      household: { id: household, canEdit: true, address: { city: "Springfield", country: "US" } },
    });

    // Another listed member: the shared rows only; never the full birth date, never an edit button.
    const seen = await as(neighbour).execute(PERSON, { id: anna.personId });
    expect(seen.data!.person).toMatchObject({
      displayName: "Bel Smith-Jones",
      birthDate: null,
      birthday: { month: 4, day: 12 },
      canEdit: false,
      emails: [{ email: "work@example.test" }],
      phones: [{ number: "+12025550143" }],
      household: { canEdit: false, address: { city: "Springfield" } },
    });
    expect(JSON.stringify(seen)).not.toContain("bel@example.test");

    // Clearing the birth date removes the month and day too (the hook keeps them in step).
    const cleared = await me.request(UPDATE_PERSON, { id: anna.personId, input: { birthDate: null } });
    expect(cleared.data).toMatchObject({ updatePerson: { birthDate: null, birthday: null } });

    // Someone else's profile: refused, and nothing changed.
    const refused = await as(neighbour).request(UPDATE_PERSON, {
      id: anna.personId,
      input: { firstName: "Hacked" },
    });
    expect(errorCode(refused)).toBe("FORBIDDEN");
    // A member cannot give themselves staff fields: the rules refuse.
    const staffField = await me.request(UPDATE_PERSON, {
      id: anna.personId,
      input: { membershipStatus: "VISITOR" },
    });
    expect(errorCode(staffField)).toBe("FORBIDDEN");
    expect((await su.collection("people").getOne(anna.personId)).firstName).toBe("Annabel");
  });

  it("adults manage their household's children, never another adult's details", async () => {
    const household = await newHousehold();
    const parent = await memberOf(household, { firstName: "Hannah" });
    const spouse = await memberOf(household, { firstName: "Elkanah", householdRole: "spouse" });
    const child = await childOf(household, { firstName: "Samuel" });
    const canEdit = async (id: string) => {
      const person = (await as(parent).execute(PeopleCanEditDocument, { id })).data!.person!;
      // The deprecated canEdit says what can.edit says; a member manages nobody's record.
      expect(person.can).toEqual({ edit: person.canEdit, manage: false });
      return person.can.edit;
    };
    expect([await canEdit(parent.personId), await canEdit(spouse.personId), await canEdit(child.id)]).toEqual(
      [true, false, true],
    );

    const childEmail = await as(parent).request(ADD_EMAIL, {
      p: child.id,
      input: { email: uniqueEmail("samuel") },
    });
    expect(childEmail.errors).toBeUndefined();
    expect(
      errorCode(
        await as(parent).request(ADD_PHONE, { p: spouse.personId, input: { number: "+12025550150" } }),
      ),
    ).toBe("FORBIDDEN");
    expect(
      errorCode(
        await as(parent).request(UPDATE_PERSON, { id: spouse.personId, input: { directoryOptOut: false } }),
      ),
    ).toBe("FORBIDDEN");
    const renamed = await as(parent).request(
      `mutation($id: ID!) { updateHousehold(id: $id, input: { name: "The Ramah household" }) { name canEdit } }`,
      { id: household },
    );
    expect(renamed.data).toEqual({ updateHousehold: { name: "The Ramah household", canEdit: true } });
  });

  it("adults add a child to their own household; the child is listed nowhere", async () => {
    const household = await newHousehold();
    const parent = await memberOf(household, { firstName: "Paula" });
    const created = await as(parent).execute(CREATE_PERSON, {
      input: { firstName: "Tim", lastName: "Small", birthDate: `${new Date().getUTCFullYear() - 6}-01-15` },
    });
    expect(created.errors).toBeUndefined();
    expect(created.data!.createPerson).toMatchObject({
      ageGroup: "CHILD",
      householdRole: "CHILD",
      household: { id: household },
    });
    const child = await su.collection("people").getOne(created.data!.createPerson.id);
    expect(child).toMatchObject({ recordStatus: "active", inDirectory: false, membershipStatus: "" });
    // Members add children only.
    expect(
      errorCode(
        await as(parent).request(CREATE_PERSON, {
          input: { firstName: "Adult", lastName: "Friend", householdRole: "SPOUSE" },
        }),
      ),
    ).toBe("FORBIDDEN");
  });
});

describe("bad input comes back as field errors (PRODUCT.md §6)", () => {
  let anna: TestUser & { personId: string };
  let pastor: TestUser;
  let emptyHousehold: string;
  let soloAdult: TestUser & { personId: string };
  let soloHousehold: string;

  beforeAll(async () => {
    anna = await memberOf(await newHousehold());
    await su.collection("person_emails").create({
      person: anna.personId,
      email: uniqueEmail("primary"),
      isPrimary: true,
      visibility: "private",
    });
    pastor = await createUser({ roles: ["Pastor"] });
    emptyHousehold = await newHousehold();
    soloHousehold = await newHousehold();
    soloAdult = await memberOf(soloHousehold);
    await childOf(soloHousehold);
  });

  const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  const cases: Array<[string, () => Promise<GqlResult>, string]> = [
    [
      "an invalid email",
      () => as(anna).request(ADD_EMAIL, { p: anna.personId, input: { email: "not-an-email" } }),
      "email",
    ],
    [
      "an invalid phone",
      () => as(anna).request(ADD_PHONE, { p: anna.personId, input: { number: "12345" } }),
      "number",
    ],
    [
      "a birth date in the future",
      () => as(anna).request(UPDATE_PERSON, { id: anna.personId, input: { birthDate: tomorrow() } }),
      "birthDate",
    ],
    [
      "an impossible birth date",
      () => as(anna).request(UPDATE_PERSON, { id: anna.personId, input: { birthDate: "1990-02-30" } }),
      "birthDate",
    ],
    [
      "a household without an adult (a child as its first person)",
      () =>
        as(pastor).request(CREATE_PERSON, {
          input: {
            firstName: "Lonely",
            lastName: "Child",
            householdId: emptyHousehold,
            householdRole: "CHILD",
          },
        }),
      "householdId",
    ],
    [
      "a household without an adult (its only adult moves out)",
      () =>
        as(pastor).request(UPDATE_PERSON, { id: soloAdult.personId, input: { householdId: emptyHousehold } }),
      "householdId",
    ],
    [
      "a household without an adult (its only adult becomes a child)",
      () => as(pastor).request(UPDATE_PERSON, { id: soloAdult.personId, input: { householdRole: "CHILD" } }),
      "householdRole",
    ],
    [
      "a second primary email",
      () =>
        as(anna).request(ADD_EMAIL, {
          p: anna.personId,
          input: { email: uniqueEmail("second"), isPrimary: true },
        }),
      "isPrimary",
    ],
    [
      "an empty first name",
      () => as(anna).request(UPDATE_PERSON, { id: anna.personId, input: { firstName: "   " } }),
      "firstName",
    ],
    [
      "a country that is not a code",
      () =>
        as(anna).request(SET_ADDRESS, {
          h: soloHousehold,
          input: { street1: "x", city: "y", country: "USA" },
        }),
      "country",
    ],
  ];

  it.each(cases)("%s", async (_, run, field) => {
    const result = await run();
    expect(errorCode(result)).toBe("BAD_USER_INPUT");
    expect(Object.keys(fieldErrors(result) ?? {})).toEqual([field]);
  });

  it("wrote nothing for the refused input", async () => {
    expect(
      await su
        .collection("person_emails")
        .getFullList({ filter: su.filter("person = {:p}", { p: anna.personId }) }),
    ).toHaveLength(1);
    expect(
      await su
        .collection("person_phones")
        .getFullList({ filter: su.filter("person = {:p}", { p: anna.personId }) }),
    ).toHaveLength(0);
    expect(
      await su
        .collection("people")
        .getFullList({ filter: su.filter("household = {:h}", { h: emptyHousehold }) }),
    ).toHaveLength(0);
    expect((await su.collection("people").getOne(soloAdult.personId)).household).toBe(soloHousehold);
  });

  it("the same email twice on one person is a conflict on the email field", async () => {
    const email = uniqueEmail("twice");
    await as(anna).request(ADD_EMAIL, { p: anna.personId, input: { email } });
    const again = await as(anna).request(ADD_EMAIL, {
      p: anna.personId,
      input: { email: email.toUpperCase() },
    });
    expect(errorCode(again)).toBe("CONFLICT");
    expect(fieldErrors(again)).toHaveProperty("email");
  });
});

describe("household invitations", () => {
  const tokenFrom = (mail: CaughtMail) =>
    new URL(linkFrom(mail, "/signup?invite=")).searchParams.get("invite")!;
  const signUp = (email: string, inviteToken?: string) =>
    as(null).execute(SIGN_UP, {
      input: {
        firstName: "Ruth",
        lastName: "Moab",
        email,
        password: "a long enough secret",
        passwordConfirm: "a long enough secret",
        inviteToken,
      },
    });

  it("mails a sign-up link; signing up with it joins the household as a pending spouse", async () => {
    const household = await newHousehold(`Invited ${tag()}`);
    const inviter = await memberOf(household, { firstName: "Naomi", lastName: "Bethlehem" });
    const email = uniqueEmail("invitee");

    const invited = await as(inviter).execute(INVITE, { h: household, email, name: "Ruth" });
    expect(invited.data).toMatchObject({ inviteToHousehold: { email, name: "Ruth", status: "PENDING" } });
    const listed = await as(inviter).request(
      `query($h: ID!) { household(id: $h) { invitations { email status } } }`,
      { h: household },
    );
    expect(listed.data).toEqual({ household: { invitations: [{ email, status: "PENDING" }] } });

    const mail = await waitForMail(catcher(), email, /invited you to join/);
    expect(mail.text).toContain("Naomi Bethlehem");
    expect(linkFrom(mail, "/signup?invite=")).toMatch(
      /^http:\/\/flock\.test\/signup\?invite=[A-Za-z0-9_-]{43}$/,
    );
    const token = tokenFrom(mail);
    // Only the token's hash is stored.
    const stored = await su.collection("household_invitations").getOne(invited.data!.inviteToHousehold.id);
    expect(stored.tokenHash).toBe(createHash("sha256").update(token).digest("hex"));

    const wrong = await signUp(uniqueEmail("guesser"), "not-a-real-invitation-token-at-all");
    expect(errorCode(wrong)).toBe("BAD_USER_INPUT");
    expect(Object.keys(fieldErrors(wrong) ?? {})).toEqual(["inviteToken"]);

    const joined = await signUpAndSignIn(gateway, {
      firstName: "Ruth",
      lastName: "Moab",
      email,
      inviteToken: token,
    });
    // Household access opens with staff approval: until then the pending person sees only themselves.
    expect(joined.person).toMatchObject({
      recordStatus: "PENDING",
      householdRole: "SPOUSE",
      household: null,
    });
    expect(await su.collection("people").getOne(joined.person.id)).toMatchObject({
      household,
      householdRole: "spouse",
      recordStatus: "pending",
    });
    expect((await su.collection("household_invitations").getOne(stored.id)).status).toBe("accepted");
    // The sign-up email became the person's primary, private email row.
    const rows = await su
      .collection("person_emails")
      .getFullList({ filter: su.filter("person = {:p}", { p: joined.person.id }) });
    expect(rows.map((r) => [r.email, r.isPrimary, r.visibility])).toEqual([[email, true, "private"]]);

    // A token works once.
    const reused = await signUp(uniqueEmail("second"), token);
    expect(Object.keys(fieldErrors(reused) ?? {})).toEqual(["inviteToken"]);
  });

  it("a revoked invitation's link no longer works; other households cannot revoke", async () => {
    const household = await newHousehold();
    const inviter = await memberOf(household);
    const stranger = await memberOf(await newHousehold());
    const email = uniqueEmail("revoked");
    const invited = await as(inviter).execute(INVITE, { h: household, email, name: "Orpah" });
    const token = tokenFrom(await waitForMail(catcher(), email, /invited you to join/));

    expect(errorCode(await as(stranger).request(REVOKE, { id: invited.data!.inviteToHousehold.id }))).toBe(
      "NOT_FOUND",
    );
    expect(
      errorCode(await as(stranger).request(INVITE, { h: household, email: uniqueEmail(), name: "X" })),
    ).toBe("FORBIDDEN");
    const revoked = await as(inviter).request(REVOKE, { id: invited.data!.inviteToHousehold.id });
    expect(revoked.data).toMatchObject({ revokeHouseholdInvitation: { status: "REVOKED" } });
    expect(Object.keys(fieldErrors(await signUp(email, token)) ?? {})).toEqual(["inviteToken"]);
  });

  it("refuses an invalid invitee email and a missing name", async () => {
    const inviter = await memberOf(await newHousehold());
    const me = await su.collection("people").getOne(inviter.personId);
    const result = await as(inviter).request(INVITE, { h: me.household, email: "nope", name: " " });
    expect(fieldErrors(result)).toEqual({ email: expect.any(String), name: expect.any(String) });
  });
});

describe("contact a member through the directory", () => {
  async function listedRecipient(firstName: string) {
    const recipient = await memberOf(await newHousehold(), { firstName, lastName: "Recipient" });
    const address = uniqueEmail(firstName.toLowerCase());
    await su
      .collection("person_emails")
      .create({ person: recipient.personId, email: address, isPrimary: true, visibility: "private" });
    return { recipient, address };
  }

  it("delivers the message with Reply-To = the sender; the address appears in no GraphQL response", async () => {
    const sender = await memberOf(await newHousehold(), { firstName: "Sally", lastName: "Sender" });
    const { recipient, address } = await listedRecipient("Rita");
    const message = "Would you like to join our Tuesday Bible study? <b>bring a friend</b>";

    const sent = await as(sender).request(CONTACT, { id: recipient.personId, message });
    expect(sent.errors).toBeUndefined();
    expect(sent.data).toEqual({ contactPerson: true });
    const mail = await waitForMail(catcher(), address, /sent you a message/);
    expect(mail.replyTo).toContain(sender.email);
    expect(mail.subject).toContain("Sally Sender");
    expect(mail.text).toContain(message);
    expect(mail.html).not.toContain("<b>bring");

    // Whatever the sender asks for, the private address never comes back.
    const responses = [
      sent,
      await as(sender).request(PERSON, { id: recipient.personId }),
      await as(sender).request(
        `{ directory(first: 100) { edges { node { members { emails { email } user { email } } } } } }`,
      ),
    ];
    for (const response of responses) expect(JSON.stringify(response)).not.toContain(address);
  });

  it("tells the recipient what is true for their choices: whether the sender can see the address the message came to", async () => {
    const sender = await memberOf(await newHousehold(), { firstName: "Sam", lastName: "Sender" });
    const { recipient: hidden, address: hiddenAddress } = await listedRecipient("Hilda");
    expect(
      (await as(sender).request(CONTACT, { id: hidden.personId, message: "Hello Hilda" })).errors,
    ).toBeUndefined();
    const hiddenMail = await waitForMail(catcher(), hiddenAddress, /sent you a message/);
    expect(hiddenMail.text).toContain("This email address was not shown to them.");
    expect(hiddenMail.text).not.toContain("can see this email address");

    const shared = await memberOf(await newHousehold(), { firstName: "Sheila", lastName: "Shared" });
    const sharedAddress = uniqueEmail("sheila");
    await su
      .collection("person_emails")
      .create({ person: shared.personId, email: sharedAddress, isPrimary: true, visibility: "members" });
    // The sender really sees it on the card…
    const card = await as(sender).execute(PeopleEmailsDocument, { id: shared.personId });
    expect(card.data!.person!.emails.map((e) => e.email)).toEqual([sharedAddress]);
    // …so the mail must not claim otherwise.
    expect(
      (await as(sender).request(CONTACT, { id: shared.personId, message: "Hello Sheila" })).errors,
    ).toBeUndefined();
    const sharedMail = await waitForMail(catcher(), sharedAddress, /sent you a message/);
    expect(sharedMail.text).not.toContain("not shown");
    expect(sharedMail.text).toContain("They can see this email address on your directory card");
  });

  it("refuses pending senders, hidden or unlisted recipients and empty messages", async () => {
    const sender = await memberOf(await newHousehold());
    const pending = await memberOf(await newHousehold(), {}, { person: "pending" });
    const { recipient } = await listedRecipient("Rhoda");
    const household = await newHousehold();
    const child = await childOf(household);
    await memberOf(household);
    const ownHousehold = (await su.collection("people").getOne(sender.personId)).household as string;
    const ownChild = await childOf(ownHousehold);

    expect(errorCode(await as(pending).request(CONTACT, { id: recipient.personId, message: "hi" }))).toBe(
      "FORBIDDEN",
    );
    expect(errorCode(await as(null).request(CONTACT, { id: recipient.personId, message: "hi" }))).toBe(
      "UNAUTHENTICATED",
    );
    expect(errorCode(await as(sender).request(CONTACT, { id: child.id, message: "hi" }))).toBe("NOT_FOUND");
    expect(errorCode(await as(sender).request(CONTACT, { id: ownChild.id, message: "hi" }))).toBe(
      "FORBIDDEN",
    );
    const empty = await as(sender).request(CONTACT, { id: recipient.personId, message: "  " });
    expect(Object.keys(fieldErrors(empty) ?? {})).toEqual(["message"]);
  });

  it(`allows ${THROTTLE.contactPerSenderPerHour} messages per sender per hour, then RATE_LIMITED`, async () => {
    const sender = await memberOf(await newHousehold());
    const { recipient, address } = await listedRecipient("Ruby");
    for (let i = 1; i <= THROTTLE.contactPerSenderPerHour; i++) {
      expect(
        (await as(sender).request(CONTACT, { id: recipient.personId, message: `Message ${i}` })).data,
      ).toEqual({ contactPerson: true });
    }
    const limited = await as(sender).request(CONTACT, { id: recipient.personId, message: "One too many" });
    expectRateLimited(limited);
    // Delivery is synchronous with the mutation: every accepted message is caught already.
    const caught = (await (
      await fetch(`${catcher()}/messages?to=${encodeURIComponent(address)}`)
    ).json()) as CaughtMail[];
    expect(caught.filter((m) => m.replyTo.includes(sender.email))).toHaveLength(
      THROTTLE.contactPerSenderPerHour,
    );
    // Another sender is not affected.
    const other = await memberOf(await newHousehold());
    expect((await as(other).request(CONTACT, { id: recipient.personId, message: "Hello" })).data).toEqual({
      contactPerson: true,
    });
  });
});

describe("protected photos through /files", () => {
  let parent: TestUser & { personId: string };
  let neighbour: TestUser & { personId: string };
  let childId: string;
  let urls: {
    parent: { card: string; thumb: string; original: string };
    child: { card: string };
    household: { card: string; thumb: string };
  };

  const upload = (user: TestUser, query: string, id: string) =>
    as(user).request<Record<string, Record<string, string>>>(
      query,
      {},
      {
        body: multipartBody(query, "file", fileOf(pngBytes(8, 8), "me.png", "image/png"), "me.png", { id }),
        headers: { [CSRF_HEADER]: "1" },
      },
    );
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${baseUrl}${path}`, { headers });
  const cookie = (user: TestUser) => ({ cookie: `${SESSION.cookieName}=${encodeURIComponent(user.token)}` });

  beforeAll(async () => {
    const household = await newHousehold();
    parent = await memberOf(household, { firstName: "Pat" });
    neighbour = await memberOf(await newHousehold());
    childId = (await childOf(household)).id;
    const own = await upload(parent, SET_PERSON_PHOTO, parent.personId);
    const child = await upload(parent, SET_PERSON_PHOTO, childId);
    const home = await upload(parent, SET_HOUSEHOLD_PHOTO, household);
    expect([own.errors, child.errors, home.errors]).toEqual([undefined, undefined, undefined]);
    urls = {
      parent: own.data!.setPersonPhoto! as never,
      child: child.data!.setPersonPhoto! as never,
      household: home.data!.setHouseholdPhoto! as never,
    };
  });

  it("builds /files URLs with the declared thumbnails", () => {
    expect(urls.parent.card).toMatch(new RegExp(`^/files/people/${parent.personId}/[^?]+\\?thumb=400x400$`));
    expect(urls.parent.thumb).toMatch(/\?thumb=96x96$/);
    expect(urls.parent.original).not.toContain("?");
    expect(urls.household.card).toMatch(/^\/files\/households\/[a-z0-9]+\/[^?]+\?thumb=400x300$/);
  });

  it("a listed member loads another listed member's photos (cookie or bearer), privately cached", async () => {
    for (const path of [urls.parent.card, urls.parent.thumb, urls.parent.original, urls.household.card]) {
      const response = await get(path, cookie(neighbour));
      expect(response.status, path).toBe(200);
      expect(response.headers.get("content-type")).toBe("image/png");
      expect(response.headers.get("cache-control")).toBe("private, max-age=300");
    }
    expect((await get(urls.parent.card, { authorization: `Bearer ${neighbour.token}` })).status).toBe(200);
  });

  it("anonymous visitors cannot load them", async () => {
    for (const path of [urls.parent.card, urls.parent.original, urls.household.card]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
    }
  });

  it("a member cannot load a child's photo from another household; the child's own household can", async () => {
    expect((await get(urls.child.card, cookie(neighbour))).status).toBe(404);
    expect((await get(urls.child.card, cookie(parent))).status).toBe(200);
  });

  it("removes a photo with null, and refuses what is not an image", async () => {
    const notImage = await as(parent).request(
      SET_PERSON_PHOTO,
      {},
      {
        body: multipartBody(
          SET_PERSON_PHOTO,
          "file",
          fileOf(new TextEncoder().encode("<svg/>"), "x.svg", "image/svg+xml"),
          "x.svg",
          { id: parent.personId },
        ),
        headers: { [CSRF_HEADER]: "1" },
      },
    );
    expect(errorCode(notImage)).toBe("UNSUPPORTED_FILE_TYPE");
    const removed = await as(parent).request(SET_PERSON_PHOTO, { id: parent.personId, file: null });
    expect(removed.data).toEqual({ setPersonPhoto: { card: null, thumb: null, original: null } });
  });
});

describe("staff list and CSV export", () => {
  const PEOPLE = PeopleListDocument;

  it("filters by name or email, pages by last and first name, and exports formula-safe CSV", async () => {
    const t = tag();
    const household = await newHousehold();
    const people = [
      await su.collection("people").create({
        firstName: "Zed",
        lastName: `Alpha${t}`,
        recordStatus: "active",
        membershipStatus: "member",
        household,
        householdRole: "head",
      }),
      await su.collection("people").create({
        firstName: '=HYPERLINK("x")',
        lastName: `Beta${t}`,
        recordStatus: "active",
        membershipStatus: "visitor",
        household,
      }),
      await su.collection("people").create({
        firstName: "Amy",
        lastName: `Beta${t}`,
        recordStatus: "archived",
        membershipStatus: "member",
        household,
      }),
    ];
    const email = uniqueEmail(`csv${t}`);
    await su
      .collection("person_emails")
      .create({ person: people[0]!.id, email, isPrimary: true, visibility: "private" });
    await su
      .collection("person_phones")
      .create({ person: people[0]!.id, number: "+12025550199", isPrimary: true, visibility: "private" });
    await su.collection("person_private").create({ person: people[0]!.id, birthDate: "1970-01-02" });
    const careTeam = await createUser({ roles: ["Care Team"] });
    const staff = as(careTeam);

    const first = await staff.execute(PEOPLE, {
      first: 2,
      filter: { search: t },
    });
    expect(first.data!.people.totalCount).toBe(3);
    expect(first.data!.people.edges.map((e) => e.node.firstName)).toEqual(["Zed", '=HYPERLINK("x")']);
    const next = await staff.execute(PEOPLE, {
      first: 2,
      after: first.data!.people.pageInfo.endCursor,
      filter: { search: t },
    });
    expect(next.data!.people.edges.map((e) => e.node.firstName)).toEqual(["Amy"]);
    expect(next.data!.people.pageInfo.hasNextPage).toBe(false);

    const byEmail = await staff.execute(PEOPLE, { filter: { search: email } });
    expect(byEmail.data!.people.edges.map((e) => e.node.id)).toEqual([people[0]!.id]);
    const filtered = await staff.execute(PEOPLE, {
      filter: { search: t, membershipStatus: ["MEMBER"], recordStatus: ["ACTIVE"], ageGroup: ["ADULT"] },
    });
    expect(filtered.data!.people.edges.map((e) => e.node.firstName)).toEqual(["Zed"]);

    const csv = (await staff.execute(PeopleCsvDocument, { f: { search: t } })).data!.peopleCsv;
    const lines = csv.trimEnd().split("\r\n");
    expect(lines[0]).toBe(
      "id,firstName,lastName,preferredName,membershipStatus,recordStatus,ageGroup,household,email,phone,birthDate",
    );
    expect(lines).toHaveLength(4);
    const householdName = (await su.collection("households").getOne(household)).name;
    expect(lines[1]).toBe(
      `${people[0]!.id},Zed,Alpha${t},,member,active,adult,${householdName},${email},'+12025550199,1970-01-02`,
    );
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"")"`);

    const member = await memberOf(await newHousehold());
    expect(errorCode(await as(member).request(PEOPLE, {}))).toBe("FORBIDDEN");
    expect(errorCode(await as(member).request(`{ peopleCsv }`))).toBe("FORBIDDEN");
    expect(errorCode(await as(null).request(PEOPLE, {}))).toBe("UNAUTHENTICATED");
  });
});
