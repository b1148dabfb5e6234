/**
 * The people world used by authorization-people.int.test.ts: personas with logins, people without
 * logins (children, listed strangers, an archived person), their households, contact rows with every
 * visibility, birth dates, addresses, invitations and a visit request, plus photos to download.
 * Everything is made once with the system account; the checks only read it or write values back.
 */
import { createHash, randomBytes } from "node:crypto";
import type PocketBase from "pocketbase";
import {
  createUser,
  fileOf,
  PASSWORD,
  pngBytes,
  system,
  uniqueEmail,
  type RoleName,
  type TestUser,
} from "./helpers.ts";

/** Who acts. The child of another household has a record but no login; the member leads a group the other member is in. */
export const PERSONAS = [
  "anonymous",
  "pending",
  "member",
  "otherMember",
  "householdAdult",
  "editor",
  "careTeam",
  "pastor",
  "admin",
] as const;
export type Persona = (typeof PERSONAS)[number];

export const VISIBILITIES = ["private", "leaders", "groups", "members"] as const;
export type Visibility = (typeof VISIBILITIES)[number];

/**
 * People of the world. Households: A = member + householdAdult ("spouse", opted out of the directory
 * personally) + ownChild; B = otherMember + otherChild; E = the editor's (opted out as a household);
 * X = the archived person's (listed by nobody); V-<visibility> = one listed stranger each.
 */
export const PEOPLE = [
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
] as const;
export type PersonKey = (typeof PEOPLE)[number];

export const HOUSEHOLDS = ["A", "B", "E", "X", "Vprivate", "Vleaders", "Vgroups", "Vmembers"] as const;
export type HouseholdKey = (typeof HOUSEHOLDS)[number];

/** Contact rows (emails and phones) by owner and visibility. */
export const CONTACT_ROWS = {
  memberPrivate: ["member", "private"],
  memberMembers: ["member", "members"],
  spouseMembers: ["spouse", "members"],
  childMembers: ["ownChild", "members"],
  otherMemberPrivate: ["otherMember", "private"],
  otherMemberLeaders: ["otherMember", "leaders"],
  otherMemberGroups: ["otherMember", "groups"],
  otherMemberMembers: ["otherMember", "members"],
  otherChildMembers: ["otherChild", "members"],
  pendingMembers: ["pending", "members"],
  editorMembers: ["editor", "members"],
} as const satisfies Record<string, readonly [PersonKey, Visibility]>;
export type ContactRowKey = keyof typeof CONTACT_ROWS;

/** One birthday per person (month and day, derived from the birth date), with its visibility. */
export const BIRTHDAYS = {
  member: "private",
  spouse: "members",
  ownChild: "members",
  otherMember: "members",
  otherChild: "members",
  pending: "members",
  editor: "members",
  listedPrivate: "private",
  listedLeaders: "leaders",
  listedGroups: "groups",
  listedMembers: "members",
} as const satisfies Partial<Record<PersonKey, Visibility>>;
export type BirthdayKey = keyof typeof BIRTHDAYS;

/** One address per household. B has none: it is where the address create checks write. */
export const ADDRESSES = {
  A: "private",
  E: "members",
  X: "members",
  Vprivate: "private",
  Vleaders: "leaders",
  Vgroups: "groups",
  Vmembers: "members",
} as const satisfies Partial<Record<HouseholdKey, Visibility>>;
export type AddressKey = keyof typeof ADDRESSES;

export const INVITATIONS = { A: "A", B: "B" } as const;
export type InvitationKey = keyof typeof INVITATIONS;

export const PHOTO_PEOPLE = [
  "member",
  "spouse",
  "ownChild",
  "otherMember",
  "otherChild",
] as const satisfies readonly PersonKey[];
export const PHOTO_HOUSEHOLDS = ["A", "B", "E", "X"] as const satisfies readonly HouseholdKey[];

export interface PeopleWorld {
  /** A word in every fixture household's name and person's last name (GraphQL searches find exactly the world). */
  run: string;
  users: Record<Persona, TestUser | null>;
  person: Record<PersonKey, string>;
  household: Record<HouseholdKey, string>;
  emails: Record<ContactRowKey, string>;
  phones: Record<ContactRowKey, string>;
  birthdays: Record<BirthdayKey, string>;
  privates: Partial<Record<PersonKey, string>>;
  addresses: Record<AddressKey, string>;
  invitations: Record<InvitationKey, string>;
  visitRequest: string;
  /** File names of the protected photos. */
  personPhoto: Record<(typeof PHOTO_PEOPLE)[number], string>;
  householdPhoto: Record<(typeof PHOTO_HOUSEHOLDS)[number], string>;
}

