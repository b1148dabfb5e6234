import type { GatewayContext } from "../../context.ts";
import { badUserInput, forbidden, pbCall } from "../../errors.ts";
import type { PersonBirthdayRecord, PersonPrivateRecord, PersonRecord } from "../../pocketbase/records.ts";
import type { NewPersonInput, PersonInput } from "../__generated__/types.ts";
import { requireViewer } from "../../access/guards.ts";
import { can } from "../../access/abilities.ts";
import { householdCan } from "../../access/people.ts";
import {
  defaultVisibility,
  photoUpload,
  requireEditablePerson,
  requireHousehold,
  requirePerson,
  writeAs,
} from "./access.ts";
import { loadersOf } from "./loaders.ts";
import { dateOnly, viewerPerson } from "./mappers.ts";
import {
  householdWouldLackAdult,
  NO_ADULT_MESSAGE,
  predictAgeGroup,
  validateNewPerson,
  validatePersonInput,
} from "./validate-people.ts";

const noAdult = (field: string) =>
  badUserInput({ [field]: { code: "household_without_adult", message: NO_ADULT_MESSAGE } });

/** The person's birth-date row, read fresh as the caller (null when none or hidden). */
async function privateRowOf(ctx: GatewayContext, personId: string): Promise<PersonPrivateRecord | null> {
  const rows = await pbCall(() =>
    ctx.pb.collection("person_private").getList<PersonPrivateRecord>(1, 1, {
      filter: ctx.pb.filter("person = {:id}", { id: personId }),
      skipTotal: true,
    }),
  );
  return rows.items[0] ?? null;
}

/**
 * Refuse a change that would leave a household with people but no adult: moving someone in or out,
 * making them a child, or giving them a birth date that makes them a minor. `field` names the input
 * that caused it.
 */
async function checkHouseholdsKeepAnAdult(
  ctx: GatewayContext,
  person: PersonRecord,
  after: { household: string; ageGroup: string },
  field: string,
): Promise<void> {
  const loaders = loadersOf(ctx);
  if (after.household) {
    const members = await loaders.members.load(after.household);
    if (householdWouldLackAdult(members, { upsert: { id: person.id, ageGroup: after.ageGroup } }))
      throw noAdult(field);
  }
  if (person.household && person.household !== after.household) {
    const members = await loaders.members.load(person.household);
    if (householdWouldLackAdult(members, { removeId: person.id })) throw noAdult(field);
  }
}

/** Edit a person: names, birth date (and its visibility), directory opt-out; staff fields pass to the rules. */
export async function updatePerson(
  ctx: GatewayContext,
  id: string,
  input: PersonInput,
): Promise<PersonRecord> {
  const { person: data, birthDate, birthdayVisibility } = validatePersonInput(input);
  const { viewer, person } = await requireEditablePerson(ctx, id);
  const priv = await privateRowOf(ctx, id);

  if (birthdayVisibility && (birthDate === null || (birthDate === undefined && !priv))) {
    throw badUserInput({ birthdayVisibility: { code: "no_birth_date", message: "Add a birth date first." } });
  }
  const householdChanged = data.household !== undefined && data.household !== person.household;
  const roleChanged = data.householdRole !== undefined && data.householdRole !== person.householdRole;
  if (householdChanged || roleChanged || birthDate !== undefined) {
    const household = householdChanged ? (data.household as string) : person.household;
    if (householdChanged && household) await requireHousehold(ctx, household);
    const ageGroup = predictAgeGroup(
      birthDate === undefined ? dateOnly(priv?.birthDate) : birthDate,
      roleChanged ? (data.householdRole as string) : person.householdRole,
    );
    await checkHouseholdsKeepAnAdult(
      ctx,
      person,
      { household, ageGroup },
      householdChanged ? "householdId" : roleChanged ? "householdRole" : "birthDate",
    );
  }

  if (Object.keys(data).length) {
    await writeAs(() => ctx.pb.collection("people").update(id, data), { household: "householdId" });
  }
  if (birthDate === null && priv) {
    await writeAs(() => ctx.pb.collection("person_private").delete(priv.id));
  } else if (birthDate) {
    await writeAs(() =>
      priv
        ? ctx.pb.collection("person_private").update(priv.id, { birthDate })
        : ctx.pb.collection("person_private").create({ person: id, birthDate }),
    );
  }
  if (birthdayVisibility) {
    // The hook created or updated the month/day row with the birth date, in the same transaction.
    const row = await pbCall(() =>
      ctx.pb.collection("person_birthdays").getList<PersonBirthdayRecord>(1, 1, {
        filter: ctx.pb.filter("person = {:id}", { id }),
        skipTotal: true,
      }),
    );
    if (row.items[0])
      await writeAs(() =>
        ctx.pb.collection("person_birthdays").update(row.items[0]!.id, { visibility: birthdayVisibility }),
      );
  }

  const loaders = loadersOf(ctx);
  loaders.forgetPerson(id);
  for (const household of [person.household, data.household as string | undefined])
    if (household) loaders.forgetHousehold(household);
  // The viewer's own record is remembered briefly with their session; their name or household changed.
  if (viewer.person === id) ctx.viewerCache.forgetUser(viewer.id);
  return requirePerson(ctx, id);
}

