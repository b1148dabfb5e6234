import type { HouseholdRecord, PersonRecord, UserRecord, VisibilityValue } from "../../pocketbase/records.ts";
import type { PhotoSize } from "../__generated__/types.ts";

/** Unset select values ("") as GraphQL shows them: a default, or null (the enums map PocketBase values, schema/enum-values.ts). */
export const toVisibility = (value: VisibilityValue | "") => value || "private";
export const toAgeGroup = (value: PersonRecord["ageGroup"]) => value || "adult";
export const toHouseholdRole = (value: PersonRecord["householdRole"]) => value || null;
export const toMembershipStatus = (value: PersonRecord["membershipStatus"]) => value || null;

/** "Preferred (or first) name and last name". */
export const displayName = (p: Pick<PersonRecord, "firstName" | "lastName" | "preferredName">) =>
  `${p.preferredName?.trim() || p.firstName} ${p.lastName}`.trim();

/** Only the date part of a PocketBase date ("1980-05-06 00:00:00.000Z" → "1980-05-06"), or null. */
export const dateOnly = (pbDate: string | null | undefined) => (pbDate ? pbDate.slice(0, 10) : null);

// Thumb sizes are the ones declared on the file fields (pb_migrations/1732200000_people.js): PocketBase
// only renders declared sizes.
const PERSON_THUMBS: Record<PhotoSize, string> = { THUMB: "96x96", CARD: "400x400", ORIGINAL: "" };
const HOUSEHOLD_THUMBS: Record<PhotoSize, string> = { THUMB: "96x96", CARD: "400x300", ORIGINAL: "" };

/** A photo through the gateway's /files proxy, which adds the caller's file token (protected files). */
function photoUrl(
  collection: "people" | "households",
  id: string,
  file: string,
  thumb: string,
): string | null {
  if (!file) return null;
  return `/files/${collection}/${id}/${encodeURIComponent(file)}${thumb ? `?thumb=${thumb}` : ""}`;
}
export const personPhotoUrl = (p: Pick<PersonRecord, "id" | "photo">, size: PhotoSize = "CARD") =>
  photoUrl("people", p.id, p.photo, PERSON_THUMBS[size]);
export const householdPhotoUrl = (h: Pick<HouseholdRecord, "id" | "photo">, size: PhotoSize = "CARD") =>
  photoUrl("households", h.id, h.photo, HOUSEHOLD_THUMBS[size]);

/** The viewer's own person record (expanded on the viewer), if any. */
export const viewerPerson = (viewer: UserRecord | null): PersonRecord | null =>
  viewer?.expand?.person ?? null;

const AGE_ORDER: Record<string, number> = { adult: 0, youth: 1, child: 2 };

/** Household members as the schema promises: adults first, then youth and children, each by first name. */
export function byAgeThenFirstName(a: PersonRecord, b: PersonRecord): number {
  const age = (AGE_ORDER[a.ageGroup || "adult"] ?? 0) - (AGE_ORDER[b.ageGroup || "adult"] ?? 0);
  if (age !== 0) return age;
  return (
    (a.preferredName || a.firstName).localeCompare(b.preferredName || b.firstName) || a.id.localeCompare(b.id)
  );
}

/** Primary first, then oldest first (the order a person added them). */
export function primaryFirst<T extends { isPrimary: boolean; created: string; id: string }>(
  a: T,
  b: T,
): number {
  if (a.isPrimary !== b.isPrimary) return a.isPrimary ? -1 : 1;
  return a.created.localeCompare(b.created) || a.id.localeCompare(b.id);
}