/** YYYY-MM-DD, `years` before today (UTC): children stay children whenever the suite runs. */
export const yearsAgo = (years: number, monthDay = "03-14") => {
  const now = new Date();
  return `${now.getUTCFullYear() - years}-${monthDay}`;
};

/** A fresh invitation token hash (the gateway stores only SHA-256 hex of the mailed token). */
export const tokenHash = () => createHash("sha256").update(randomBytes(16)).digest("hex");

// A real (libphonenumber-valid) US number: area code 201, an exchange chosen per run, then a counter,
// so numbers never repeat within a run.
const phoneExchange = String(200 + Math.floor(Math.random() * 800));
let phoneCounter = 0;
/** A phone number no other row uses (E.164), valid for the gateway's phone validation too. */
export const uniquePhone = () => `+1201${phoneExchange}${String(phoneCounter++).padStart(4, "0")}`;

const photo = () => fileOf(pngBytes(), "photo.png", "image/png");

async function personaWithPerson(
  su: PocketBase,
  options: { roles?: RoleName[]; person?: "active" | "pending" },
  fields: Record<string, unknown>,
): Promise<TestUser> {
  const user = await createUser({ roles: options.roles, person: options.person ?? "active" });
  await su.collection("people").update(user.personId!, fields);
  return user;
}

