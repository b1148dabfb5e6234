/**
 * Giving's reports, exports and CSV import (issue 29) with the real PocketBase, on a small known dataset
 * in 2019 (days no other file gives on; every figure is checked for this file's funds and people only,
 * as other files share the PocketBase): a batch's deposit slip by fund and method, first-time and lapsed
 * giving units, the gifts' CSV (formulas neutralised) and the summary's CSV without a donor. Finance is
 * separate: the summary role is refused every report with donors but gets the summary's CSV; a pastor
 * gets nothing. The import's preview shows each row's errors and writes nothing; the import writes
 * exactly the accepted rows, once, however often the file is imported.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { parseCsv } from "@flock/shared/csv";
import {
  createUser,
  errorCode,
  GqlClient,
  system,
  testGateway,
  type TestUser,
  createUserWithPermissions,
} from "./helpers.ts";
import {
  GivingBatchReportDocument,
  GivingDonationsCsvDocument,
  GivingFirstTimeDonorsDocument,
  GivingImportDocument,
  GivingLapsedDonorsDocument,
  GivingPreviewImportDocument,
  GivingSummaryCsvDocument,
} from "./__generated__/operations.ts";

let gateway: Gateway;
let su: PocketBase;
const run = randomUUID().slice(0, 6);
const gql = (user: TestUser | null) => new GqlClient(gateway, { token: user?.token });

/** A donor with a name of this run, in `household` (or none). */
async function donor(first: string, household: string | null) {
  const user = await createUser();
  await su.collection("people").update(user.personId!, {
    firstName: first,
    lastName: `Reports${run}`,
    household: household ?? "",
    householdRole: household ? "head" : "",
  });
  return { ...user, name: `${first} Reports${run}` };
}

let treasurer: TestUser;
let viewer: TestUser;
let summary: TestUser;
let pastor: TestUser;
let general: { id: string; name: string };
let missions: { id: string; name: string };
let closedFund: { id: string; name: string };
let homeA: { id: string; name: string };
let homeB: { id: string; name: string };
let homeD: { id: string; name: string };
let a1: Awaited<ReturnType<typeof donor>>;
let a2: Awaited<ReturnType<typeof donor>>;
let b: Awaited<ReturnType<typeof donor>>;
let c: Awaited<ReturnType<typeof donor>>;
let d: Awaited<ReturnType<typeof donor>>;
let batchId: string;

const gift = (fields: {
  person?: string;
  individual?: boolean;
  date: string;
  amountCents: number;
  method: string;
  splits: Array<{ fund: string; amountCents: number }>;
  chequeNumber?: string;
  note?: string;
  batch?: string;
}) => su.collection("donations").create({ ...fields, date: `${fields.date} 00:00:00.000Z` });

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  [treasurer, viewer, summary, pastor] = await Promise.all([
    createUserWithPermissions(["giving.manage"]),
    createUserWithPermissions(["giving.view"]),
    createUserWithPermissions(["giving.view_summary"]),
    createUser({ roles: ["Pastor"] }),
  ]);
  const fund = (name: string, visibility: string) =>
    su.collection("funds").create<{ id: string; name: string }>({ name, visibility, deductible: true });
  general = await fund(`General ${run}`, "public");
  missions = await fund(`Missions ${run}`, "public");
  closedFund = await fund(`Old roof ${run}`, "closed");
  const home = (name: string) => su.collection("households").create<{ id: string; name: string }>({ name });
  [homeA, homeB, homeD] = await Promise.all([
    home(`Home A ${run}`),
    home(`Home B ${run}`),
    home(`Home D ${run}`),
  ]);
  a1 = await donor("Ada", homeA.id);
  a2 = await donor("Abe", homeA.id);
  b = await donor("Bea", homeB.id);
  c = await donor("Cy", null);
  d = await donor("Dee", homeD.id);

  // Household A gives in January and March; B first in March; C (individually) in February; D in
  // February and May; an anonymous gift in March. The March gifts are counted in one batch.
  const batch = await su.collection("donation_batches").create({
    name: `March ${run}`,
    depositDate: "2019-03-11 00:00:00.000Z",
    controlTotalCents: 14500,
    controlCount: 3,
  });
  batchId = batch.id;
  await gift({
    person: a1.personId!,
    date: "2019-01-06",
    amountCents: 5000,
    method: "cash",
    splits: [{ fund: general.id, amountCents: 5000 }],
  });
  await gift({
    person: c.personId!,
    individual: true,
    date: "2019-02-03",
    amountCents: 2000,
    method: "cash",
    note: '=HYPERLINK("http://evil.example","thanks")',
    splits: [{ fund: missions.id, amountCents: 2000 }],
  });
  await gift({
    person: d.personId!,
    date: "2019-02-10",
    amountCents: 4000,
    method: "online",
    splits: [{ fund: general.id, amountCents: 4000 }],
  });
  await gift({
    batch: batchId,
    person: a2.personId!,
    date: "2019-03-03",
    amountCents: 3000,
    method: "cheque",
    chequeNumber: "77",
    splits: [
      { fund: general.id, amountCents: 2000 },
      { fund: missions.id, amountCents: 1000 },
    ],
  });
  await gift({
    batch: batchId,
    person: b.personId!,
    date: "2019-03-10",
    amountCents: 10000,
    method: "card",
    splits: [{ fund: general.id, amountCents: 10000 }],
  });
  await gift({
    batch: batchId,
    date: "2019-03-10",
    amountCents: 1500,
    method: "cash",
    splits: [{ fund: general.id, amountCents: 1500 }],
  });
  await su.collection("donation_batches").update(batchId, { status: "closed" });
  await gift({
    person: d.personId!,
    date: "2019-05-05",
    amountCents: 4000,
    method: "online",
    splits: [{ fund: general.id, amountCents: 4000 }],
  });
});
afterAll(() => gateway.close());

