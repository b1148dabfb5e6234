import { createHash } from "node:crypto";
import { ClientResponseError } from "pocketbase";
import { parseCsv } from "@flock/shared/csv";
import { GIVING_LIMITS } from "@flock/shared/limits-features";
import { parseAmount } from "@flock/shared/money";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, conflict, pbCall, type FieldError } from "../../errors.ts";
import { requireAbility } from "../../access/guards.ts";
import { orChains } from "../../pocketbase/filters.ts";
import { pocketBaseDay, todayIn } from "../../pocketbase/dates.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import type {
  DonationRecord,
  FundRecord,
  HouseholdRecord,
  PersonEmailRecord,
  PersonRecord,
  UserRecord,
} from "../../pocketbase/records.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { displayName } from "../people/mappers.ts";

/*
 * Gifts imported from a CSV file (issue 29), e.g. a previous system's export. A preview reads and checks
 * every row and writes nothing; the import checks the file again (never trusting the preview) and
 * writes its accepted rows, outside any batch (they were counted and deposited in the old system; and a
 * batch's totals are recounted with each gift, which a file of thousands would make slow), marked
 * source "import".
 *
 * Each row is recorded once: its gift carries a reference made of what it says (day, amount, fund, donor,
 * method, cheque, note) and how many identical rows came before it in the file, and PocketBase keeps that
 * reference unique. So importing the same file twice, or a corrected file after its first import, or
 * next year's export overlapping this one, skips what is already there. The new rows are written all or
 * none: a write that fails removes the rows this import wrote before it.
 *
 * Funds are read with the caller's token; donors are found by the system (email, then exact full name),
 * which gives back only their name and household, as the donor search does.
 */

type Column = "date" | "amount" | "fund" | "donor" | "method" | "chequeNumber" | "note";
type Method = DonationRecord["method"];

/** Header names each column is known by (compared without case, spaces, underscores or dashes). */
const COLUMN_NAMES: Record<Column, string[]> = {
  date: ["date", "giftdate", "donationdate"],
  amount: ["amount", "giftamount"],
  fund: ["fund", "fundname"],
  donor: ["donor", "donoremail", "donorname", "email", "name"],
  method: ["method", "paymentmethod"],
  chequeNumber: ["chequenumber", "checknumber", "cheque", "check", "chequeno", "checkno"],
  note: ["note", "notes", "memo"],
};
const REQUIRED_COLUMNS: Column[] = ["date", "amount", "fund", "donor", "method"];

/** What people write for each method (compared without case, spaces, underscores or dashes). */
const METHOD_NAMES: Record<string, Method> = {
  cash: "cash",
  cheque: "cheque",
  check: "cheque",
  card: "card",
  creditcard: "card",
  debitcard: "card",
  banktransfer: "bank_transfer",
  bank: "bank_transfer",
  transfer: "bank_transfer",
  ach: "bank_transfer",
  eft: "bank_transfer",
  online: "online",
};

/** Gifts written side by side by one import. */
const IMPORT_WRITERS = 4;

/** A donor cell that records an anonymous gift. */
const ANONYMOUS = "anonymous";

const squash = (text: string) => text.toLowerCase().replace(/[\s_-]+/g, "");
/** A name or an email as compared: lower case, one space between words ("Member, Mark" reads "mark member"). */
export function normalName(text: string): string {
  const trimmed = text.normalize("NFC").trim().replace(/\s+/g, " ").toLowerCase();
  const comma = /^([^,]+),\s*([^,]+)$/.exec(trimmed);
  return comma ? `${comma[2]} ${comma[1]}` : trimmed;
}

export interface ImportFileRow {
  line: number;
  cells: Record<Column, string>;
}