export async function buildPeopleWorld(): Promise<PeopleWorld> {
  const su = await system();
  const run = `w${randomBytes(4).toString("hex")}`;
  const household = {} as Record<HouseholdKey, string>;
  const householdFields: Record<HouseholdKey, Record<string, unknown>> = {
    A: { name: `Adams ${run}`, photo: photo() },
    B: { name: `Brown ${run}`, photo: photo() },
    E: { name: `Evans ${run}`, photo: photo(), directoryOptOut: true },
    X: { name: `Xu ${run}`, photo: photo() },
    Vprivate: { name: `Private Visibility ${run}` },
    Vleaders: { name: `Leaders Visibility ${run}` },
    Vgroups: { name: `Groups Visibility ${run}` },
    Vmembers: { name: `Members Visibility ${run}` },
  };
  for (const key of HOUSEHOLDS)
    household[key] = (await su.collection("households").create(householdFields[key])).id;

  const member = { membershipStatus: "member", recordStatus: "active" };
  const [pending, memberUser, otherMember, householdAdult, editor, careTeam, pastor, admin] =
    await Promise.all([
      personaWithPerson(su, { person: "pending" }, { firstName: "Penny", lastName: `Pending ${run}` }),
      personaWithPerson(
        su,
        {},
        {
          ...member,
          firstName: "Mary",
          lastName: `Adams ${run}`,
          household: household.A,
          householdRole: "head",
          photo: photo(),
        },
      ),
      personaWithPerson(
        su,
        {},
        {
          ...member,
          firstName: "Oscar",
          lastName: `Brown ${run}`,
          household: household.B,
          householdRole: "head",
          photo: photo(),
        },
      ),
      personaWithPerson(
        su,
        {},
        {
          ...member,
          firstName: "Sam",
          lastName: `Adams ${run}`,
          household: household.A,
          householdRole: "spouse",
          directoryOptOut: true,
          photo: photo(),
        },
      ),
      personaWithPerson(
        su,
        { roles: ["Editor"] },
        {
          ...member,
          firstName: "Edith",
          lastName: `Evans ${run}`,
          household: household.E,
          householdRole: "head",
        },
      ),
      personaWithPerson(su, { roles: ["Care Team"] }, { firstName: "Carl", lastName: `Care ${run}` }),
      personaWithPerson(su, { roles: ["Pastor"] }, { firstName: "Paula", lastName: `Pastor ${run}` }),
      personaWithPerson(su, { roles: ["Administrator"] }, { firstName: "Ada", lastName: `Admin ${run}` }),
    ]);
  const users: Record<Persona, TestUser | null> = {
    anonymous: null,
    pending,
    member: memberUser,
    otherMember,
    householdAdult,
    editor,
    careTeam,
    pastor,
    admin,
  };

  const record = (fields: Record<string, unknown>) =>
    su.collection("people").create({ ...member, ...fields });
  const [ownChild, otherChild, archived, listedPrivate, listedLeaders, listedGroups, listedMembers] =
    await Promise.all([
      record({
        firstName: "Kim",
        lastName: `Adams ${run}`,
        household: household.A,
        householdRole: "child",
        photo: photo(),
      }),
      record({
        firstName: "Chloe",
        lastName: `Brown ${run}`,
        household: household.B,
        householdRole: "child",
        photo: photo(),
      }),
      record({
        firstName: "Arthur",
        lastName: `Xu ${run}`,
        household: household.X,
        householdRole: "head",
        recordStatus: "archived",
      }),
      record({
        firstName: "Lee",
        lastName: `Private ${run}`,
        household: household.Vprivate,
        householdRole: "head",
      }),
      record({
        firstName: "Lee",
        lastName: `Leaders ${run}`,
        household: household.Vleaders,
        householdRole: "head",
      }),
      record({
        firstName: "Lee",
        lastName: `Groups ${run}`,
        household: household.Vgroups,
        householdRole: "head",
      }),
      record({
        firstName: "Lee",
        lastName: `Members ${run}`,
        household: household.Vmembers,
        householdRole: "head",
      }),
    ]);
  const person: Record<PersonKey, string> = {
    pending: pending.personId!,
    member: memberUser.personId!,
    spouse: householdAdult.personId!,
    ownChild: ownChild.id,
    otherMember: otherMember.personId!,
    otherChild: otherChild.id,
    editor: editor.personId!,
    archived: archived.id,
    careTeam: careTeam.personId!,
    pastor: pastor.personId!,
    admin: admin.personId!,
    listedPrivate: listedPrivate.id,
    listedLeaders: listedLeaders.id,
    listedGroups: listedGroups.id,
    listedMembers: listedMembers.id,
  };

  // Full birth dates (pb_hooks derive the age group and create the month/day birthday row).
  const privates: Partial<Record<PersonKey, string>> = {};
  const birthDates: Partial<Record<PersonKey, string>> = {
    member: yearsAgo(40),
    spouse: yearsAgo(38),
    ownChild: yearsAgo(6, "05-04"),
    otherMember: yearsAgo(45),
    otherChild: yearsAgo(8, "09-12"),
    pending: yearsAgo(30),
    editor: yearsAgo(50),
    listedPrivate: yearsAgo(60),
    listedLeaders: yearsAgo(61),
    listedGroups: yearsAgo(62),
    listedMembers: yearsAgo(63),
  };
  for (const [key, birthDate] of Object.entries(birthDates) as Array<[PersonKey, string]>) {
    privates[key] = (await su.collection("person_private").create({ person: person[key], birthDate })).id;
  }
  const birthdays = {} as Record<BirthdayKey, string>;
  for (const [key, visibility] of Object.entries(BIRTHDAYS) as Array<[BirthdayKey, Visibility]>) {
    const row = await su
      .collection("person_birthdays")
      .getFirstListItem(su.filter("person = {:p}", { p: person[key] }));
    birthdays[key] = (await su.collection("person_birthdays").update(row.id, { visibility })).id;
  }

  const emails = {} as Record<ContactRowKey, string>;
  const phones = {} as Record<ContactRowKey, string>;
  for (const [key, [owner, visibility]] of Object.entries(CONTACT_ROWS) as Array<
    [ContactRowKey, readonly [PersonKey, Visibility]]
  >) {
    emails[key] = (
      await su
        .collection("person_emails")
        .create({ person: person[owner], email: uniqueEmail(key.toLowerCase()), visibility })
    ).id;
    phones[key] = (
      await su
        .collection("person_phones")
        .create({ person: person[owner], number: uniquePhone(), kind: "mobile", visibility })
    ).id;
  }

  const addresses = {} as Record<AddressKey, string>;
  for (const [key, visibility] of Object.entries(ADDRESSES) as Array<[AddressKey, Visibility]>) {
    addresses[key] = (
      await su.collection("addresses").create({
        household: household[key],
        street1: `1 ${key} Street`,
        city: "Springfield",
        country: "US",
        visibility,
      })
    ).id;
  }

  const invitation = (householdId: string, invitedBy: string) =>
    su.collection("household_invitations").create({
      household: householdId,
      email: uniqueEmail("invitee"),
      name: "Invited Adult",
      tokenHash: tokenHash(),
      invitedBy,
      status: "pending",
      expiresAt: new Date(Date.now() + 7 * 86_400_000).toISOString(),
    });
  const invitations: Record<InvitationKey, string> = {
    A: (await invitation(household.A, person.member)).id,
    B: (await invitation(household.B, person.otherMember)).id,
  };
  const visitRequest = (
    await su
      .collection("visit_requests")
      .create({ name: "Vera Visitor", email: uniqueEmail("visitor"), status: "new" })
  ).id;

  // A group: the member leads it, the other member is in it (their "leaders" and "groups" rows open to
  // the member; the member's household and everyone else stay outside).
  const group = await su.collection("groups").create({
    name: `Tuesday study ${run}`,
    slug: `tuesday-${run}`,
    type: "small_group",
    locationDisplay: "hidden",
    visibility: "public",
    joinPolicy: "request",
    rosterVisibility: "members",
    status: "active",
  });
  await su
    .collection("group_members")
    .create({ group: group.id, person: person.member, role: "leader", status: "active" });
  await su
    .collection("group_members")
    .create({ group: group.id, person: person.otherMember, role: "member", status: "active" });

  const personPhoto = {} as PeopleWorld["personPhoto"];
  for (const key of PHOTO_PEOPLE)
    personPhoto[key] = (await su.collection("people").getOne(person[key])).photo as string;
  const householdPhoto = {} as PeopleWorld["householdPhoto"];
  for (const key of PHOTO_HOUSEHOLDS)
    householdPhoto[key] = (await su.collection("households").getOne(household[key])).photo as string;

  return {
    run,
    users,
    person,
    household,
    emails,
    phones,
    birthdays,
    privates,
    addresses,
    invitations,
    visitRequest,
    personPhoto,
    householdPhoto,
  };
}