/** This run's units only (other files' gifts share the PocketBase). */
const mine = <T extends { name: string }>(units: T[]) => units.filter((unit) => unit.name.includes(run));

describe("a batch report", () => {
  it("adds a batch's gifts up by fund, by method and by both, for finance that sees gifts", async () => {
    for (const who of [treasurer, viewer]) {
      const result = await gql(who).execute(GivingBatchReportDocument, { batchId });
      expect(result.errors).toBeUndefined();
      expect(result.data!.givingBatchReport).toEqual({
        batch: { id: batchId, name: `March ${run}`, totalCents: 14500, count: 3, status: "CLOSED" },
        byFund: [
          { fund: { id: general.id, name: general.name }, amountCents: 13500, gifts: 3 },
          { fund: { id: missions.id, name: missions.name }, amountCents: 1000, gifts: 1 },
        ],
        byMethod: [
          { method: "CASH", amountCents: 1500, gifts: 1 },
          { method: "CHEQUE", amountCents: 3000, gifts: 1 },
          { method: "CARD", amountCents: 10000, gifts: 1 },
        ],
        byFundAndMethod: [
          { fund: { id: general.id }, method: "CASH", amountCents: 1500, gifts: 1 },
          { fund: { id: general.id }, method: "CHEQUE", amountCents: 2000, gifts: 1 },
          { fund: { id: general.id }, method: "CARD", amountCents: 10000, gifts: 1 },
          { fund: { id: missions.id }, method: "CHEQUE", amountCents: 1000, gifts: 1 },
        ],
        cheques: 1,
      });
    }
  });

  it("is refused to the summary role and a pastor, and null for a batch that does not exist", async () => {
    for (const who of [summary, pastor])
      expect(errorCode(await gql(who).execute(GivingBatchReportDocument, { batchId }))).toBe("FORBIDDEN");
    expect(errorCode(await gql(null).execute(GivingBatchReportDocument, { batchId }))).toBe(
      "UNAUTHENTICATED",
    );
    const none = await gql(viewer).execute(GivingBatchReportDocument, { batchId: "nosuchbatch0000" });
    expect(none.errors).toBeUndefined();
    expect(none.data!.givingBatchReport).toBeNull();
  });
});

