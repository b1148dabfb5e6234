import type { GraphQLError } from "graphql";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, fieldTaken, notFound, pbCall } from "../../errors.ts";
import type { AddressRecord, PersonEmailRecord, PersonPhoneRecord } from "../../pocketbase/records.ts";
import type { AddressInput, EmailInput, PhoneInput } from "../__generated__/types.ts";
import { defaultVisibility, requireEditableHousehold, requireEditablePerson, writeAs } from "./access.ts";
import { loadersOf } from "./loaders.ts";
import { validateAddressInput, validateEmailInput, validatePhoneInput } from "./validate-people.ts";

/**
 * Emails, phones and the household address: rows with their own visibility (PRODUCT.md §2). Every
 * read and write runs as the caller; the edit check comes first so that a caller who may not edit
 * the person learns nothing from the duplicate and primary checks.
 */

type RowCollection = "person_emails" | "person_phones";
type ContactRow = PersonEmailRecord | PersonPhoneRecord;

const KIND = {
  person_emails: { field: "email", noun: "email address", primaryNoun: "email" },
  person_phones: { field: "number", noun: "phone number", primaryNoun: "phone number" },
} as const;

const valueOf = (row: ContactRow) => ("email" in row ? row.email.toLowerCase() : row.number);

async function rowsOf<T extends ContactRow>(
  ctx: GatewayContext,
  collection: RowCollection,
  personId: string,
): Promise<T[]> {
  return pbCall(() =>
    ctx.pb
      .collection(collection)
      .getFullList<T>({ filter: ctx.pb.filter("person = {:id}", { id: personId }), sort: "created,id" }),
  );
}

async function requireRow<T>(ctx: GatewayContext, collection: string, id: string): Promise<T> {
  const page = await pbCall(() =>
    ctx.pb
      .collection(collection)
      .getList<T>(1, 1, { filter: ctx.pb.filter("id = {:id}", { id }), skipTotal: true }),
  );
  if (!page.items[0]) throw notFound();
  return page.items[0];
}

/** The same address or number twice on one person: CONFLICT, with the field to show it next to. */
function duplicate(collection: RowCollection): GraphQLError {
  const { field, noun } = KIND[collection];
  const message = `This ${noun} is already on this person's record.`;
  return fieldTaken(field, message);
}

/** Checks made before writing: no duplicate, at most one primary (PRODUCT.md §6). */
function checkRows(collection: RowCollection, others: ContactRow[], value: string, isPrimary: boolean): void {
  if (others.some((row) => valueOf(row) === value)) throw duplicate(collection);
  if (isPrimary && others.some((row) => row.isPrimary)) {
    const { primaryNoun } = KIND[collection];
    throw badUserInput({
      isPrimary: {
        code: "primary_exists",
        message: `This person already has a primary ${primaryNoun}. Make the other one not primary first.`,
      },
    });
  }
}

async function addRow<T extends ContactRow>(
  ctx: GatewayContext,
  collection: RowCollection,
  personId: string,
  data: { value: string; isPrimary?: boolean; visibility?: string; extra?: Record<string, unknown> },
): Promise<T> {
  await requireEditablePerson(ctx, personId);
  const rows = await rowsOf<T>(ctx, collection, personId);
  // A person's first email or phone is their primary one unless they say otherwise.
  const isPrimary = data.isPrimary ?? rows.length === 0;
  checkRows(collection, rows, data.value, isPrimary);
  const created = await writeAs(() =>
    ctx.pb.collection(collection).create<T>({
      person: personId,
      [KIND[collection].field]: data.value,
      isPrimary,
      ...data.extra,
      visibility: data.visibility ?? "",
    }),
  );
  loadersOf(ctx).forgetPerson(personId);
  return created;
}

async function updateRow<T extends ContactRow>(
  ctx: GatewayContext,
  collection: RowCollection,
  id: string,
  data: { value: string; isPrimary?: boolean; visibility?: string; extra?: Record<string, unknown> },
): Promise<T> {
  const row = await requireRow<T>(ctx, collection, id);
  await requireEditablePerson(ctx, row.person);
  const others = (await rowsOf<T>(ctx, collection, row.person)).filter((r) => r.id !== id);
  const isPrimary = data.isPrimary ?? row.isPrimary;
  checkRows(collection, others, data.value, isPrimary);
  const updated = await writeAs(() =>
    ctx.pb.collection(collection).update<T>(id, {
      [KIND[collection].field]: data.value,
      isPrimary,
      ...data.extra,
      visibility: data.visibility ?? row.visibility,
    }),
  );
  loadersOf(ctx).forgetPerson(row.person);
  return updated;
}

