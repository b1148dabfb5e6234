import type { PersonRecord, VisibilityValue } from "../../pocketbase/records.ts";
import { LIMITS } from "@flock/shared/limits";
import { toE164 } from "../../validation/phone.ts";
import { Validator } from "../../validation/validate.ts";
import type {
  AddressInput,
  EmailInput,
  HouseholdInput,
  NewPersonInput,
  PersonInput,
  PhoneInput,
  Visibility,
} from "../__generated__/types.ts";

/**
 * Input checks for the people mutations (PRODUCT.md §6). Each returns the values to write and throws
 * BAD_USER_INPUT with every field's problem before any PocketBase call.
 */

const BIRTH_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const EARLIEST_BIRTH_YEAR = 1900;
const CHILD_UNTIL = 13;
const ADULT_FROM = 18;

export type AgeGroupValue = "adult" | "youth" | "child";

/** Today as YYYY-MM-DD in UTC. */
export const todayUtc = (now = new Date()) => now.toISOString().slice(0, 10);

/** Checks a YYYY-MM-DD birth date: a real calendar day, not before 1900 and not in the future. */
export function checkBirthDate(v: Validator, field: string, value: string, today = todayUtc()): string {
  const trimmed = value.trim();
  const m = BIRTH_DATE.exec(trimmed);
  const [year, month, day] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
  const date = new Date(Date.UTC(year, month - 1, day));
  if (
    !m ||
    date.getUTCFullYear() !== year ||
    date.getUTCMonth() !== month - 1 ||
    date.getUTCDate() !== day ||
    year < EARLIEST_BIRTH_YEAR
  ) {
    v.add(field, "invalid_date", "Enter a valid date (YYYY-MM-DD).");
  } else if (trimmed > today) {
    v.add(field, "date_in_future", "A birth date can't be in the future.");
  }
  return trimmed;
}

/**
 * The age group pb_hooks/lib/people.js will derive (kept in step with it): from the birth date when
 * known, else a household "child" counts as a child and anyone else as an adult.
 */
export function predictAgeGroup(
  birthDate: string | null | undefined,
  householdRole: string | null | undefined,
  today = todayUtc(),
): AgeGroupValue {
  const m = BIRTH_DATE.exec(birthDate?.slice(0, 10) ?? "");
  if (!m) return householdRole === "child" ? "child" : "adult";
  const [ty, tm, td] = today.split("-").map(Number) as [number, number, number];
  let age = ty - Number(m[1]);
  if (tm < Number(m[2]) || (tm === Number(m[2]) && td < Number(m[3]))) age -= 1;
  if (age < CHILD_UNTIL) return "child";
  if (age < ADULT_FROM) return "youth";
  return "adult";
}

export interface HouseholdMember {
  id: string;
  ageGroup: string;
}

/**
 * PRODUCT.md §6 "a household without an adult": true when, after `change`, the household still has
 * people but none of them is an adult. `change` adds or replaces one person (with the age group they
 * will have) and/or removes one. An empty household is fine (it is being set up or emptied).
 */
export function householdWouldLackAdult(
  members: HouseholdMember[],
  change: { upsert?: HouseholdMember; removeId?: string },
): boolean {
  const after = members.filter((m) => m.id !== change.removeId && m.id !== change.upsert?.id);
  if (change.upsert) after.push(change.upsert);
  return after.length > 0 && !after.some((m) => (m.ageGroup || "adult") === "adult");
}

export const NO_ADULT_MESSAGE = "A household needs at least one adult. Add an adult to this household first.";

const visibilityOf = (value: Visibility | null | undefined): VisibilityValue | undefined =>
  value ?? undefined;

function names(
  v: Validator,
  input: { firstName?: string | null; lastName?: string | null; preferredName?: string | null },
  partial: boolean,
) {
  const out: Partial<Pick<PersonRecord, "firstName" | "lastName" | "preferredName">> = {};
  if (!partial || input.firstName !== undefined)
    out.firstName = v.text("firstName", input.firstName, { required: true, max: LIMITS.personNameMax });
  if (!partial || input.lastName !== undefined)
    out.lastName = v.text("lastName", input.lastName, { required: true, max: LIMITS.personNameMax });
  if (input.preferredName !== undefined)
    out.preferredName = v.text("preferredName", input.preferredName, { max: LIMITS.personNameMax });
  return out;
}

