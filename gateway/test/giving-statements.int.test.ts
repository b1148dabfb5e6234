/**
 * Giving statements (issue 29) with the real PocketBase: a member downloads their giving unit's statement
 * as a PDF whose text carries the right totals (read with the member's own token: the rules decide which
 * gifts it lists); nobody gets another household's statement without finance, a pastor included; a
 * period that ends before it starts is a field error with nothing made; and finance's run for all donors
 * reports its progress and ends with a zip of one statement per giving unit.
 *
 * The gifts are dated 2017, a year no other file gives in: the run covers every donor of its period in
 * this worker's PocketBase.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unzipSync } from "fflate";
import type PocketBase from "pocketbase";
import { SESSION } from "@flock/shared/limits";
import type { Gateway } from "../src/index.ts";
import { statementRunsSettled } from "../src/schema/giving/statement-runs.ts";
import { pdfText } from "../../scripts/lib/pdf-text.ts";
import {
  createUser,
  errorCode,
  fieldErrors,
  GqlClient,
  pbAs,
  restStatus,
  system,
  testGateway,
  type TestUser,
  createUserWithPermissions,
} from "./helpers.ts";
import {
  GivingCreateDonationDocument,
  GivingStartStatementRunDocument,
  GivingStatementRunDocument,
  GivingStatementRunsDocument,
  GivingStatementTextDocument,
  type DonationMethod,
} from "./__generated__/operations.ts";

let gateway: Gateway;
let url: string;
let su: PocketBase;
const run = randomUUID().slice(0, 6);
const YEAR = 2017;

let treasurer: TestUser;
let member: TestUser;
let spouse: TestUser;
let neighbour: TestUser;
let individual: TestUser;
let pastor: TestUser;
let homeA: { id: string; name: string };
let homeB: { id: string; name: string };
let general: { id: string };
let coffee: { id: string };

const gql = (user: TestUser | null) => new GqlClient(gateway, { token: user?.token });

async function give(
  donor: TestUser | null,
  date: string,
  amountCents: number,
  options: {
    method?: DonationMethod;
    individual?: boolean;
    splits?: { fundId: string; amountCents: number }[];
  } = {},
) {
  const made = await gql(treasurer).execute(GivingCreateDonationDocument, {
    input: {
      personId: donor?.personId ?? null,
      individual: options.individual ?? false,
      date,
      amountCents,
      method: options.method ?? "CASH",
      ...(options.splits ? { splits: options.splits } : { fundId: general.id }),
    },
  });
  expect(made.errors).toBeUndefined();
  return made.data!.createDonation;
}

/** GET a path of the listening gateway as `user` (their session token, as a browser's cookie carries it). */
function download(path: string, user: TestUser | null) {
  return fetch(`${url}${path}`, {
    headers: user ? { cookie: `${SESSION.cookieName}=${encodeURIComponent(user.token)}` } : {},
  });
}

/** A statement's text as one string, its spaces made plain (amounts in some locales carry no-break spaces). */
async function statementText(response: Response): Promise<string> {
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toBe("application/pdf");
  return (await pdfText(new Uint8Array(await response.arrayBuffer()))).join(" ").replace(/\s+/g, " ");
}