async function removeRow(ctx: GatewayContext, collection: RowCollection, id: string): Promise<boolean> {
  const row = await requireRow<ContactRow>(ctx, collection, id);
  await requireEditablePerson(ctx, row.person);
  await writeAs(() => ctx.pb.collection(collection).delete(id));
  if (row.isPrimary) {
    // Keep a primary while any row is left: the oldest one takes over.
    const [next] = await rowsOf<ContactRow>(ctx, collection, row.person);
    if (next) await writeAs(() => ctx.pb.collection(collection).update(next.id, { isPrimary: true }));
  }
  loadersOf(ctx).forgetPerson(row.person);
  return true;
}

export async function addEmail(ctx: GatewayContext, personId: string, input: EmailInput) {
  const data = validateEmailInput(input);
  const visibility = data.visibility ?? (await defaultVisibility(ctx));
  return addRow<PersonEmailRecord>(ctx, "person_emails", personId, {
    value: data.email,
    isPrimary: data.isPrimary,
    visibility,
  });
}

export async function updateEmail(ctx: GatewayContext, id: string, input: EmailInput) {
  const data = validateEmailInput(input);
  return updateRow<PersonEmailRecord>(ctx, "person_emails", id, {
    value: data.email,
    isPrimary: data.isPrimary,
    visibility: data.visibility,
  });
}

export const removeEmail = (ctx: GatewayContext, id: string) => removeRow(ctx, "person_emails", id);

export async function addPhone(ctx: GatewayContext, personId: string, input: PhoneInput) {
  const data = validatePhoneInput(input);
  const visibility = data.visibility ?? (await defaultVisibility(ctx));
  return addRow<PersonPhoneRecord>(ctx, "person_phones", personId, {
    value: data.number,
    isPrimary: data.isPrimary,
    visibility,
    extra: { kind: data.kind ?? "" },
  });
}

export async function updatePhone(ctx: GatewayContext, id: string, input: PhoneInput) {
  const data = validatePhoneInput(input);
  return updateRow<PersonPhoneRecord>(ctx, "person_phones", id, {
    value: data.number,
    isPrimary: data.isPrimary,
    visibility: data.visibility,
    extra: data.kind ? { kind: data.kind } : {},
  });
}

export const removePhone = (ctx: GatewayContext, id: string) => removeRow(ctx, "person_phones", id);

async function addressOf(ctx: GatewayContext, householdId: string): Promise<AddressRecord | null> {
  const page = await pbCall(() =>
    ctx.pb.collection("addresses").getList<AddressRecord>(1, 1, {
      filter: ctx.pb.filter("household = {:id}", { id: householdId }),
      skipTotal: true,
    }),
  );
  return page.items[0] ?? null;
}

/** Set or replace a household's (one) address. */
export async function setAddress(
  ctx: GatewayContext,
  householdId: string,
  input: AddressInput,
): Promise<AddressRecord> {
  const { visibility, ...fields } = validateAddressInput(input);
  await requireEditableHousehold(ctx, householdId);
  const existing = await addressOf(ctx, householdId);
  const data = {
    ...fields,
    visibility: visibility ?? existing?.visibility ?? (await defaultVisibility(ctx)),
  };
  const saved = await writeAs(() =>
    existing
      ? ctx.pb.collection("addresses").update<AddressRecord>(existing.id, data)
      : ctx.pb.collection("addresses").create<AddressRecord>({ ...data, household: householdId }),
  );
  loadersOf(ctx).forgetHousehold(householdId);
  return saved;
}

/** Remove a household's address; false when it had none. */
export async function removeAddress(ctx: GatewayContext, householdId: string): Promise<boolean> {
  await requireEditableHousehold(ctx, householdId);
  const existing = await addressOf(ctx, householdId);
  if (!existing) return false;
  await writeAs(() => ctx.pb.collection("addresses").delete(existing.id));
  loadersOf(ctx).forgetHousehold(householdId);
  return true;
}