/** updatePerson: only the fields given change; `birthDate: null` clears the birth date. */
export function validatePersonInput(input: PersonInput, today = todayUtc()) {
  const v = new Validator();
  const person: Record<string, unknown> = names(v, input, true);
  if (input.directoryOptOut != null) person.directoryOptOut = input.directoryOptOut;
  // Staff-only fields pass through: people.updateRule refuses them for anyone else.
  if (input.membershipStatus !== undefined) person.membershipStatus = input.membershipStatus || "";
  if (input.recordStatus != null) person.recordStatus = input.recordStatus;
  if (input.householdId !== undefined) person.household = input.householdId ?? "";
  if (input.householdRole !== undefined) person.householdRole = input.householdRole || "";
  const birthDate =
    input.birthDate === undefined
      ? undefined
      : input.birthDate === null || !input.birthDate.trim()
        ? null
        : checkBirthDate(v, "birthDate", input.birthDate, today);
  v.done();
  return { person, birthDate, birthdayVisibility: visibilityOf(input.birthdayVisibility) };
}

export function validateNewPerson(input: NewPersonInput, today = todayUtc()) {
  const v = new Validator();
  const person = names(v, input, false) as Pick<PersonRecord, "firstName" | "lastName"> & {
    preferredName?: string;
  };
  const birthDate = input.birthDate?.trim() ? checkBirthDate(v, "birthDate", input.birthDate, today) : null;
  const email = input.email?.trim() ? v.email("email", input.email) : null;
  let phone: string | null = null;
  if (input.phone?.trim()) {
    phone = toE164(input.phone);
    if (!phone)
      v.add(
        "phone",
        "invalid_phone",
        "Enter a valid phone number, with the country code if it is not local.",
      );
  }
  v.done();
  return {
    person,
    birthDate,
    email,
    phone,
    householdId: input.householdId ?? null,
    householdRole: input.householdRole || null,
    membershipStatus: input.membershipStatus || null,
  };
}

export function validateEmailInput(input: EmailInput) {
  const v = new Validator();
  const email = v.email("email", input.email);
  v.done();
  return { email, isPrimary: input.isPrimary ?? undefined, visibility: visibilityOf(input.visibility) };
}

export function validatePhoneInput(input: PhoneInput) {
  const v = new Validator();
  const typed = v.text("number", input.number, { required: true, max: LIMITS.phoneMax });
  const number = typed ? toE164(typed) : null;
  if (typed && !number)
    v.add("number", "invalid_phone", "Enter a valid phone number, with the country code if it is not local.");
  v.done();
  return {
    number: number!,
    kind: input.kind || undefined,
    isPrimary: input.isPrimary ?? undefined,
    visibility: visibilityOf(input.visibility),
  };
}

export function validateAddressInput(input: AddressInput) {
  const v = new Validator();
  const address = {
    street1: v.text("street1", input.street1, { required: true, max: LIMITS.streetMax }),
    street2: v.text("street2", input.street2, { max: LIMITS.streetMax }),
    city: v.text("city", input.city, { required: true, max: LIMITS.cityMax }),
    region: v.text("region", input.region, { max: LIMITS.regionMax }),
    postalCode: v.text("postalCode", input.postalCode, { max: LIMITS.postalCodeMax }),
    country: v
      .text("country", input.country, { required: true, max: LIMITS.countryCodeLength })
      .toUpperCase(),
  };
  if (address.country && !/^[A-Z]{2}$/.test(address.country))
    v.add("country", "invalid_country", "Use the two-letter country code, for example US.");
  v.done();
  return { ...address, visibility: visibilityOf(input.visibility) };
}

export function validateHouseholdInput(input: HouseholdInput, opts: { requireName: boolean }) {
  const v = new Validator();
  const data: { name?: string; directoryOptOut?: boolean } = {};
  if (opts.requireName || input.name !== undefined)
    data.name = v.text("name", input.name, { required: true, max: LIMITS.householdNameMax });
  if (input.directoryOptOut != null) data.directoryOptOut = input.directoryOptOut;
  v.done();
  return data;
}

export function validateInvitation(email: string, name: string) {
  const v = new Validator();
  const address = v.email("email", email);
  const invitee = v.text("name", name, { required: true, max: LIMITS.invitationNameMax });
  v.done();
  return { email: address, name: invitee };
}

export function validateContactMessage(message: string) {
  const v = new Validator();
  const text = v.text("message", message, {
    required: true,
    min: LIMITS.contactMessageMin,
    max: LIMITS.contactMessageMax,
  });
  v.done();
  return text;
}
