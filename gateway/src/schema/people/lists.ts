import type PocketBase from "pocketbase";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, forbidden, pbCall } from "../../errors.ts";
import type { HouseholdRecord, PersonRecord } from "../../pocketbase/records.ts";
import { LIMITS } from "@flock/shared/limits";
import type { PeopleFilter } from "../__generated__/types.ts";
import { connection, pageArgs, type Cursor } from "../pagination.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import { toCsv } from "@flock/shared/csv";
import { loadersOf } from "./loaders.ts";
import { dateOnly, viewerPerson } from "./mappers.ts";

/** Search words (AND): "ann smith" finds Ann in the Smith household. */
const MAX_SEARCH_WORDS = 5;

function searchWords(search: string | null | undefined): string[] {
  const q = search?.trim() ?? "";
  if (q.length > LIMITS.searchMax)
    throw badUserInput({
      search: { code: "too_long", message: `Use at most ${LIMITS.searchMax} characters.` },
    });
  return q.split(/\s+/).filter(Boolean).slice(0, MAX_SEARCH_WORDS);
}

/**
 * Households whose name, or the name of one of their people, contains every word. The back-relation
 * join runs under the caller's people rules (checked on 0.40.4): a name the caller may not see (a
 * child of another household) does not match.
 */
function householdSearch(pb: PocketBase, words: string[]): string {
  return words
    .map((w) =>
      pb.filter(
        "(name ~ {:w} || people_via_household.firstName ?~ {:w} || people_via_household.lastName ?~ {:w} || people_via_household.preferredName ?~ {:w})",
        { w },
      ),
    )
    .join(" && ");
}

/** Rows after the cursor in ascending (field, id) order. */
const ascendingAfter = (pb: PocketBase, field: string, cursor: Cursor) =>
  pb.filter(`(${field} > {:v} || (${field} = {:v} && id > {:id}))`, { v: cursor.value, id: cursor.id });

const and = (...parts: string[]) =>
  parts
    .filter(Boolean)
    .map((p) => `(${p})`)
    .join(" && ");

/**
 * Households returned as directory cards. Their `members` are the listed people only: children never
 * appear in the directory (PRODUCT.md §2), not even for staff or the card's own household, whose rules
 * would show them elsewhere (the household page, the admin pages).
 */
const directoryCards = new WeakSet<HouseholdRecord>();
export const isDirectoryCard = (household: HouseholdRecord) => directoryCards.has(household);

/** A page of households by name, with a lazy total. */
async function householdPage(
  ctx: GatewayContext,
  filters: string[],
  size: number,
  cursor: Cursor | null,
  asDirectory = false,
) {
  const filter = and(...filters, cursor ? ascendingAfter(ctx.pb, "name", cursor) : "");
  const rows = await pbCall(() =>
    ctx.pb
      .collection("households")
      .getList<HouseholdRecord>(1, size + 1, { filter, sort: "name,id", skipTotal: true }),
  );
  for (const h of rows.items) {
    if (asDirectory) directoryCards.add(h);
    else loadersOf(ctx).household.prime(h.id, h);
  }
  return connection(
    rows.items,
    size,
    (h) => h.name,
    async () =>
      (
        await pbCall(() =>
          ctx.pb.collection("households").getList(1, 1, { filter: and(...filters), fields: "id" }),
        )
      ).totalItems,
  );
}

/**
 * The member directory: listed households, for active members only (PRODUCT.md §5), and for API
 * tokens with the people.directory scope (which PocketBase's rules grant the same listed rows).
 */
export async function directory(
  ctx: GatewayContext,
  args: { first?: number | null; after?: string | null; search?: string | null },
) {
  const { size, cursor } = pageArgs(args.first, args.after, 20);
  const words = searchWords(args.search);
  if (ctx.apiClient) {
    // Without the scope the rules would show a token nothing; say so instead of an empty directory.
    if (!ctx.apiClient.client.scopes.includes("people.directory")) throw forbidden();
  } else {
    const viewer = await requireViewer(ctx);
    // The rules would show a pending person only their own household; the directory itself is closed to them.
    if (viewerPerson(viewer)?.recordStatus !== "active") throw forbidden();
  }
  return householdPage(ctx, ["inDirectory = true", householdSearch(ctx.pb, words)], size, cursor, true);
}

/** Staff: every household the rules let them see, by name. */
export async function households(
  ctx: GatewayContext,
  args: { first?: number | null; after?: string | null; search?: string | null },
) {
  const { size, cursor } = pageArgs(args.first, args.after, 50);
  const words = searchWords(args.search);
  await requireAbility(ctx, "viewPeople");
  return householdPage(ctx, [householdSearch(ctx.pb, words)], size, cursor);
}