beforeAll(async () => {
  gateway = await testGateway();
  url = await gateway.listen();
  su = await system();
  treasurer = await createUserWithPermissions(["giving.manage"]);
  pastor = await createUser({ roles: ["Pastor"] });
  [member, spouse, neighbour, individual] = await Promise.all([
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  homeA = await su.collection("households").create({ name: `Statement home A ${run}` });
  homeB = await su.collection("households").create({ name: `Statement home B ${run}` });
  await su.collection("addresses").create({
    household: homeA.id,
    street1: "12 Chapel Lane",
    city: "Springfield",
    region: "IL",
    postalCode: "62701",
    country: "US",
    visibility: "private",
  });
  for (const [user, home] of [
    [member, homeA],
    [spouse, homeA],
    [neighbour, homeB],
  ] as const)
    await su.collection("people").update(user.personId!, { household: home.id, householdRole: "spouse" });
  general = await su
    .collection("funds")
    .create({ name: `General ${run}`, deductible: true, visibility: "public", sort: 10 });
  // Hidden from members' fund list, yet their statement names it.
  coffee = await su
    .collection("funds")
    .create({ name: `Coffee ${run}`, deductible: false, visibility: "hidden", sort: 20 });

  // Household A: 100.00 + 25.50 (20.00 deductible, 5.50 not) from the member, 50.00 from the spouse.
  await give(member, `${YEAR}-02-05`, 100_00, { method: "CHEQUE" });
  await give(member, `${YEAR}-06-11`, 25_50, {
    splits: [
      { fundId: general.id, amountCents: 20_00 },
      { fundId: coffee.id, amountCents: 5_50 },
    ],
  });
  await give(spouse, `${YEAR}-12-31`, 50_00, { method: "CARD" });
  // Outside the year: on no 2017 statement.
  await give(member, `${YEAR - 1}-12-31`, 999_00);
  await give(member, `${YEAR + 1}-01-01`, 888_00);
  // Household B, a person giving individually, and loose cash (no statement).
  await give(neighbour, `${YEAR}-03-03`, 70_00);
  await give(individual, `${YEAR}-04-04`, 33_33, { individual: true });
  await give(null, `${YEAR}-05-05`, 12_00);
}, 60_000);

afterAll(async () => {
  await statementRunsSettled();
  await gateway?.close();
});

describe("a member's statement", () => {
  it("is their household's gifts in the year, with the right totals, address and legal text", async () => {
    const text = await statementText(await download(`/giving/statement.pdf?year=${YEAR}`, member));
    expect(text).toContain(homeA.name);
    expect(text).toContain("12 Chapel Lane");
    expect(text).toContain("Springfield, IL 62701");
    expect(text).toContain(`Jan 1, ${YEAR} to Dec 31, ${YEAR}`);
    expect(text).toContain(`Coffee ${run}`);
    expect(text).toContain("Cheque");
    expect(text).toMatch(/Tax-deductible \$170\.00/);
    expect(text).toMatch(/Not tax-deductible \$5\.50/);
    expect(text).toMatch(/Total given \$175\.50/);
    expect(text).toContain("No goods or services were provided in exchange for these contributions.");
    // Gifts of other years and other units are not on it.
    expect(text).not.toContain("$999.00");
    expect(text).not.toContain("$888.00");
    expect(text).not.toContain("$70.00");
    // The spouse, an adult of the same household, gets the same statement.
    const spouses = await statementText(await download(`/giving/statement.pdf?year=${YEAR}`, spouse));
    expect(spouses).toMatch(/Total given \$175\.50/);
  });

  it("covers any period asked for, and carries the legal text the settings say", async () => {
    const admin = await createUser({ roles: ["Administrator"] });
    const before = (await su.collection("settings").getFirstListItem("id != ''")).statementText as string;
    const changed = await gql(admin).execute(GivingStatementTextDocument, {
      text: `Thank you ${run}. No goods or services were provided.`,
    });
    expect(changed.data?.updateSettings.statementText).toBe(
      `Thank you ${run}. No goods or services were provided.`,
    );
    try {
      const text = await statementText(
        await download(`/giving/statement.pdf?from=${YEAR}-06-01&to=${YEAR}-12-31`, member),
      );
      expect(text).toMatch(/Total given \$75\.50/);
      expect(text).toContain(`Thank you ${run}.`);
    } finally {
      await gql(admin).execute(GivingStatementTextDocument, { text: before });
    }
    const tooLong = await gql(admin).execute(GivingStatementTextDocument, { text: "x".repeat(2001) });
    expect(Object.keys(fieldErrors(tooLong))).toEqual(["statementText"]);
  });

  it("of someone giving individually is their own gifts given that way", async () => {
    const text = await statementText(await download(`/giving/statement.pdf?year=${YEAR}`, individual));
    expect(text).toMatch(/Total given \$33\.33/);
  });

  it("is nobody else's: another household's or person's is 404, whoever asks without finance", async () => {
    for (const who of [neighbour, pastor]) {
      expect((await download(`/giving/statement.pdf?year=${YEAR}&household=${homeA.id}`, who)).status).toBe(
        404,
      );
      expect(
        (await download(`/giving/statement.pdf?year=${YEAR}&person=${member.personId}`, who)).status,
      ).toBe(404);
    }
    // The neighbour's own statement is their household's alone.
    const theirs = await statementText(await download(`/giving/statement.pdf?year=${YEAR}`, neighbour));
    expect(theirs).toMatch(/Total given \$70\.00/);
    expect(theirs).not.toContain(homeA.name);
    // A pastor without finance sees no gift: their own statement is empty.
    const pastors = await statementText(await download(`/giving/statement.pdf?year=${YEAR}`, pastor));
    expect(pastors).toContain("No gifts in this period.");
    // Signed out: sign in first.
    expect((await download(`/giving/statement.pdf?year=${YEAR}`, null)).status).toBe(401);
  });

  it("for finance may be any unit's", async () => {
    const text = await statementText(
      await download(`/giving/statement.pdf?year=${YEAR}&household=${homeA.id}`, treasurer),
    );
    expect(text).toMatch(/Total given \$175\.50/);
  });

  it("refuses a period that ends before it starts, or a year that is none, as field errors", async () => {
    const backwards = await download(`/giving/statement.pdf?from=${YEAR}-12-31&to=${YEAR}-01-01`, member);
    expect(backwards.status).toBe(400);
    const body = (await backwards.json()) as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0]!.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrorCodes: { to: "before_from" },
    });
    expect((await download(`/giving/statement.pdf?year=twenty`, member)).status).toBe(400);
  });
});