/** The file's rows by column, or BAD_USER_INPUT on `csv` when the file itself cannot be imported. */
export function readImportFile(csv: string): ImportFileRow[] {
  const refuse = (code: string, message: string) => badUserInput({ csv: { code, message } });
  if (csv.length > GIVING_LIMITS.importCsvCharsMax)
    throw refuse("too_large", "The file is too large: split it into files of at most 5,000 gifts.");
  const parsed = parseCsv(csv);
  if (!parsed) throw refuse("invalid_csv", "The file is not CSV: a quoted cell is never closed.");
  const [header, ...rows] = parsed;
  if (!header || !rows.length)
    throw refuse("empty", "The file has no gifts: a header row and a row per gift are expected.");
  if (rows.length > GIVING_LIMITS.importRowsMax)
    throw refuse(
      "too_many_rows",
      `The file has ${rows.length} gifts: import at most ${GIVING_LIMITS.importRowsMax} at a time.`,
    );
  const names = header.cells.map(squash);
  const index = {} as Record<Column, number>;
  for (const column of Object.keys(COLUMN_NAMES) as Column[])
    index[column] = names.findIndex((name) => COLUMN_NAMES[column].includes(name));
  const missing = REQUIRED_COLUMNS.filter((column) => index[column] < 0);
  if (missing.length)
    throw refuse(
      "missing_columns",
      `The header row needs the columns date, amount, fund, donor and method (missing: ${missing.join(", ")}).`,
    );
  return rows.map((row) => ({
    line: row.line,
    cells: Object.fromEntries(
      (Object.keys(index) as Column[]).map((column) => [
        column,
        index[column] >= 0 ? (row.cells[index[column]] ?? "").trim() : "",
      ]),
    ) as Record<Column, string>,
  }));
}

/** A donor found for a row's cell: one person, or why none. */
export type DonorLookup = { person: PersonRecord; householdName: string } | "unknown" | "ambiguous";

export interface ImportLookups {
  /** Funds by normalName, the open ones first. */
  funds: Map<string, FundRecord>;
  /** Donors by the cell as written (normalName). */
  donors: Map<string, DonorLookup>;
  /** The church's today (YYYY-MM-DD): no gift is imported from the future. */
  today: string;
}

/** A row checked: what the preview shows, and what the import writes when accepted. */
export interface CheckedRow {
  line: number;
  accepted: boolean;
  date: string;
  amountCents: number | null;
  fund: FundRecord | null;
  donor: { personId: string; name: string; householdName: string } | null;
  anonymous: boolean;
  method: Method | null;
  chequeNumber: string;
  note: string;
  errors: Array<FieldError & { field: string }>;
  /** The gift's reference (import:<what the row says>:<its occurrence>), when accepted. */
  reference: string;
}

/** The day a cell names (YYYY-MM-DD, or an ISO date-time whose day is taken), or null. */
function dayOf(text: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+Z?)?$/.exec(text);
  if (!match) return null;
  const date = new Date(`${match[1]}-${match[2]}-${match[3]}T00:00:00.000Z`);
  const day = `${match[1]}-${match[2]}-${match[3]}`;
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day && day >= "1900-01-01"
    ? day
    : null;
}

/** Whole cents of an amount cell ("1,234.50", "$12", "12.50 USD"); a negative or zero amount is out of range. */
export function centsOf(text: string): { cents: number } | { code: string; message: string } {
  const invalid = { code: "invalid_amount", message: "Write the amount as a number, e.g. 25.00." };
  const notAGift = { code: "out_of_range", message: "Enter an amount above zero." };
  let amount = text.trim();
  let negative = false;
  const sign = () => {
    // A minus, or an accountant's parentheses: a refund, never a gift.
    if (/^\(.*\)$/.test(amount)) [negative, amount] = [true, amount.slice(1, -1).trim()];
    if (amount.startsWith("-")) [negative, amount] = [true, amount.slice(1).trim()];
  };
  sign();
  amount = amount.replace(/^(?:[A-Za-z]{3}|\p{Sc})\s*/u, "");
  sign();
  amount = amount.replace(/\s*(?:[A-Za-z]{3}|\p{Sc})$/u, "");
  const cents = parseAmount(amount);
  if (cents === null) return /^0[0.,\s]*$/.test(amount) ? notAGift : invalid;
  if (negative) return notAGift;
  if (cents > GIVING_LIMITS.donationCentsMax)
    return { code: "out_of_range", message: "The amount is larger than any gift can be." };
  return { cents };
}