/** Checks the derived fields the matrix relies on, so a broken hook fails loudly instead of shifting cells. */
export async function assertWorldShape(world: PeopleWorld): Promise<Record<string, unknown>> {
  const su = await system();
  const people = await su.collection("people").getFullList({
    filter: Object.values(world.person)
      .map((id) => `id = "${id}"`)
      .join(" || "),
  });
  const byId = new Map(people.map((p) => [p.id, p]));
  const shape: Record<string, unknown> = {};
  for (const key of PEOPLE) {
    const p = byId.get(world.person[key])!;
    shape[key] = `${p.ageGroup}${p.inDirectory ? " listed" : ""}`;
  }
  for (const key of HOUSEHOLDS)
    shape[`household ${key}`] = (await su.collection("households").getOne(world.household[key])).inDirectory
      ? "listed"
      : "unlisted";
  return shape;
}

/**
 * A login to act *on* (link, delete), never as: created by the system account without signing in, with
 * its own person unless `person` is "none". Cheaper than createUser (one password hash, no sign-in).
 */
export async function targetLogin(
  options: { person?: "active" | "pending" | "archived" | "none"; roles?: RoleName[] } = {},
): Promise<{ id: string; personId: string | null }> {
  const su = await system();
  const roles = options.roles?.length
    ? await su
        .collection("roles")
        .getFullList({ filter: options.roles.map((r) => su.filter("name = {:n}", { n: r })).join(" || ") })
    : [];
  const status = options.person ?? "active";
  const person =
    status === "none"
      ? null
      : await su
          .collection("people")
          .create({ firstName: "Target", lastName: "Login", recordStatus: status });
  const email = uniqueEmail("target");
  const user = await su.collection("users").create({
    email,
    password: PASSWORD,
    passwordConfirm: PASSWORD,
    verified: true,
    person: person?.id ?? "",
    roles: roles.map((r) => r.id),
    status: "active",
  });
  if (person)
    await su
      .collection("person_emails")
      .create({ person: person.id, email, isPrimary: true, visibility: "private" });
  return { id: user.id, personId: person?.id ?? null };
}