describe("first-time and lapsed donors", () => {
  it("first-time: giving units whose first gift ever is in the period, with the period's figures", async () => {
    const march = await gql(viewer).execute(GivingFirstTimeDonorsDocument, {
      from: "2019-03-01",
      to: "2019-03-31",
    });
    expect(march.errors).toBeUndefined();
    // Household A gave in January already: only B is new in March.
    expect(mine(march.data!.givingFirstTimeDonors)).toEqual([
      {
        key: `household:${homeB.id}`,
        householdId: homeB.id,
        personId: null,
        name: homeB.name,
        donors: [{ personId: b.personId, name: b.name }],
        firstGiftDate: "2019-03-10",
        lastGiftDate: "2019-03-10",
        gifts: 1,
        amountCents: 10000,
      },
    ]);
    const quarter = await gql(treasurer).execute(GivingFirstTimeDonorsDocument, {
      from: "2019-01-01",
      to: "2019-03-31",
    });
    expect(
      mine(quarter.data!.givingFirstTimeDonors).map((u) => [u.name, u.firstGiftDate, u.gifts, u.amountCents]),
    ).toEqual([
      [homeA.name, "2019-01-06", 2, 8000],
      [c.name, "2019-02-03", 1, 2000],
      [homeD.name, "2019-02-10", 1, 4000],
      [homeB.name, "2019-03-10", 1, 10000],
    ]);
    const unitA = mine(quarter.data!.givingFirstTimeDonors)[0]!;
    expect(unitA.donors.map((p) => p.name).sort()).toEqual([a2.name, a1.name].sort());
    // Someone giving individually is their own unit.
    expect(mine(quarter.data!.givingFirstTimeDonors)[1]).toMatchObject({
      key: `person:${c.personId}`,
      personId: c.personId,
      householdId: null,
    });
  });

  it("lapsed: gave in the look-back but not in its quiet months, the longest quiet first", async () => {
    const result = await gql(viewer).execute(GivingLapsedDonorsDocument, {
      months: 6,
      quietMonths: 3,
      asOf: "2019-06-30",
    });
    expect(result.errors).toBeUndefined();
    // D gave again in May: not lapsed.
    expect(
      mine(result.data!.givingLapsedDonors).map((u) => [u.name, u.lastGiftDate, u.gifts, u.amountCents]),
    ).toEqual([
      [c.name, "2019-02-03", 1, 2000],
      [homeA.name, "2019-03-03", 2, 8000],
      [homeB.name, "2019-03-10", 1, 10000],
    ]);
    const bad = await gql(viewer).execute(GivingLapsedDonorsDocument, { months: 3, quietMonths: 3 });
    expect(errorCode(bad)).toBe("BAD_USER_INPUT");
  });

  it("are refused to the summary role and a pastor", async () => {
    for (const who of [summary, pastor]) {
      const first = await gql(who).execute(GivingFirstTimeDonorsDocument, {
        from: "2019-01-01",
        to: "2019-12-31",
      });
      expect(errorCode(first)).toBe("FORBIDDEN");
      const lapsed = await gql(who).execute(GivingLapsedDonorsDocument, { months: 12, quietMonths: 3 });
      expect(errorCode(lapsed)).toBe("FORBIDDEN");
    }
  });
});

describe("CSV exports", () => {
  it("the gifts, with donors, units, funds, methods and batches; a formula is written as text", async () => {
    const result = await gql(viewer).execute(GivingDonationsCsvDocument, {
      from: "2019-01-01",
      to: "2019-06-30",
    });
    expect(result.errors).toBeUndefined();
    const csv = result.data!.givingDonationsCsv;
    const rows = parseCsv(csv)!.map((row) => row.cells);
    expect(rows[0]).toEqual([
      "date",
      "donor",
      "giving unit",
      "amount",
      "currency",
      "funds",
      "method",
      "cheque number",
      "batch",
      "note",
    ]);
    const ours = rows.filter((row) => row.some((cell) => cell.includes(run)));
    expect(ours).toContainEqual([
      "2019-03-03",
      a2.name,
      homeA.name,
      "30.00",
      "USD",
      `${general.name}: 20.00; ${missions.name}: 10.00`,
      "cheque",
      "77",
      `March ${run}`,
      "",
    ]);
    expect(ours).toContainEqual([
      "2019-03-10",
      "anonymous",
      "",
      "15.00",
      "USD",
      `${general.name}: 15.00`,
      "cash",
      "",
      `March ${run}`,
      "",
    ]);
    // The note that is a formula starts with ' (the spreadsheet shows it as text).
    expect(ours).toContainEqual([
      "2019-02-03",
      c.name,
      "",
      "20.00",
      "USD",
      `${missions.name}: 20.00`,
      "cash",
      "",
      "",
      '\'=HYPERLINK("http://evil.example","thanks")',
    ]);
    expect(ours).toHaveLength(7);
    for (const who of [summary, pastor])
      expect(
        errorCode(
          await gql(who).execute(GivingDonationsCsvDocument, { from: "2019-01-01", to: "2019-06-30" }),
        ),
      ).toBe("FORBIDDEN");
    const backwards = await gql(viewer).execute(GivingDonationsCsvDocument, {
      from: "2019-06-30",
      to: "2019-01-01",
    });
    expect(errorCode(backwards)).toBe("BAD_USER_INPUT");
  });

  it("the summary per month and fund, without a donor, for the summary role; not for a pastor", async () => {
    const result = await gql(summary).execute(GivingSummaryCsvDocument, {
      from: "2019-01-01",
      to: "2019-06-30",
    });
    expect(result.errors).toBeUndefined();
    const csv = result.data!.givingSummaryCsv;
    const rows = parseCsv(csv)!.map((row) => row.cells);
    expect(rows[0]).toEqual(["month", "fund", "deductible", "amount", "gifts", "currency"]);
    expect(rows.filter((row) => row[1]!.includes(run))).toEqual([
      ["2019-01", general.name, "yes", "50.00", "1", "USD"],
      ["2019-02", general.name, "yes", "40.00", "1", "USD"],
      ["2019-02", missions.name, "yes", "20.00", "1", "USD"],
      ["2019-03", general.name, "yes", "135.00", "3", "USD"],
      ["2019-03", missions.name, "yes", "10.00", "1", "USD"],
      ["2019-05", general.name, "yes", "40.00", "1", "USD"],
    ]);
    for (const name of [a1.name, a2.name, b.name, c.name, homeA.name, "anonymous"])
      expect(csv).not.toContain(name);
    expect(
      errorCode(
        await gql(pastor).execute(GivingSummaryCsvDocument, { from: "2019-01-01", to: "2019-06-30" }),
      ),
    ).toBe("FORBIDDEN");
  });
});