/** Staff list filters (all optional, combined with AND). */
function peopleFilter(pb: PocketBase, filter: PeopleFilter | null | undefined): string {
  const anyOf = (field: string, values: readonly string[] | null | undefined) =>
    values?.length ? values.map((value) => pb.filter(`${field} = {:value}`, { value })).join(" || ") : "";
  const words = searchWords(filter?.search).map((w) =>
    pb.filter(
      "(firstName ~ {:w} || lastName ~ {:w} || preferredName ~ {:w} || person_emails_via_person.email ?~ {:w})",
      { w },
    ),
  );
  return and(
    ...words,
    anyOf("membershipStatus", filter?.membershipStatus),
    anyOf("recordStatus", filter?.recordStatus),
    anyOf("ageGroup", filter?.ageGroup),
  );
}

/** People sort by (lastName, firstName, id); the cursor value carries both names. */
const nameKey = (p: PersonRecord) => JSON.stringify([p.lastName, p.firstName]);

function peopleAfter(pb: PocketBase, cursor: Cursor): string {
  let names: unknown;
  try {
    names = JSON.parse(cursor.value);
  } catch {
    names = null;
  }
  if (!Array.isArray(names) || names.length !== 2 || !names.every((n) => typeof n === "string")) {
    throw badUserInput({ after: { code: "invalid", message: "Invalid cursor." } });
  }
  const [l, f] = names as [string, string];
  return pb.filter(
    "(lastName > {:l} || (lastName = {:l} && (firstName > {:f} || (firstName = {:f} && id > {:id}))))",
    { l, f, id: cursor.id },
  );
}

async function peopleRows(
  ctx: GatewayContext,
  filter: string,
  size: number,
  cursor: Cursor | null,
): Promise<PersonRecord[]> {
  const rows = await pbCall(() =>
    ctx.pb.collection("people").getList<PersonRecord>(1, size, {
      filter: and(filter, cursor ? peopleAfter(ctx.pb, cursor) : ""),
      sort: "lastName,firstName,id",
      skipTotal: true,
    }),
  );
  const loaders = loadersOf(ctx);
  for (const p of loaders.remember(rows.items)) loaders.person.prime(p.id, p);
  return rows.items;
}

/** Staff: people with filters, by last and first name. */
export async function people(
  ctx: GatewayContext,
  args: { first?: number | null; after?: string | null; filter?: PeopleFilter | null },
) {
  const { size, cursor } = pageArgs(args.first, args.after, 50);
  const filter = peopleFilter(ctx.pb, args.filter);
  await requireAbility(ctx, "viewPeople");
  const rows = await peopleRows(ctx, filter, size + 1, cursor);
  return connection(
    rows,
    size,
    nameKey,
    async () =>
      (await pbCall(() => ctx.pb.collection("people").getList(1, 1, { filter, fields: "id" }))).totalItems,
  );
}

const CSV_PAGE = 500;
const CSV_HEADER = [
  "id",
  "firstName",
  "lastName",
  "preferredName",
  "membershipStatus",
  "recordStatus",
  "ageGroup",
  "household",
  "email",
  "phone",
  "birthDate",
];

/** Staff: the filtered list as CSV (every matching row up to LIMITS.peopleCsvMaxRows), read as the caller. */
export async function peopleCsv(
  ctx: GatewayContext,
  args: { filter?: PeopleFilter | null },
): Promise<string> {
  const filter = peopleFilter(ctx.pb, args.filter);
  await requireAbility(ctx, "viewPeople");
  const all: PersonRecord[] = [];
  let cursor: Cursor | null = null;
  while (all.length < LIMITS.peopleCsvMaxRows) {
    const page = await peopleRows(
      ctx,
      filter,
      Math.min(CSV_PAGE, LIMITS.peopleCsvMaxRows - all.length),
      cursor,
    );
    all.push(...page);
    const last = page[page.length - 1];
    if (!last || page.length < CSV_PAGE) break;
    cursor = { value: nameKey(last), id: last.id };
  }
  const loaders = loadersOf(ctx);
  const rows = await Promise.all(
    all.map(async (p) => {
      const [household, emails, phones, priv] = await Promise.all([
        p.household ? loaders.household.load(p.household) : null,
        loaders.emails.load(p.id),
        loaders.phones.load(p.id),
        loaders.privateRow.load(p.id),
      ]);
      const email = emails.find((e) => e.isPrimary) ?? emails[0];
      const phone = phones.find((n) => n.isPrimary) ?? phones[0];
      return [
        p.id,
        p.firstName,
        p.lastName,
        p.preferredName,
        p.membershipStatus,
        p.recordStatus,
        p.ageGroup,
        household?.name ?? "",
        email?.email ?? "",
        phone?.number ?? "",
        dateOnly(priv?.birthDate) ?? "",
      ];
    }),
  );
  return toCsv(CSV_HEADER, rows);
}
