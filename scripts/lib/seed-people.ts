import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type PocketBase from "pocketbase";
import { ROOT } from "./pocketbase.ts";

type Visibility = "private" | "leaders" | "groups" | "members";
type Membership = "visitor" | "regular_attender" | "member" | "inactive";

interface SeedPerson {
  first: string;
  last?: string;
  preferred?: string;
  role: "head" | "spouse" | "child" | "other";
  /** Age in whole years today, and the birthday (MM-DD); children keep their age as the demo ages. */
  age?: number;
  birthday?: string;
  membership?: Membership;
  /** A demo login (scripts/lib/seed.ts) whose person this is. */
  login?: string;
  email?: [string, Visibility];
  phone?: [string, Visibility];
  birthdayVisibility?: Visibility;
  optOut?: boolean;
}

interface SeedHousehold {
  name: string;
  last: string;
  photo?: string;
  optOut?: boolean;
  address?: { street1: string; city: string; postalCode: string; visibility: Visibility };
  people: SeedPerson[];
}

// 15 households, 40 people: varied privacy choices, children, one household and one adult who opted
// out, an inactive member and regular attenders. Numbers are 555-01xx (reserved for fiction).
const HOUSEHOLDS: SeedHousehold[] = [
  {
    name: "The Member family",
    last: "Member",
    photo: "harvest-supper",
    address: { street1: "14 Oak Street", city: "Springfield", postalCode: "62704", visibility: "members" },
    people: [
      {
        first: "Mark",
        role: "head",
        login: "member@grace.example",
        age: 41,
        birthday: "03-14",
        membership: "member",
        email: ["mark.member@example.com", "private"],
        phone: ["+12175550101", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Maria",
        role: "spouse",
        age: 39,
        birthday: "07-02",
        membership: "member",
        email: ["maria.member@example.com", "members"],
        phone: ["+12175550102", "members"],
        birthdayVisibility: "members",
      },
      { first: "Mia", role: "child", age: 8, birthday: "11-30", membership: "member" },
    ],
  },
  {
    name: "The Pastor family",
    last: "Pastor",
    photo: "choir",
    address: {
      street1: "1202 Maple Avenue",
      city: "Springfield",
      postalCode: "62704",
      visibility: "members",
    },
    people: [
      {
        first: "Paul",
        role: "head",
        login: "pastor@grace.example",
        age: 52,
        birthday: "01-22",
        membership: "member",
        email: ["paul@grace.example", "members"],
        phone: ["+12175550103", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Priya",
        role: "spouse",
        age: 50,
        birthday: "09-09",
        membership: "member",
        email: ["priya.pastor@example.com", "members"],
        phone: ["+12175550104", "private"],
        birthdayVisibility: "members",
      },
      {
        first: "Peter",
        role: "child",
        age: 15,
        birthday: "05-17",
        membership: "member",
        birthdayVisibility: "members",
      },
      { first: "Pia", role: "child", age: 11, birthday: "12-03", membership: "member" },
    ],
  },
  {
    name: "Alice Admin",
    last: "Admin",
    people: [
      {
        first: "Alice",
        role: "head",
        login: "admin@grace.example",
        age: 45,
        birthday: "04-30",
        membership: "member",
        email: ["alice@grace.example", "members"],
        phone: ["+12175550105", "members"],
      },
    ],
  },
  {
    name: "Erin Editor",
    last: "Editor",
    address: {
      street1: "88 Birch Lane, Apt 3",
      city: "Springfield",
      postalCode: "62702",
      visibility: "private",
    },
    people: [
      {
        first: "Erin",
        role: "head",
        login: "editor@grace.example",
        age: 29,
        birthday: "08-21",
        membership: "member",
        email: ["erin@grace.example", "members"],
        birthdayVisibility: "private",
      },
    ],
  },
  {
    name: "The Okafor family",
    last: "Okafor",
    photo: "baptism",
    address: { street1: "305 Cedar Court", city: "Springfield", postalCode: "62711", visibility: "members" },
    people: [
      {
        first: "Chidi",
        role: "head",
        age: 44,
        birthday: "02-11",
        membership: "member",
        email: ["chidi.okafor@example.com", "members"],
        phone: ["+12175550106", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Ngozi",
        role: "spouse",
        age: 42,
        birthday: "06-25",
        membership: "member",
        email: ["ngozi.okafor@example.com", "members"],
        phone: ["+12175550107", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Amara",
        role: "child",
        age: 16,
        birthday: "10-04",
        membership: "member",
        email: ["amara.okafor@example.com", "private"],
      },
      { first: "Obinna", role: "child", age: 9, birthday: "01-15", membership: "member" },
      { first: "Ifeoma", role: "child", age: 5, birthday: "03-28", membership: "member" },
    ],
  },
  {
    name: "The García family",
    last: "García",
    address: { street1: "77 Elm Street", city: "Chatham", postalCode: "62629", visibility: "members" },
    people: [
      {
        first: "Luis",
        role: "head",
        age: 37,
        birthday: "12-12",
        membership: "member",
        email: ["luis.garcia@example.com", "members"],
        phone: ["+12175550108", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Sofía",
        role: "spouse",
        age: 36,
        birthday: "04-08",
        membership: "member",
        email: ["sofia.garcia@example.com", "private"],
        phone: ["+12175550109", "members"],
        birthdayVisibility: "private",
      },
      { first: "Mateo", role: "child", age: 7, birthday: "09-19", membership: "member" },
      { first: "Valentina", role: "child", age: 3, birthday: "02-02", membership: "member" },
    ],
  },
  {
    name: "The Nguyen family",
    last: "Nguyen",
    photo: "food-bank",
    address: { street1: "19 Walnut Drive", city: "Springfield", postalCode: "62707", visibility: "private" },
    people: [
      {
        first: "Thanh",
        preferred: "Tommy",
        role: "head",
        age: 58,
        birthday: "05-05",
        membership: "member",
        email: ["tommy.nguyen@example.com", "members"],
        phone: ["+12175550110", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Lan",
        role: "spouse",
        age: 56,
        birthday: "11-11",
        membership: "member",
        email: ["lan.nguyen@example.com", "members"],
        phone: ["+12175550111", "private"],
        birthdayVisibility: "members",
      },
      {
        first: "Minh",
        role: "child",
        age: 19,
        birthday: "02-27",
        membership: "member",
        email: ["minh.nguyen@example.com", "members"],
        birthdayVisibility: "members",
      },
    ],
  },
  {
    name: "The Johnson family",
    last: "Johnson",
    address: {
      street1: "402 Lincoln Avenue",
      city: "Springfield",
      postalCode: "62703",
      visibility: "members",
    },
    people: [
      {
        first: "Denise",
        role: "head",
        age: 48,
        birthday: "07-30",
        membership: "member",
        email: ["denise.johnson@example.com", "members"],
        phone: ["+12175550112", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Marcus",
        role: "child",
        age: 17,
        birthday: "08-08",
        membership: "regular_attender",
        phone: ["+12175550113", "private"],
      },
      { first: "Jada", role: "child", age: 12, birthday: "06-01", membership: "regular_attender" },
      {
        first: "Betty",
        last: "Morris",
        role: "other",
        age: 76,
        birthday: "12-31",
        membership: "member",
        phone: ["+12175550122", "members"],
        birthdayVisibility: "members",
      },
    ],
  },
  {
    name: "Ruth Abernathy",
    last: "Abernathy",
    address: { street1: "9 Willow Way", city: "Springfield", postalCode: "62704", visibility: "members" },
    people: [
      {
        first: "Ruth",
        role: "head",
        age: 83,
        birthday: "10-27",
        membership: "member",
        phone: ["+12175550114", "members"],
        birthdayVisibility: "members",
      },
    ],
  },
  {
    name: "The Kowalski family",
    last: "Kowalski",
    optOut: true,
    address: { street1: "560 Spruce Street", city: "Rochester", postalCode: "62563", visibility: "private" },
    people: [
      {
        first: "Jan",
        role: "head",
        age: 46,
        birthday: "03-03",
        membership: "member",
        email: ["jan.kowalski@example.com", "private"],
        phone: ["+12175550115", "private"],
      },
      {
        first: "Anna",
        role: "spouse",
        age: 44,
        birthday: "12-24",
        membership: "member",
        email: ["anna.kowalski@example.com", "private"],
      },
      { first: "Zofia", role: "child", age: 10, birthday: "04-14", membership: "member" },
    ],
  },
  {
    name: "The Bennett family",
    last: "Bennett",
    photo: "youth-camp",
    address: { street1: "23 Aspen Circle", city: "Springfield", postalCode: "62712", visibility: "members" },
    people: [
      {
        first: "Grace",
        role: "head",
        age: 34,
        birthday: "01-08",
        membership: "regular_attender",
        email: ["grace.bennett@example.com", "members"],
        phone: ["+12175550116", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Noah",
        role: "spouse",
        age: 35,
        birthday: "06-16",
        membership: "regular_attender",
        email: ["noah.bennett@example.com", "members"],
        birthdayVisibility: "private",
      },
      { first: "Ella", role: "child", age: 2, birthday: "09-30", membership: "regular_attender" },
    ],
  },
  {
    name: "Daniel Kim",
    last: "Kim",
    people: [
      {
        first: "Daniel",
        role: "head",
        age: 27,
        birthday: "02-19",
        membership: "member",
        email: ["daniel.kim@example.com", "members"],
        phone: ["+12175550117", "members"],
        birthdayVisibility: "members",
        optOut: true,
      },
    ],
  },
  {
    name: "The Schmidt family",
    last: "Schmidt",
    address: { street1: "1100 Chestnut Street", city: "Sherman", postalCode: "62684", visibility: "members" },
    people: [
      {
        first: "Helga",
        role: "head",
        age: 71,
        birthday: "05-23",
        membership: "member",
        email: ["helga.schmidt@example.com", "members"],
        phone: ["+12175550118", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Otto",
        role: "spouse",
        age: 74,
        birthday: "11-02",
        membership: "inactive",
        phone: ["+12175550119", "members"],
      },
    ],
  },
  {
    name: "The Adeyemi family",
    last: "Adeyemi",
    address: { street1: "61 Poplar Road", city: "Springfield", postalCode: "62704", visibility: "members" },
    people: [
      {
        first: "Tunde",
        role: "head",
        age: 39,
        birthday: "08-01",
        membership: "member",
        email: ["tunde.adeyemi@example.com", "members"],
        phone: ["+12175550120", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Funmi",
        role: "spouse",
        age: 38,
        birthday: "03-19",
        membership: "member",
        email: ["funmi.adeyemi@example.com", "members"],
        phone: ["+12175550121", "members"],
        birthdayVisibility: "members",
      },
      {
        first: "Kemi",
        role: "child",
        age: 14,
        birthday: "04-22",
        membership: "member",
        birthdayVisibility: "members",
      },
      { first: "Tobi", role: "child", age: 6, birthday: "07-07", membership: "member" },
    ],
  },
  {
    name: "Hannah Lee",
    last: "Lee",
    people: [
      {
        first: "Hannah",
        role: "head",
        age: 31,
        birthday: "10-10",
        membership: "regular_attender",
        email: ["hannah.lee@example.com", "members"],
        birthdayVisibility: "members",
      },
    ],
  },
];

/** Sign-ups waiting for staff: Nora matches a person staff entered from a visit card (same email). */
const PENDING_SIGNUPS = [
  { first: "Nora", last: "Quinn", email: "nora.quinn@example.com", matchesExisting: true },
  { first: "Sam", last: "Ortiz", email: "sam.ortiz@example.com", matchesExisting: false },
];

const VISITS = [
  {
    name: "Olivia Brooks",
    email: "olivia.brooks@example.com",
    phone: "+12175550130",
    daysAhead: 2,
    partySize: 4,
    message:
      "We just moved to Springfield with two kids (6 and 9). Is there a children's program during the 11:00 service?",
    status: "new",
  },
  {
    name: "Ben Carter",
    email: "ben.carter@example.com",
    phone: "",
    daysAhead: 9,
    partySize: 1,
    message: "I'd love to visit the midweek prayer evening.",
    status: "new",
  },
  {
    name: "The Patel family",
    email: "patel.family@example.com",
    phone: "+12175550131",
    daysAhead: -5,
    partySize: 3,
    message: "",
    status: "contacted",
  },
];

function birthDate(age: number, monthDay: string, today = new Date()): string {
  const [month, day] = monthDay.split("-").map(Number) as [number, number];
  const hadBirthday =
    today.getUTCMonth() + 1 > month || (today.getUTCMonth() + 1 === month && today.getUTCDate() >= day);
  const year = today.getUTCFullYear() - age - (hadBirthday ? 0 : 1);
  return `${year}-${monthDay} 00:00:00.000Z`;
}

/** A photo from scripts/seed-assets/ as an upload. */
export async function photo(name: string): Promise<File> {
  const bytes = await readFile(join(ROOT, "scripts", "seed-assets", `${name}.jpg`));
  return new File([new Uint8Array(bytes)], `${name}.jpg`, { type: "image/jpeg" });
}

/**
 * People and households of the demo church (system job, part of the one-time demo seed): 40 people in
 * 15 households with the demo logins among them, two pending sign-ups and three visit requests.
 */
export async function seedPeople(system: PocketBase, password: string): Promise<void> {
  const loginPerson = new Map<string, string>();
  for (const user of await system.collection("users").getFullList<{ email: string; person: string }>()) {
    if (user.person) loginPerson.set(user.email, user.person);
  }
  for (const seed of HOUSEHOLDS) {
    const household = await system.collection("households").create({
      name: seed.name,
      directoryOptOut: seed.optOut ?? false,
      ...(seed.photo ? { photo: await photo(seed.photo) } : {}),
    });
    if (seed.address) {
      const { visibility, ...address } = seed.address;
      await system
        .collection("addresses")
        .create({ household: household.id, ...address, region: "IL", country: "US", visibility });
    }
    for (const p of seed.people) {
      const fields = {
        firstName: p.first,
        lastName: p.last ?? seed.last,
        preferredName: p.preferred ?? "",
        household: household.id,
        householdRole: p.role,
        membershipStatus: p.membership ?? "member",
        recordStatus: "active",
        directoryOptOut: p.optOut ?? false,
      };
      const existing = p.login ? loginPerson.get(p.login) : undefined;
      const person = existing
        ? await system.collection("people").update(existing, fields)
        : await system.collection("people").create(fields);
      if (p.age !== undefined && p.birthday) {
        await system
          .collection("person_private")
          .create({ person: person.id, birthDate: birthDate(p.age, p.birthday) });
        const row = await system
          .collection("person_birthdays")
          .getFirstListItem(system.filter("person = {:id}", { id: person.id }));
        await system
          .collection("person_birthdays")
          .update(row.id, { visibility: p.birthdayVisibility ?? "private" });
      }
      if (p.email)
        await system
          .collection("person_emails")
          .create({ person: person.id, email: p.email[0], isPrimary: true, visibility: p.email[1] });
      if (p.phone)
        await system.collection("person_phones").create({
          person: person.id,
          number: p.phone[0],
          kind: "mobile",
          isPrimary: true,
          visibility: p.phone[1],
        });
    }
  }

  // Nora was entered by staff from a visit card before she signed up: approving her sign-up should
  // suggest linking to that record (same email).
  for (const signup of PENDING_SIGNUPS) {
    if (signup.matchesExisting) {
      const known = await system.collection("people").create({
        firstName: signup.first,
        lastName: signup.last,
        recordStatus: "active",
        membershipStatus: "visitor",
      });
      await system
        .collection("person_emails")
        .create({ person: known.id, email: signup.email, isPrimary: true, visibility: "private" });
    }
    const pending = await system
      .collection("people")
      .create({ firstName: signup.first, lastName: signup.last, recordStatus: "pending" });
    await system
      .collection("person_emails")
      .create({ person: pending.id, email: signup.email, isPrimary: true, visibility: "private" });
    await system.collection("users").create({
      email: signup.email,
      password,
      passwordConfirm: password,
      name: `${signup.first} ${signup.last}`,
      verified: true,
      person: pending.id,
      status: "active",
    });
  }

  for (const visit of VISITS) {
    const date = new Date(Date.now() + visit.daysAhead * 24 * 3600_000).toISOString().slice(0, 10);
    await system.collection("visit_requests").create({
      name: visit.name,
      email: visit.email,
      phone: visit.phone,
      plannedDate: `${date} 12:00:00.000Z`,
      partySize: visit.partySize,
      message: visit.message,
      status: visit.status,
    });
  }
}

/** Exported for tests of the seed's shape. */
export const SEED_SHAPE = {
  households: HOUSEHOLDS.length,
  people: HOUSEHOLDS.reduce((n, h) => n + h.people.length, 0),
  pendingSignups: PENDING_SIGNUPS.length,
};
