/**
 * Check-in fixtures for the integration tests: an operator (a role with checkin.operate only), rooms,
 * a session open now, and families with a parent who signs in, children with birth dates and care
 * notes, a phone number and a pickup list. Written by the system, as staff set-up would be.
 */
import { randomUUID } from "node:crypto";
import type PocketBase from "pocketbase";
import { createUser, system, type TestUser } from "./helpers.ts";

let deskRole: string | null = null;

/** A user whose only permission is checkin.operate (the check-in desk). */
export async function createOperator(): Promise<TestUser> {
  const su = await system();
  if (!deskRole) {
    const role = await su
      .collection("roles")
      .create({ name: `Check-in desk ${randomUUID().slice(0, 8)}`, permissions: ["checkin.operate"] });
    deskRole = role.id;
  }
  const user = await createUser();
  await su.collection("users").update(user.id, { roles: [deskRole] });
  return user;
}

export async function createRoom(
  su: PocketBase,
  fields: {
    name?: string;
    capacity?: number;
    ratio?: number;
    minAgeMonths?: number;
    maxAgeMonths?: number;
    requiresClearance?: boolean;
  } = {},
) {
  return su.collection("checkin_rooms").create({
    name: fields.name ?? `Room ${randomUUID().slice(0, 6)}`,
    active: true,
    sort: 10,
    ...fields,
  });
}

/** A session starting `startsInMinutes` from now (default: now), window 30 before / 15 after. */
export async function createSession(su: PocketBase, roomIds: string[], startsInMinutes = 0) {
  return su.collection("checkin_sessions").create({
    name: `Sunday ${randomUUID().slice(0, 6)}`,
    startsAt: new Date(Date.now() + startsInMinutes * 60_000).toISOString().replace("T", " "),
    opensMinutes: 30,
    closesMinutes: 15,
    rooms: roomIds,
  });
}

export interface Family {
  householdId: string;
  parent: TestUser;
  phone: string;
  children: { id: string; name: string }[];
}

/** A birth date `months` months ago (YYYY-MM-DD). */
export const monthsAgo = (months: number) => {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 10);
};

/**
 * A household: a parent (signed in), children of the given ages in months with their care notes, a
 * mobile number ending in its own 4 digits, and who may not pick up.
 */
export async function createFamily(
  children: { first: string; months: number; allergies?: string; medicalNotes?: string }[],
  options: { notAuthorized?: string; lastName?: string } = {},
): Promise<Family> {
  const su = await system();
  const lastName = options.lastName ?? `Fam${randomUUID().slice(0, 6)}`;
  const household = await su.collection("households").create({ name: `${lastName} household` });
  const parent = await createUser();
  await su
    .collection("people")
    .update(parent.personId!, { firstName: "Pat", lastName, household: household.id, householdRole: "head" });
  await su
    .collection("person_private")
    .create({ person: parent.personId, birthDate: "1985-04-02 00:00:00.000Z" });
  const phone = `+1555${String(Math.floor(Math.random() * 1e7)).padStart(7, "0")}`;
  await su.collection("person_phones").create({
    person: parent.personId,
    number: phone,
    kind: "mobile",
    isPrimary: true,
    visibility: "private",
  });
  const made = [];
  for (const child of children) {
    const person = await su.collection("people").create({
      firstName: child.first,
      lastName,
      household: household.id,
      householdRole: "child",
      recordStatus: "active",
    });
    await su
      .collection("person_private")
      .create({ person: person.id, birthDate: `${monthsAgo(child.months)} 00:00:00.000Z` });
    if (child.allergies || child.medicalNotes)
      await su.collection("person_care").create({
        person: person.id,
        allergies: child.allergies ?? "",
        medicalNotes: child.medicalNotes ?? "",
      });
    made.push({ id: person.id, name: `${child.first} ${lastName}` });
  }
  if (options.notAuthorized)
    await su.collection("pickup_authorizations").create({
      household: household.id,
      name: options.notAuthorized,
      relationship: "uncle",
      status: "not_authorized",
    });
  return { householdId: household.id, parent, phone, children: made };
}