/** Check one row against the funds and donors found; pure, so a preview and its import agree. */
export function checkRow(row: ImportFileRow, lookups: ImportLookups): Omit<CheckedRow, "reference"> {
  const errors: CheckedRow["errors"] = [];
  const fail = (field: string, code: string, message: string) => errors.push({ field, code, message });
  const { cells } = row;

  const date = dayOf(cells.date);
  if (!cells.date) fail("date", "required", "Give the gift's date.");
  else if (!date) fail("date", "invalid_date", "Write the date as YYYY-MM-DD, e.g. 2026-03-01.");
  else if (date > lookups.today) fail("date", "future_date", "The date is in the future.");

  let amountCents: number | null = null;
  if (!cells.amount) fail("amount", "required", "Give the gift's amount.");
  else {
    const amount = centsOf(cells.amount);
    if ("cents" in amount) amountCents = amount.cents;
    else fail("amount", amount.code, amount.message);
  }

  const fund = cells.fund ? (lookups.funds.get(normalName(cells.fund)) ?? null) : null;
  if (!cells.fund) fail("fund", "required", "Name the fund.");
  else if (!fund) fail("fund", "unknown_fund", `No fund is called ${cells.fund}.`);
  else if (fund.visibility === "closed") fail("fund", "fund_closed", `${fund.name} is closed to new gifts.`);

  const anonymous = normalName(cells.donor) === ANONYMOUS;
  let donor: CheckedRow["donor"] = null;
  if (!cells.donor)
    fail("donor", "required", "Name the donor (an email or a full name), or write anonymous.");
  else if (!anonymous) {
    const found = lookups.donors.get(normalName(cells.donor)) ?? "unknown";
    if (found === "unknown")
      fail(
        "donor",
        "unknown_donor",
        `Nobody is known as ${cells.donor}: add them to People first, or write anonymous.`,
      );
    else if (found === "ambiguous")
      fail("donor", "ambiguous_donor", `More than one person is ${cells.donor}: use their email.`);
    else
      donor = {
        personId: found.person.id,
        name: displayName(found.person),
        householdName: found.householdName,
      };
  }

  const method = cells.method ? (METHOD_NAMES[squash(cells.method)] ?? null) : null;
  if (!cells.method) fail("method", "required", "Say how it was given.");
  else if (!method)
    fail("method", "invalid_method", "Write the method as cash, cheque, card, bank transfer or online.");

  if (cells.chequeNumber.length > GIVING_LIMITS.chequeNumberMax)
    fail("chequeNumber", "too_long", `Use at most ${GIVING_LIMITS.chequeNumberMax} characters.`);
  if (cells.note.length > GIVING_LIMITS.donationNoteMax)
    fail("note", "too_long", `Use at most ${GIVING_LIMITS.donationNoteMax} characters.`);

  return {
    line: row.line,
    accepted: errors.length === 0,
    date: date ?? cells.date,
    amountCents,
    fund,
    donor,
    anonymous,
    method,
    chequeNumber: cells.chequeNumber,
    note: cells.note,
    errors,
  };
}

/** Each accepted row's reference: what it says, and how many identical rows came before it (1 for the first). */
export function withReferences(rows: Omit<CheckedRow, "reference">[]): CheckedRow[] {
  const seen = new Map<string, number>();
  return rows.map((row) => {
    if (!row.accepted) return { ...row, reference: "" };
    const says = [
      row.date,
      row.amountCents,
      row.fund!.id,
      row.donor?.personId ?? ANONYMOUS,
      row.method,
      row.chequeNumber,
      row.note,
    ].join("\u001f");
    const digest = createHash("sha256").update(says).digest("hex").slice(0, 32);
    const occurrence = (seen.get(digest) ?? 0) + 1;
    seen.set(digest, occurrence);
    return { ...row, reference: `import:${digest}:${occurrence}` };
  });
}

/** Funds by name (the caller's read), an open fund before a closed one of the same name. */
async function fundsByName(ctx: GatewayContext): Promise<Map<string, FundRecord>> {
  const funds = await pbCall(() => ctx.pb.collection("funds").getFullList<FundRecord>({ sort: "sort,name" }));
  const byName = new Map<string, FundRecord>();
  for (const fund of [...funds].sort(
    (a, b) => Number(a.visibility === "closed") - Number(b.visibility === "closed"),
  ))
    if (!byName.has(normalName(fund.name))) byName.set(normalName(fund.name), fund);
  return byName;
}