/**
 * Staff create anyone. An active adult member adds a child to their own household (the rules allow
 * exactly that: role child, status active, no membership status).
 */
export async function createPerson(ctx: GatewayContext, input: NewPersonInput): Promise<PersonRecord> {
  const data = validateNewPerson(input);
  const viewer = await requireViewer(ctx);
  let householdId = data.householdId;
  let householdRole = data.householdRole;
  if (!can(viewer, "managePeople")) {
    householdId ??= viewerPerson(viewer)?.household || null;
    // Adding a child is editing one's household (householdCan); nothing else is theirs to set.
    if (
      !householdId ||
      !householdCan(viewer, { id: householdId }).edit ||
      data.membershipStatus ||
      (householdRole && householdRole !== "child")
    ) {
      throw forbidden();
    }
    householdRole = "child";
  }
  const loaders = loadersOf(ctx);
  if (householdId) {
    await requireHousehold(ctx, householdId);
    const members = await loaders.members.load(householdId);
    if (
      householdWouldLackAdult(members, {
        upsert: { id: "", ageGroup: predictAgeGroup(data.birthDate, householdRole) },
      })
    )
      throw noAdult("householdId");
  }

  const created = await writeAs(
    () =>
      ctx.pb.collection("people").create<PersonRecord>({
        ...data.person,
        household: householdId ?? "",
        householdRole: householdRole ?? "",
        recordStatus: "active",
        ...(data.membershipStatus ? { membershipStatus: data.membershipStatus } : {}),
      }),
    { household: "householdId" },
  );
  if (data.birthDate)
    await writeAs(() =>
      ctx.pb.collection("person_private").create({ person: created.id, birthDate: data.birthDate }),
    );
  if (data.email || data.phone) {
    const visibility = await defaultVisibility(ctx);
    if (data.email)
      await writeAs(() =>
        ctx.pb
          .collection("person_emails")
          .create({ person: created.id, email: data.email, isPrimary: true, visibility }),
      );
    if (data.phone)
      await writeAs(() =>
        ctx.pb
          .collection("person_phones")
          .create({ person: created.id, number: data.phone, isPrimary: true, visibility }),
      );
  }
  if (householdId) loaders.forgetHousehold(householdId);
  return requirePerson(ctx, created.id);
}

/** Upload or (with null) remove a person's photo. */
export async function setPersonPhoto(
  ctx: GatewayContext,
  id: string,
  file: File | null | undefined,
): Promise<PersonRecord> {
  const upload = file ? await photoUpload(file) : null;
  await requireEditablePerson(ctx, id);
  await writeAs(() => ctx.pb.collection("people").update(id, { photo: upload }));
  loadersOf(ctx).forgetPerson(id);
  return requirePerson(ctx, id);
}
