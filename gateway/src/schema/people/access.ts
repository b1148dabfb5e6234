import type { GatewayContext } from "../../context.ts";
import { forbidden, notFound, payloadTooLarge, unsupportedFileType } from "../../errors.ts";
import type { HouseholdRecord, PersonRecord, UserRecord, VisibilityValue } from "../../pocketbase/records.ts";
import { LIMITS } from "@flock/shared/limits";
import { requireViewer } from "../../access/guards.ts";
import { householdCan, personCan } from "../../access/people.ts";
import { loadersOf } from "./loaders.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";

/** A person the caller may see, else NOT_FOUND (hidden and missing look the same). */
export async function requirePerson(ctx: GatewayContext, id: string): Promise<PersonRecord> {
  const person = await loadersOf(ctx).person.load(id);
  if (!person) throw notFound();
  return person;
}

export async function requireHousehold(ctx: GatewayContext, id: string): Promise<HouseholdRecord> {
  const household = await loadersOf(ctx).household.load(id);
  if (!household) throw notFound();
  return household;
}

/**
 * A person the caller may see and edit. The edit check mirrors the rules so that a refused write
 * fails before any look-up that could reveal hidden rows (a second primary email, say); PocketBase's
 * rules still decide the write itself.
 */
export async function requireEditablePerson(
  ctx: GatewayContext,
  id: string,
): Promise<{ viewer: UserRecord; person: PersonRecord }> {
  const viewer = await requireViewer(ctx);
  const person = await requirePerson(ctx, id);
  if (!personCan(viewer, person).edit) throw forbidden();
  return { viewer, person };
}

export async function requireEditableHousehold(
  ctx: GatewayContext,
  id: string,
): Promise<{ viewer: UserRecord; household: HouseholdRecord }> {
  const viewer = await requireViewer(ctx);
  const household = await requireHousehold(ctx, id);
  if (!householdCan(viewer, household).edit) throw forbidden();
  return { viewer, household };
}

/**
 * Write as the caller. PocketBase answers a write its rule refuses with 404 (update, delete of a record
 * the caller can read) or a bare 400 (create): the caller lacks the right, so FORBIDDEN. Field errors
 * pass through as BAD_USER_INPUT.
 */
export function writeAs<T>(run: () => Promise<T>, fieldAliases?: Record<string, string>): Promise<T> {
  return writeAsCaller(run, fieldAliases);
}

/** The church's default for new contact rows (settings.directoryDefaultVisibility). */
export async function defaultVisibility(ctx: GatewayContext): Promise<VisibilityValue> {
  const settings = await ctx.publicSettings.get();
  return settings.directoryDefaultVisibility || "private";
}

/**
 * An uploaded photo, checked (JPEG, PNG, WebP or GIF; ≤ 10 MB) and copied into a native File:
 * Yoga's File is not a Blob on Node 20 and the SDK would silently drop it (STACK.md).
 * PocketBase sniffs the bytes too, and refuses a file whose content is not what it claims.
 */
export async function photoUpload(file: File): Promise<File> {
  if (!(LIMITS.imageMimeTypes as readonly string[]).includes(file.type))
    throw unsupportedFileType(["JPEG", "PNG", "WebP", "GIF"]);
  if (file.size > LIMITS.imageMaxBytes) throw payloadTooLarge(LIMITS.imageMaxBytes);
  return new File([await file.arrayBuffer()], (file.name || "photo").slice(-200), { type: file.type });
}