describe("statements for all donors", () => {
  it("a period that ends before it starts is a field error, and no run is made", async () => {
    const runsBefore = (await su.collection("giving_statement_runs").getList(1, 1)).totalItems;
    const refused = await gql(treasurer).execute(GivingStartStatementRunDocument, {
      from: `${YEAR}-12-31`,
      to: `${YEAR}-01-01`,
    });
    expect(fieldErrors(refused)).toEqual({ to: expect.any(String) });
    expect((await su.collection("giving_statement_runs").getList(1, 1)).totalItems).toBe(runsBefore);
  });

  it("are finance's: a pastor or a member may neither start nor follow a run", async () => {
    for (const who of [pastor, member]) {
      const refused = await gql(who).execute(GivingStartStatementRunDocument, {
        from: `${YEAR}-01-01`,
        to: `${YEAR}-12-31`,
      });
      expect(errorCode(refused)).toBe("FORBIDDEN");
      expect(errorCode(await gql(who).execute(GivingStatementRunsDocument))).toBe("FORBIDDEN");
    }
  });

  it("run with progress to a zip of one statement per giving unit", async () => {
    const started = await gql(treasurer).execute(GivingStartStatementRunDocument, {
      from: `${YEAR}-01-01`,
      to: `${YEAR}-12-31`,
    });
    expect(started.errors).toBeUndefined();
    const runId = started.data!.startGivingStatementRun.id;
    expect(started.data!.startGivingStatementRun).toMatchObject({
      status: "RUNNING",
      from: `${YEAR}-01-01`,
      to: `${YEAR}-12-31`,
      downloadUrl: null,
    });

    // Followed as a screen does, until it is done.
    const deadline = Date.now() + 20_000;
    let progress = started.data!.startGivingStatementRun;
    while (progress.status === "RUNNING" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const seen = await gql(treasurer).execute(GivingStatementRunDocument, { id: runId });
      progress = seen.data!.givingStatementRun!;
      expect(progress.unitsDone).toBeLessThanOrEqual(Math.max(progress.unitsTotal, 0));
    }
    // Household A, household B and the person giving individually; the loose cash has no statement.
    expect(progress).toMatchObject({ status: "DONE", unitsTotal: 3, unitsDone: 3, error: null });
    expect(progress.downloadUrl).toMatch(new RegExp(`/giving/statement-runs/${runId}\\.zip$`));

    // Only finance opens the zip.
    const path = new URL(progress.downloadUrl!).pathname;
    expect((await download(path, member)).status).toBe(404);
    const zip = await download(path, treasurer);
    expect(zip.status).toBe(200);
    const entries = unzipSync(new Uint8Array(await zip.arrayBuffer()));
    const names = Object.keys(entries).sort();
    expect(names).toHaveLength(3);
    expect(names.filter((name) => name.includes(homeA.id))).toHaveLength(1);
    expect(names.filter((name) => name.includes(homeB.id))).toHaveLength(1);
    expect(names.filter((name) => name.includes(individual.personId!))).toHaveLength(1);
    const textOf = async (id: string) =>
      (await pdfText(entries[names.find((name) => name.includes(id))!]!)).join(" ").replace(/\s+/g, " ");
    expect(await textOf(homeA.id)).toMatch(/Total given \$175\.50/);
    expect(await textOf(homeB.id)).toMatch(/Total given \$70\.00/);
    expect(await textOf(individual.personId!)).toMatch(/Total given \$33\.33/);

    const listed = await gql(treasurer).execute(GivingStatementRunsDocument);
    expect(listed.data!.givingStatementRuns[0]).toMatchObject({ id: runId, status: "DONE" });
  });

  it("through PocketBase's REST API: finance reads runs; nobody else sees one, and nobody writes progress", async () => {
    const [someRun] = (await su.collection("giving_statement_runs").getList(1, 1)).items;
    expect(someRun).toBeTruthy();
    expect(
      (await pbAs(treasurer).collection("giving_statement_runs").getList(1, 5)).items.length,
    ).toBeGreaterThan(0);
    for (const who of [member, pastor, null]) {
      expect((await pbAs(who).collection("giving_statement_runs").getList(1, 5)).items).toEqual([]);
      expect(await restStatus(() => pbAs(who).collection("giving_statement_runs").getOne(someRun!.id))).toBe(
        404,
      );
    }
    // Progress and the zip are the system's, even for finance; a run is started as oneself, running.
    expect(
      await restStatus(() =>
        pbAs(treasurer)
          .collection("giving_statement_runs")
          .update(someRun!.id, { status: "done", unitsDone: 99 }),
      ),
    ).toBe(403);
    const period = { from: `${YEAR}-01-01 00:00:00.000Z`, to: `${YEAR}-01-31 00:00:00.000Z` };
    expect(
      await restStatus(() =>
        pbAs(treasurer)
          .collection("giving_statement_runs")
          .create({ ...period, status: "done", createdBy: treasurer.id }),
      ),
    ).toBe(400);
    expect(
      await restStatus(() =>
        pbAs(pastor)
          .collection("giving_statement_runs")
          .create({ ...period, status: "running", createdBy: pastor.id }),
      ),
    ).toBe(400);
  });
});