describe("importing gifts from CSV", () => {
  const file = () =>
    [
      "Date,Amount,Fund,Donor,Method,Cheque Number,Note",
      `2019-07-07,25.00,${general.name},${b.email.toUpperCase()},cheque,501,from the old system`,
      `2019-07-07,10,${missions.name.toLowerCase()},${a1.name},cash,,`,
      `2019-07-07,$5,${general.name},anonymous,cash,,`,
      `2019-13-01,5,${general.name},anonymous,cash,,`,
      `2019-07-07,0,${general.name},anonymous,cash,,`,
      `2019-07-07,5,Nonexistent ${run},anonymous,cash,,`,
      `2019-07-07,5,${closedFund.name},anonymous,cash,,`,
      `2019-07-07,5,${general.name},Nobody Reports${run},cash,,`,
    ].join("\r\n");

  /** The gifts recorded on 2019-07-07 to this run's funds (read as the system). */
  const julyGifts = async () =>
    su.collection("donation_splits").getFullList({
      filter: su.filter("date = {:day} && (fund = {:general} || fund = {:missions})", {
        day: "2019-07-07 00:00:00.000Z",
        general: general.id,
        missions: missions.id,
      }),
    });

  it("previews every row with its errors, per field, and writes nothing", async () => {
    const result = await gql(treasurer).execute(GivingPreviewImportDocument, { csv: file() });
    expect(result.errors).toBeUndefined();
    const preview = result.data!.previewGivingImport;
    expect(preview).toMatchObject({ accepted: 3, refused: 5, acceptedCents: 4000, alreadyImported: 0 });
    expect(preview.rows[0]).toMatchObject({
      line: 2,
      accepted: true,
      date: "2019-07-07",
      amountCents: 2500,
      fund: { id: general.id },
      donor: { personId: b.personId, name: b.name, householdName: homeB.name },
      anonymous: false,
      method: "CHEQUE",
      chequeNumber: "501",
      note: "from the old system",
      errors: [],
    });
    expect(preview.rows[1]).toMatchObject({
      accepted: true,
      donor: { personId: a1.personId },
      fund: { id: missions.id },
    });
    expect(preview.rows[2]).toMatchObject({ accepted: true, anonymous: true, donor: null, amountCents: 500 });
    expect(
      preview.rows
        .slice(3)
        .map((row) => [row.line, row.accepted, row.errors.map((e) => `${e.field}:${e.code}`)]),
    ).toEqual([
      [5, false, ["date:invalid_date"]],
      [6, false, ["amount:out_of_range"]],
      [7, false, ["fund:unknown_fund"]],
      [8, false, ["fund:fund_closed"]],
      [9, false, ["donor:unknown_donor"]],
    ]);
    expect(await julyGifts()).toHaveLength(0);
  });

  it("is for finance that keeps the records only", async () => {
    for (const who of [viewer, summary, pastor]) {
      expect(errorCode(await gql(who).execute(GivingPreviewImportDocument, { csv: file() }))).toBe(
        "FORBIDDEN",
      );
      expect(errorCode(await gql(who).execute(GivingImportDocument, { csv: file(), acceptedRows: 3 }))).toBe(
        "FORBIDDEN",
      );
    }
    const noColumns = await gql(treasurer).execute(GivingPreviewImportDocument, {
      csv: "date,amount\n2019-07-07,5\n",
    });
    expect(errorCode(noColumns)).toBe("BAD_USER_INPUT");
    expect(await julyGifts()).toHaveLength(0);
  });

  it("writes exactly the accepted rows, once however often the file is imported", async () => {
    const outdated = await gql(treasurer).execute(GivingImportDocument, { csv: file(), acceptedRows: 4 });
    expect(errorCode(outdated)).toBe("CONFLICT");
    expect(await julyGifts()).toHaveLength(0);

    const first = await gql(treasurer).execute(GivingImportDocument, { csv: file(), acceptedRows: 3 });
    expect(first.errors).toBeUndefined();
    expect(first.data!.importGivingCsv).toMatchObject({ created: 3, createdCents: 4000, alreadyImported: 0 });
    expect(first.data!.importGivingCsv.refusedRows.map((row) => row.line)).toEqual([5, 6, 7, 8, 9]);
    const written = await su.collection("donations").getFullList({
      filter: su.filter(
        "date = {:day} && source = 'import' && (person = {:b} || person = {:a1} || person = '')",
        {
          day: "2019-07-07 00:00:00.000Z",
          b: b.personId!,
          a1: a1.personId!,
        },
      ),
    });
    const byPerson = (person: string) => written.filter((g) => g.person === person);
    expect(byPerson(b.personId!)).toMatchObject([
      {
        amountCents: 2500,
        method: "cheque",
        chequeNumber: "501",
        givingUnit: homeB.id,
        note: "from the old system",
      },
    ]);
    expect(byPerson(a1.personId!)).toMatchObject([
      { amountCents: 1000, method: "cash", givingUnit: homeA.id },
    ]);
    expect(await julyGifts()).toHaveLength(3);

    // The same file again, twice at once: nothing more is recorded.
    const again = await Promise.all(
      [1, 2].map(() => gql(treasurer).execute(GivingImportDocument, { csv: file(), acceptedRows: 3 })),
    );
    for (const result of again) {
      expect(result.errors).toBeUndefined();
      expect(result.data!.importGivingCsv).toMatchObject({ created: 0, alreadyImported: 3 });
    }
    expect(await julyGifts()).toHaveLength(3);
    const preview = await gql(treasurer).execute(GivingPreviewImportDocument, { csv: file() });
    expect(preview.data!.previewGivingImport).toMatchObject({ accepted: 3, alreadyImported: 3 });

    // A new file imported twice at the same moment: each gift recorded once.
    const august = [
      "date,amount,fund,donor,method",
      `2019-08-04,12,${general.name},anonymous,cash`,
      `2019-08-04,12,${general.name},anonymous,cash`,
    ].join("\n");
    const twice = await Promise.all(
      [1, 2].map(() => gql(treasurer).execute(GivingImportDocument, { csv: august, acceptedRows: 2 })),
    );
    expect(twice.map((result) => result.errors)).toEqual([undefined, undefined]);
    for (const result of twice)
      expect(result.data!.importGivingCsv.created + result.data!.importGivingCsv.alreadyImported).toBe(2);
    expect(twice.reduce((sum, result) => sum + result.data!.importGivingCsv.created, 0)).toBe(2);
    const augustGifts = await su.collection("donation_splits").getFullList({
      filter: su.filter("date = {:day} && fund = {:general}", {
        day: "2019-08-04 00:00:00.000Z",
        general: general.id,
      }),
    });
    expect(augustGifts).toHaveLength(2);

    // The file corrected: only the row that was refused and is now right is recorded.
    const corrected = file().replace(`2019-07-07,5,${closedFund.name}`, `2019-07-07,5,${missions.name}`);
    const fixed = await gql(treasurer).execute(GivingImportDocument, { csv: corrected, acceptedRows: 4 });
    expect(fixed.data!.importGivingCsv).toMatchObject({ created: 1, createdCents: 500, alreadyImported: 3 });
    expect(await julyGifts()).toHaveLength(4);
  });
});