/** The donors the rows name: by email (a person's address, or their login's), then by exact full name. */
async function donorsNamed(ctx: GatewayContext, cells: string[]): Promise<Map<string, DonorLookup>> {
  const wanted = [...new Set(cells.map(normalName))].filter((cell) => cell && cell !== ANONYMOUS);
  const emails = wanted.filter((cell) => cell.includes("@"));
  const names = wanted.filter((cell) => !cell.includes("@"));
  const system = await ctx.system.get();
  const personIdsByCell = new Map<string, Set<string>>();
  const found = (cell: string, personId: string) => {
    if (!personId) return;
    const ids = personIdsByCell.get(cell) ?? new Set<string>();
    ids.add(personId);
    personIdsByCell.set(cell, ids);
  };
  for (const chain of orChains(emails.map((email) => system.filter("email = {:email}", { email })))) {
    const [addresses, logins] = await Promise.all([
      system
        .collection("person_emails")
        .getFullList<PersonEmailRecord>({ filter: chain, fields: "person,email" }),
      system.collection("users").getFullList<UserRecord>({ filter: chain, fields: "person,email" }),
    ]);
    for (const row of [...addresses, ...logins]) found(row.email.toLowerCase(), row.person);
  }
  const people = new Map<string, PersonRecord>();
  const live = 'recordStatus != "archived" && mergedInto = ""';
  const fields = "id,firstName,lastName,preferredName,household";
  if (names.length) {
    // Everyone's names once (a name may be written first-last or last-first, with a preferred name).
    for (const person of await system
      .collection("people")
      .getFullList<PersonRecord>({ filter: live, fields, batch: 1000 })) {
      people.set(person.id, person);
      const spellings = new Set([normalName(`${person.firstName} ${person.lastName}`)]);
      if (person.preferredName) spellings.add(normalName(`${person.preferredName} ${person.lastName}`));
      for (const spelling of spellings) if (names.includes(spelling)) found(spelling, person.id);
    }
  }
  const emailPeople = [...personIdsByCell.entries()]
    .filter(([cell]) => cell.includes("@"))
    .flatMap(([, ids]) => [...ids])
    .filter((id) => !people.has(id));
  for (const chain of orChains(emailPeople.map((id) => system.filter("id = {:id}", { id })))) {
    const rows = await system
      .collection("people")
      .getFullList<PersonRecord>({ filter: `(${chain}) && ${live}`, fields });
    for (const person of rows) people.set(person.id, person);
  }
  const households = new Map<string, string>();
  const householdIds = [...new Set([...personIdsByCell.values()].flatMap((ids) => [...ids]))]
    .map((id) => people.get(id)?.household ?? "")
    .filter(Boolean);
  for (const chain of orChains(householdIds.map((id) => system.filter("id = {:id}", { id })))) {
    for (const row of await system
      .collection("households")
      .getFullList<HouseholdRecord>({ filter: chain, fields: "id,name" }))
      households.set(row.id, row.name);
  }

  const donors = new Map<string, DonorLookup>();
  for (const cell of wanted) {
    // Archived or merged people found by an email are not donors any more.
    const ids = [...(personIdsByCell.get(cell) ?? [])].filter((id) => people.has(id));
    const person = ids.length === 1 ? people.get(ids[0]!)! : null;
    donors.set(
      cell,
      person
        ? { person, householdName: households.get(person.household) ?? "" }
        : ids.length
          ? "ambiguous"
          : "unknown",
    );
  }
  return donors;
}

/** The file read and every row checked, with the references of the rows already imported. */
async function checkFile(ctx: GatewayContext, csv: string) {
  const rows = readImportFile(csv);
  const [funds, donors, settings] = await Promise.all([
    fundsByName(ctx),
    donorsNamed(
      ctx,
      rows.map((row) => row.cells.donor),
    ),
    ctx.publicSettings.get(),
  ]);
  const lookups: ImportLookups = { funds, donors, today: todayIn(settings.timezone || "UTC") };
  const checked = withReferences(rows.map((row) => checkRow(row, lookups)));
  const accepted = checked.filter((row) => row.accepted);
  // Gifts an earlier import recorded from these rows: imported gifts of the file's days, by reference.
  const days = accepted.map((row) => row.date).sort();
  const existing = new Set<string>();
  if (days.length) {
    const earlier = await pbCall(() =>
      ctx.pb.collection("donations").getFullList<DonationRecord>({
        filter: ctx.pb.filter('source = "import" && date >= {:first} && date <= {:last}', {
          first: pocketBaseDay(days[0]!),
          last: pocketBaseDay(days.at(-1)!),
        }),
        fields: "providerRef",
        batch: 1000,
      }),
    );
    for (const gift of earlier) existing.add(gift.providerRef);
  }
  return { checked, accepted, existing };
}

/**
 * Whether a refused write was refused only because its reference is taken: another import (running at the
 * same moment) recorded the row first. Asked of the database, whatever shape the refusal had.
 */
