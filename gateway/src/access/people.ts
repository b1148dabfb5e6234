import type { PersonRecord, UserRecord } from "../pocketbase/records.ts";
import { can } from "./abilities.ts";

/*
 * People's policy: people, households and their contact rows (pb_migrations/1732200000_people.js).
 * Feature-wide: viewPeople (the staff screens) and managePeople in abilities.ts. The record checks
 * mirror people.updateRule and households.updateRule so that screens hide what would be refused and
 * a refused write fails before any look-up that could reveal hidden rows; the rules still decide.
 */

/** What the caller may do with one person (`Person.can`). */
export interface PersonCan {
  edit: boolean;
  manage: boolean;
}

/** What the caller may do with one household (`Household.can`). */
export interface HouseholdCan {
  edit: boolean;
  manage: boolean;
}

/** The caller is an active adult of the household (the rules open a household to its active people only). */
function isActiveAdultOf(user: UserRecord | null, householdId: string): boolean {
  const me = user?.expand?.person;
  return (
    !!me &&
    !!householdId &&
    me.recordStatus === "active" &&
    me.household === householdId &&
    me.ageGroup === "adult"
  );
}

/**
 * edit: themselves, a child or youth of their household when they are an active adult of it (never
 * another adult: their details are theirs alone), or anyone with managePeople. manage (staff's
 * processes: approval, merge, archive, anonymisation, moves between households, contact rows on the
 * staff screens): managePeople, while the record is not anonymised (nothing is left to change).
 */
export function personCan(
  user: UserRecord | null,
  person: Pick<PersonRecord, "id" | "household" | "ageGroup" | "anonymizedAt">,
): PersonCan {
  if (!user) return { edit: false, manage: false };
  const staff = can(user, "managePeople");
  return {
    edit:
      staff ||
      user.person === person.id ||
      (isActiveAdultOf(user, person.household) && (person.ageGroup || "adult") !== "adult"),
    manage: staff && !person.anonymizedAt,
  };
}

/**
 * edit (name, photo, address, invitations, adding a child): an active adult of it, or managePeople.
 * manage (moving people in and out, their household roles: the staff screen): managePeople.
 */
export function householdCan(user: UserRecord | null, household: { id: string }): HouseholdCan {
  const staff = can(user, "managePeople");
  return { edit: staff || isActiveAdultOf(user, household.id), manage: staff };
}

/** The directory's Contact relay: the sender must be an active member (their own person). */
export const maySendContactMessages = (user: UserRecord | null) =>
  user?.expand?.person?.recordStatus === "active";

/**
 * Whether a person the sender can see may be written to through the relay: listed in the directory,
 * active, never a child (the sender may see them, so refusing reveals nothing new).
 */
export const isContactable = (person: Pick<PersonRecord, "ageGroup" | "inDirectory" | "recordStatus">) =>
  person.ageGroup !== "child" && !!person.inDirectory && person.recordStatus === "active";