async function recordedMeanwhile(ctx: GatewayContext, reference: string, error: unknown): Promise<boolean> {
  if (!(error instanceof ClientResponseError) || error.status !== 400) return false;
  const found = await pbCall(() =>
    ctx.pb.collection("donations").getList(1, 1, {
      filter: ctx.pb.filter("providerRef = {:reference}", { reference }),
      fields: "id",
      skipTotal: true,
    }),
  );
  return found.items.length > 0;
}

/**
 * Write `rows` all or none, a few at a time (PocketBase saves one at a time, but each gift's round trip
 * and hook overlap the others': 5,000 rows took 52 s one by one on the 2-core machine, 37 s four at a
 * time). A row another request recorded meanwhile is skipped; any other failure stops the writers and
 * removes every row this call wrote, and is answered with the row that failed.
 */
export async function writeAllOrNone<Row>(
  rows: readonly Row[],
  io: {
    create(row: Row): Promise<string>;
    recordedMeanwhile(row: Row, error: unknown): Promise<boolean>;
    remove(id: string): Promise<void>;
  },
  writers = IMPORT_WRITERS,
): Promise<{ written: Row[] } | { failed: { row: Row; error: unknown } }> {
  const written: Array<{ row: Row; id: string }> = [];
  const failures: Array<{ row: Row; error: unknown }> = [];
  let next = 0;
  const writer = async () => {
    while (!failures.length && next < rows.length) {
      const row = rows[next++]!;
      try {
        written.push({ row, id: await io.create(row) });
      } catch (error) {
        if (!(await io.recordedMeanwhile(row, error))) failures.push({ row, error });
      }
    }
  };
  await Promise.all(Array.from({ length: writers }, writer));
  if (!failures.length) return { written: written.map((w) => w.row) };
  for (const { id } of written) await io.remove(id);
  return { failed: failures[0]! };
}

export const givingImportResolvers: Resolvers = {
  Mutation: {
    async previewGivingImport(_, { csv }, ctx) {
      await requireAbility(ctx, "manageGiving");
      const { checked, accepted, existing } = await checkFile(ctx, csv);
      return {
        rows: checked,
        accepted: accepted.length,
        refused: checked.length - accepted.length,
        acceptedCents: accepted.reduce((sum, row) => sum + row.amountCents!, 0),
        alreadyImported: accepted.filter((row) => existing.has(row.reference)).length,
      };
    },

    async importGivingCsv(_, { csv, acceptedRows }, ctx) {
      await requireAbility(ctx, "manageGiving");
      const { checked, accepted, existing } = await checkFile(ctx, csv);
      if (accepted.length !== acceptedRows)
        throw conflict(
          `The file now has ${accepted.length} acceptable rows, not the ${acceptedRows} previewed (a fund or a person changed meanwhile): preview it again. Nothing was imported.`,
          "preview_outdated",
        );
      const outcome = await writeAllOrNone(
        accepted.filter((row) => !existing.has(row.reference)),
        {
          create: async (row) =>
            (
              await ctx.pb.collection("donations").create<DonationRecord>({
                person: row.donor?.personId ?? "",
                individual: false,
                date: pocketBaseDay(row.date),
                amountCents: row.amountCents,
                method: row.method,
                chequeNumber: row.chequeNumber,
                note: row.note,
                splits: [{ fund: row.fund!.id, amountCents: row.amountCents }],
                source: "import",
                providerRef: row.reference,
              })
            ).id,
          // Imported at the same moment by another request: recorded once, by it.
          recordedMeanwhile: (row, error) => recordedMeanwhile(ctx, row.reference, error),
          remove: (id) =>
            writeAsCaller(() => ctx.pb.collection("donations").delete(id)).then(
              () => undefined,
              (undo: unknown) =>
                console.error(`[giving-import] could not remove gift ${id} after a failed import:`, undo),
            ),
        },
      );
      if ("failed" in outcome) {
        const { row, error } = outcome.failed;
        if (error instanceof ClientResponseError && error.status === 400)
          throw conflict(
            `Line ${row.line} could not be recorded (${error.message}): nothing was imported. Preview the file again.`,
            "import_row_refused",
            { line: row.line },
          );
        return writeAsCaller(() => Promise.reject(error));
      }
      const written = outcome.written;
      return {
        created: written.length,
        createdCents: written.reduce((sum, row) => sum + row.amountCents!, 0),
        alreadyImported: accepted.length - written.length,
        refusedRows: checked.filter((row) => !row.accepted),
      };
    },
  },
};
