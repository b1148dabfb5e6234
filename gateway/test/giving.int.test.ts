/**
 * Giving (issue 29) with the real PocketBase: a batch counted first, keyed in, closed only when its
 * gifts match and then locked, reopened only with a reason; bad input refused with nothing written;
 * two treasurers closing at once close it once; a gift's giving unit stays with the gift when the donor
 * moves; and who reads and writes each giving collection, as tables, through PocketBase's REST API, its
 * realtime stream and GraphQL (finance is separate: a pastor or administrator sees no gift).
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
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
  GivingBatchDocument,
  GivingBatchesDocument,
  GivingCloseDocument,
  GivingCreateBatchDocument,
  GivingCreateDonationDocument,
  GivingCreateFundDocument,
  GivingDonorsDocument,
  GivingDeleteDonationDocument,
  GivingMineDocument,
  GivingReopenDocument,
  GivingSummaryDocument,
  GivingUpdateDonationDocument,
} from "./__generated__/operations.ts";
import { describeRealtimeColumn } from "./realtime-recording.ts";

// The PocketBase SDK's realtime needs an EventSource (Node 20 has none).
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

let gateway: Gateway;
let su: PocketBase;
const run = randomUUID().slice(0, 6);

let treasurer: TestUser;
let general: { id: string };
let building: { id: string };

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  treasurer = await createUserWithPermissions(["giving.manage"]);
  general = await su
    .collection("funds")
    .create({ name: `General ${run}`, deductible: true, visibility: "public", sort: 10 });
  building = await su
    .collection("funds")
    .create({ name: `Building ${run}`, deductible: true, visibility: "hidden", sort: 20 });
});
afterAll(() => gateway.close());

const gql = (user: TestUser | null) => new GqlClient(gateway, { token: user?.token });
const today = "2026-11-29";

async function openBatch(controlTotalCents: number, controlCount: number) {
  const made = await gql(treasurer).execute(GivingCreateBatchDocument, {
    input: { name: `Sunday ${run}`, depositDate: today, controlTotalCents, controlCount },
  });
  expect(made.errors).toBeUndefined();
  return made.data!.createDonationBatch;
}

describe("funds", () => {
  it("are kept by finance only; a bad one is refused on its fields", async () => {
    const made = await gql(treasurer).execute(GivingCreateFundDocument, {
      input: { name: `Missions ${run}`, deductible: false, visibility: "PUBLIC" },
    });
    expect(made.errors).toBeUndefined();
    expect(made.data!.createFund).toMatchObject({
      visibility: "PUBLIC",
      deductible: false,
      can: { edit: true },
    });
    for (const who of [
      await createUser({ roles: ["Administrator"] }),
      await createUser({ roles: ["Pastor"] }),
    ]) {
      const refused = await gql(who).execute(GivingCreateFundDocument, {
        input: { name: "Mine", deductible: true, visibility: "PUBLIC" },
      });
      expect(errorCode(refused)).toBe("FORBIDDEN");
    }
    const bad = await gql(treasurer).execute(GivingCreateFundDocument, {
      input: { name: " ", deductible: true, visibility: "HIDDEN" },
    });
    expect(Object.keys(fieldErrors(bad))).toEqual(["name"]);
  });
});

describe("finding a donor", () => {
  it("every word typed starts a name (first, last or preferred); archived people and bad searches are not found", async () => {
    const last = `Quill${run}`;
    const [found, archived] = await Promise.all(
      ["active", "archived"].map((recordStatus) =>
        su
          .collection("people")
          .create({ firstName: "Marguerite", preferredName: "Peggy", lastName: last, recordStatus }),
      ),
    );
    const search = async (text: string) =>
      (await gql(treasurer).execute(GivingDonorsDocument, { search: text })).data?.givingDonors.map(
        (d) => d.personId,
      );
    expect(await search(`marg ${last.slice(0, 7)}`)).toEqual([found!.id]);
    expect(await search(`${last} peg`)).toEqual([found!.id]);
    // Words must start a name: the middle of one is not a match.
    expect(await search(`argue ${last}`)).toEqual([]);
    expect(await search(`marg nobody${run}`)).toEqual([]);
    expect(await search(last)).not.toContain(archived!.id);
    expect(
      Object.keys(fieldErrors(await gql(treasurer).execute(GivingDonorsDocument, { search: "m" }))),
    ).toEqual(["search"]);
    // Finding people is for those who record gifts.
    const summary = await createUserWithPermissions(["giving.view_summary"]);
    expect(errorCode(await gql(summary).execute(GivingDonorsDocument, { search: last }))).toBe("FORBIDDEN");
  });
});

describe("a batch of counted gifts", () => {
  it("takes gifts until they match the counted figures, closes, locks them, and reopens only with a reason", async () => {
    const donor = await createUser();
    const batch = await openBatch(15000, 2);
    expect(batch).toMatchObject({ status: "OPEN", totalCents: 0, count: 0, balanced: false });
    expect(batch.can).toMatchObject({ edit: true, close: false, reopen: false });

    const first = await gql(treasurer).execute(GivingCreateDonationDocument, {
      input: {
        batchId: batch.id,
        personId: donor.personId,
        date: today,
        amountCents: 10000,
        method: "CHEQUE",
        chequeNumber: "1042",
        fundId: general.id,
      },
    });
    expect(first.errors).toBeUndefined();
    expect(first.data!.createDonation).toMatchObject({
      amountCents: 10000,
      currency: "USD",
      method: "CHEQUE",
      chequeNumber: "1042",
      donor: { personId: donor.personId },
      splits: [{ fund: { id: general.id }, amountCents: 10000 }],
    });
    // Closing early is refused: the gifts do not match the counted figures yet.
    const early = await gql(treasurer).execute(GivingCloseDocument, { id: batch.id });
    expect(errorCode(early)).toBe("BAD_USER_INPUT");

    // An anonymous gift split across two funds.
    const second = await gql(treasurer).execute(GivingCreateDonationDocument, {
      input: {
        batchId: batch.id,
        date: today,
        amountCents: 5000,
        method: "CASH",
        splits: [
          { fundId: general.id, amountCents: 3000 },
          { fundId: building.id, amountCents: 2000 },
        ],
      },
    });
    expect(second.errors).toBeUndefined();
    expect(second.data!.createDonation.donor).toBeNull();

    const full = await gql(treasurer).execute(GivingBatchDocument, { id: batch.id });
    expect(full.data!.donationBatch).toMatchObject({
      totalCents: 15000,
      count: 2,
      balanced: true,
      can: { close: true },
    });
    expect(full.data!.donationBatch!.donations.map((d) => d.amountCents)).toEqual([10000, 5000]);

    const closed = await gql(treasurer).execute(GivingCloseDocument, { id: batch.id });
    expect(closed.errors).toBeUndefined();
    expect(closed.data!.closeDonationBatch).toMatchObject({
      status: "CLOSED",
      can: { edit: false, reopen: true },
    });
    expect(closed.data!.closeDonationBatch.closedAt).not.toBeNull();

    // Locked: no change, no new gift, no removal.
    const giftId = first.data!.createDonation.id;
    const edit = await gql(treasurer).execute(GivingUpdateDonationDocument, {
      id: giftId,
      input: {
        batchId: batch.id,
        personId: donor.personId,
        date: today,
        amountCents: 9000,
        method: "CHEQUE",
        fundId: general.id,
      },
    });
    expect(errorCode(edit)).toBe("BAD_USER_INPUT");
    const added = await gql(treasurer).execute(GivingCreateDonationDocument, {
      input: { batchId: batch.id, date: today, amountCents: 100, method: "CASH", fundId: general.id },
    });
    expect(errorCode(added)).toBe("BAD_USER_INPUT");
    expect(errorCode(await gql(treasurer).execute(GivingDeleteDonationDocument, { id: giftId }))).toBe(
      "BAD_USER_INPUT",
    );
    expect((await su.collection("donations").getOne(giftId)).amountCents).toBe(10000);
    // Not even the donor, for finance (the system alone re-points one, merging two people records).
    const someoneElse = await createUser();
    expect(
      await restStatus(() =>
        pbAs(treasurer).collection("donations").update(giftId, { person: someoneElse.personId }),
      ),
    ).not.toBe(200);
    const unit = (await su.collection("donations").getOne(giftId)).givingUnit;
    const moved = await su.collection("donations").update(giftId, { person: someoneElse.personId });
    expect(moved.person).toBe(someoneElse.personId);
    // The giving unit stays the one of the day it was given; the batch's figures do not move.
    expect(moved.givingUnit).toBe(unit);
    expect((await su.collection("donation_batches").getOne(batch.id)).totalCents).toBe(15000);

    // While a batch is open, a corrected donor brings their own household as the giving unit.
    const openOne = await openBatch(500, 1);
    const home = await su.collection("households").create({ name: `Corrected ${run}` });
    await su.collection("people").update(someoneElse.personId!, { household: home.id });
    const wrongDonor = await gql(treasurer).execute(GivingCreateDonationDocument, {
      input: {
        batchId: openOne.id,
        personId: donor.personId,
        date: today,
        amountCents: 500,
        method: "CASH",
        fundId: general.id,
      },
    });
    const corrected = await gql(treasurer).execute(GivingUpdateDonationDocument, {
      id: wrongDonor.data!.createDonation.id,
      input: {
        batchId: openOne.id,
        personId: someoneElse.personId,
        date: today,
        amountCents: 500,
        method: "CASH",
        fundId: general.id,
      },
    });
    expect(corrected.errors).toBeUndefined();
    expect(corrected.data!.updateDonation.givingUnitName).toBe(`Corrected ${run}`);

    // Reopening needs a reason, which is kept.
    const noReason = await gql(treasurer).execute(GivingReopenDocument, { id: batch.id, reason: " " });
    expect(errorCode(noReason)).toBe("BAD_USER_INPUT");
    const reopened = await gql(treasurer).execute(GivingReopenDocument, {
      id: batch.id,
      reason: "A cheque was keyed as 100.00 instead of 10.00",
    });
    expect(reopened.errors).toBeUndefined();
    expect(reopened.data!.reopenDonationBatch).toMatchObject({
      status: "OPEN",
      reopenReason: "A cheque was keyed as 100.00 instead of 10.00",
    });
    expect(reopened.data!.reopenDonationBatch.reopenedAt).not.toBeNull();
  });

  it("refuses bad input on the field, writing nothing", async () => {
    const batch = await openBatch(0, 0);
    const closedFund = await su.collection("funds").create({ name: `Old roof ${run}`, visibility: "closed" });
    const before = (await su.collection("donations").getList(1, 1, { filter: `batch = "${batch.id}"` }))
      .totalItems;
    const cases: [string, Record<string, unknown>, string][] = [
      ["zero", { amountCents: 0, fundId: general.id }, "amountCents"],
      ["negative", { amountCents: -500, fundId: general.id }, "amountCents"],
      ["a fraction of a cent", { amountCents: 10.5, fundId: general.id }, "amountCents"],
      [
        "splits that do not sum",
        {
          amountCents: 1000,
          splits: [
            { fundId: general.id, amountCents: 600 },
            { fundId: building.id, amountCents: 300 },
          ],
        },
        "splits",
      ],
      [
        "a fund twice",
        {
          amountCents: 1000,
          splits: [
            { fundId: general.id, amountCents: 500 },
            { fundId: general.id, amountCents: 500 },
          ],
        },
        "splits",
      ],
      ["no fund", { amountCents: 1000 }, "splits"],
      ["a closed fund", { amountCents: 1000, fundId: closedFund.id }, "splits"],
      ["a date that is not one", { amountCents: 1000, fundId: general.id, date: "2026-02-30" }, "date"],
    ];
    for (const [label, fields, field] of cases) {
      const result = await gql(treasurer).execute(GivingCreateDonationDocument, {
        input: { batchId: batch.id, date: today, method: "CASH", amountCents: 1, ...fields } as never,
      });
      expect(errorCode(result), label).toBe("BAD_USER_INPUT");
      expect(Object.keys(fieldErrors(result)), label).toContain(field);
    }
    expect(
      (await su.collection("donations").getList(1, 1, { filter: `batch = "${batch.id}"` })).totalItems,
    ).toBe(before);
    const badBatch = await gql(treasurer).execute(GivingCreateBatchDocument, {
      input: { name: "", depositDate: "soon", controlTotalCents: -1, controlCount: -1 },
    });
    expect(Object.keys(fieldErrors(badBatch)).sort()).toEqual([
      "controlCount",
      "controlTotalCents",
      "depositDate",
      "name",
    ]);
  });

  it("two treasurers closing the same batch at once close it once", async () => {
    const other = await createUserWithPermissions(["giving.manage"]);
    const batch = await openBatch(2500, 1);
    await gql(treasurer).execute(GivingCreateDonationDocument, {
      input: { batchId: batch.id, date: today, amountCents: 2500, method: "CASH", fundId: general.id },
    });
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        gql(i % 2 ? other : treasurer).execute(GivingCloseDocument, { id: batch.id }),
      ),
    );
    for (const answer of answers) {
      expect(answer.errors).toBeUndefined();
      expect(answer.data!.closeDonationBatch.status).toBe("CLOSED");
    }
    const stored = await su.collection("donation_batches").getOne(batch.id);
    // Closed once: every answer names the one closing.
    expect(new Set(answers.map((a) => a.data!.closeDonationBatch.closedAt))).toEqual(
      new Set([stored.closedAt.replace(" ", "T")]),
    );
  });

  it("a gift stays with its giving unit when the donor moves household; the donor keeps their history", async () => {
    const oldHome = await su.collection("households").create({ name: `Old home ${run}` });
    const newHome = await su.collection("households").create({ name: `New home ${run}` });
    const donor = await createUser();
    const spouse = await createUser();
    const newSpouse = await createUser();
    for (const [user, home] of [
      [donor, oldHome],
      [spouse, oldHome],
      [newSpouse, newHome],
    ] as const)
      await su
        .collection("people")
        .update(user.personId!, { household: home.id, householdRole: "spouse", ageGroup: "adult" });
    const gift = await gql(treasurer).execute(GivingCreateDonationDocument, {
      input: { personId: donor.personId, date: today, amountCents: 4200, method: "CARD", fundId: general.id },
    });
    expect(gift.data!.createDonation.givingUnitName).toBe(`Old home ${run}`);
    await su.collection("people").update(donor.personId!, { household: newHome.id });

    const year = Number(today.slice(0, 4));
    const ids = async (user: TestUser) =>
      (await gql(user).execute(GivingMineDocument, { year })).data!.myGiving.donations.map((d) => d.id);
    const id = gift.data!.createDonation.id;
    expect(await ids(donor)).toContain(id);
    expect(await ids(spouse)).toContain(id);
    expect(await ids(newSpouse)).not.toContain(id);
    const mine = (await gql(donor).execute(GivingMineDocument, { year })).data!.myGiving;
    expect(mine).toMatchObject({ currency: "USD" });
    expect(mine.totalCents).toBeGreaterThanOrEqual(4200);
    expect(mine.deductibleCents).toBe(mine.totalCents);
  });
});

// Who reads what, and who writes (REST), for every giving collection.
type Persona =
  "visitor" | "member" | "donor" | "householdAdult" | "pastor" | "admin" | "summary" | "viewer" | "treasurer";
const PERSONAS: Persona[] = [
  "visitor",
  "member",
  "donor",
  "householdAdult",
  "pastor",
  "admin",
  "summary",
  "viewer",
  "treasurer",
];
const users = {} as Record<Persona, TestUser | null>;
const made = {} as Record<"publicFund" | "hiddenFund" | "batch" | "gift" | "split", string>;

beforeAll(async () => {
  const home = await su.collection("households").create({ name: `Table home ${run}` });
  Object.assign(users, {
    visitor: null,
    member: await createUser(),
    donor: await createUser(),
    householdAdult: await createUser(),
    pastor: await createUser({ roles: ["Pastor"] }),
    admin: await createUser({ roles: ["Administrator"] }),
    summary: await createUserWithPermissions(["giving.view_summary"]),
    viewer: await createUserWithPermissions(["giving.view"]),
    treasurer,
  });
  for (const who of ["donor", "householdAdult"] as const)
    await su
      .collection("people")
      .update(users[who]!.personId!, { household: home.id, householdRole: "spouse" });
  const batch = await su.collection("donation_batches").create({
    name: `Table ${run}`,
    depositDate: `${today} 00:00:00.000Z`,
    controlTotalCents: 7700,
    controlCount: 1,
  });
  const gift = await su.collection("donations").create({
    batch: batch.id,
    person: users.donor!.personId,
    date: `${today} 00:00:00.000Z`,
    amountCents: 7700,
    method: "cash",
    splits: [{ fund: building.id, amountCents: 7700 }],
  });
  const split = await su.collection("donation_splits").getFirstListItem(`donation = "${gift.id}"`);
  Object.assign(made, {
    publicFund: general.id,
    hiddenFund: building.id,
    batch: batch.id,
    gift: gift.id,
    split: split.id,
  });
});

const TARGETS = {
  funds: ["publicFund", "hiddenFund"],
  donation_batches: ["batch"],
  donations: ["gift"],
  donation_splits: ["split"],
} as const;
type Collection = keyof typeof TARGETS;
const FINANCE: Persona[] = ["summary", "viewer", "treasurer"];
const READS: Record<Collection, (who: Persona) => string[]> = {
  funds: (who) => (FINANCE.includes(who) ? ["hiddenFund", "publicFund"] : ["publicFund"]),
  donation_batches: (who) => (["viewer", "treasurer"].includes(who) ? ["batch"] : []),
  donations: (who) => (["donor", "householdAdult", "viewer", "treasurer"].includes(who) ? ["gift"] : []),
  donation_splits: (who) => (FINANCE.includes(who) ? ["split"] : []),
};

describe("who reads each giving collection (REST)", () => {
  const rows = (Object.keys(TARGETS) as Collection[]).flatMap((collection) =>
    PERSONAS.map((who) => ({ collection, who })),
  );
  it.each(rows)("$collection as $who", async ({ collection, who }) => {
    const pb = pbAs(users[who]);
    const keys = TARGETS[collection] as readonly string[];
    const ids = keys.map((key) => made[key as keyof typeof made]);
    const listed = await pb
      .collection(collection)
      .getFullList({ filter: ids.map((id) => `id = "${id}"`).join(" || ") })
      .catch(() => []);
    const seen = keys.filter((key) => listed.some((row) => row.id === made[key as keyof typeof made])).sort();
    expect(seen).toEqual(READS[collection](who));
    for (const key of keys) {
      const status = await restStatus(() => pb.collection(collection).getOne(made[key as keyof typeof made]));
      expect(status === 200, `${collection} ${key} viewed`).toBe(READS[collection](who).includes(key));
    }
  });
});

describe("who writes giving records (REST)", () => {
  it.each(PERSONAS)("as %s", async (who) => {
    const pb = pbAs(users[who]);
    const mayManage = who === "treasurer";
    const fund = await restStatus(() =>
      pb.collection("funds").create({ name: `Probe ${randomUUID().slice(0, 6)}`, visibility: "hidden" }),
    );
    expect(fund === 200, "fund").toBe(mayManage);
    const gift = await restStatus(() =>
      pb.collection("donations").create({
        date: `${today} 00:00:00.000Z`,
        amountCents: 100,
        method: "cash",
        splits: [{ fund: general.id, amountCents: 100 }],
      }),
    );
    expect(gift === 200, "gift").toBe(mayManage);
    // Nobody writes a split (the hook's) or a batch's totals.
    expect(
      await restStatus(() => pb.collection("donation_splits").update(made.split, { amountCents: 1 })),
    ).not.toBe(200);
    const totals = await restStatus(() =>
      pb.collection("donation_batches").update(made.batch, { totalCents: 1 }),
    );
    expect(totals).not.toBe(200);
    // Only finance's managers change a gift; a donor never changes their own.
    const change = await restStatus(() => pb.collection("donations").update(made.gift, { note: "changed" }));
    expect(change === 200, "change a gift").toBe(mayManage);
  });
});

describe("through GraphQL", () => {
  it("batches for finance that sees gifts; totals without donors for the summary; nothing for a pastor or an administrator", async () => {
    for (const who of ["pastor", "admin", "summary", "member"] as const)
      expect(errorCode(await gql(users[who]).execute(GivingBatchesDocument, {})), who).toBe("FORBIDDEN");
    const seen = await gql(users.viewer).execute(GivingBatchesDocument, {});
    expect(seen.data!.donationBatches.map((b) => b.id)).toContain(made.batch);
    const summary = await gql(users.summary).execute(GivingSummaryDocument, {
      from: "2026-11-01",
      to: "2026-11-30",
    });
    expect(summary.errors).toBeUndefined();
    const row = summary.data!.givingSummary.find((r) => r.fund.id === building.id && r.month === "2026-11");
    expect(row?.amountCents).toBeGreaterThanOrEqual(7700);
    for (const who of ["pastor", "admin", "member"] as const)
      expect(
        errorCode(
          await gql(users[who]).execute(GivingSummaryDocument, { from: "2026-11-01", to: "2026-11-30" }),
        ),
        who,
      ).toBe("FORBIDDEN");
    const mine = await gql(users.donor).execute(GivingMineDocument, { year: 2026 });
    expect(mine.data!.myGiving.donations.map((d) => d.id)).toContain(made.gift);
    // A gift to a hidden fund (the donor may not list it) still names its fund for the donor, and
    // counts in their deductible total as it does on their statement.
    expect(mine.data!.myGiving.donations.find((d) => d.id === made.gift)?.splits).toEqual([
      { fund: { id: building.id, name: `Building ${run}` }, amountCents: 7700 },
    ]);
    expect(mine.data!.myGiving.deductibleCents).toBeGreaterThanOrEqual(7700);
    const member = await gql(users.member).execute(GivingMineDocument, { year: 2026 });
    expect(member.data!.myGiving.donations.map((d) => d.id)).not.toContain(made.gift);
    const funds = async (who: Persona) => (await gql(users[who]).execute(GivingBatchesDocument, {})).errors;
    expect(await funds("treasurer")).toBeUndefined();
  });
});

describe("API tokens: GIVING_SUMMARY reads totals, never a gift or a donor", () => {
  const tokens = {} as Record<"none" | "summary", { id: string; secret: string }>;
  beforeAll(async () => {
    const admin = await createUser({ roles: ["Administrator"] });
    for (const [name, scopes] of [
      ["none", []],
      ["summary", ["GIVING_SUMMARY"]],
    ] as const) {
      const created = await new GqlClient(gateway, { token: admin.token }).request<{
        createApiToken: { secret: string; token: { id: string } };
      }>(
        `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { id } } }`,
        {
          input: { name: `Giving ${name} ${run}`, scopes },
        },
      );
      expect(created.errors).toBeUndefined();
      tokens[name] = {
        id: created.data!.createApiToken.token.id,
        secret: created.data!.createApiToken.secret,
      };
    }
  });
  const rest = (name: "none" | "summary") => su.collection("api_clients").impersonate(tokens[name].id, 600);
  const token = (name: "none" | "summary") =>
    new GqlClient(gateway, { token: tokens[name].secret, ip: "198.51.100.92" });
  const listed = async (pb: PocketBase, collection: string, id: string) =>
    (
      await pb
        .collection(collection)
        .getFullList({ filter: `id = "${id}"` })
        .catch(() => [])
    ).map((r) => r.id);

  it("through REST: the summary token reads splits and every fund; no token reads a gift, a batch or writes", async () => {
    const summary = await rest("summary");
    const none = await rest("none");
    expect(await listed(summary, "donation_splits", made.split)).toEqual([made.split]);
    expect(await listed(summary, "funds", made.hiddenFund)).toEqual([made.hiddenFund]);
    expect(await listed(none, "donation_splits", made.split)).toEqual([]);
    expect(await listed(none, "funds", made.hiddenFund)).toEqual([]);
    expect(await listed(none, "funds", made.publicFund)).toEqual([made.publicFund]);
    for (const pb of [summary, none]) {
      expect(await listed(pb, "donations", made.gift)).toEqual([]);
      expect(await listed(pb, "donation_batches", made.batch)).toEqual([]);
      expect(await restStatus(() => pb.collection("donations").getOne(made.gift))).toBe(404);
      expect(
        await restStatus(() => pb.collection("funds").create({ name: `Token ${run}`, visibility: "hidden" })),
      ).not.toBe(200);
    }
  });

  it("through GraphQL: the summary token gets the totals with their funds, no batch and no donor; a token without it nothing", async () => {
    const period = { from: "2026-11-01", to: "2026-11-30" };
    const totals = await token("summary").execute(GivingSummaryDocument, period);
    expect(totals.errors).toBeUndefined();
    expect(
      totals.data!.givingSummary.find((r) => r.fund.id === building.id && r.month === "2026-11")?.amountCents,
    ).toBeGreaterThanOrEqual(7700);
    const csv = await token("summary").request<{ givingSummaryCsv: string }>(
      `query ($from: String!, $to: String!) { givingSummaryCsv(from: $from, to: $to) }`,
      period,
    );
    expect(csv.errors).toBeUndefined();
    expect(csv.data!.givingSummaryCsv).toContain(`Building ${run}`);
    // What needs a person (finance with more than totals) answers a token as it answers anyone not signed in.
    expect(errorCode(await token("summary").execute(GivingBatchesDocument, {}))).toBe("UNAUTHENTICATED");
    expect(
      errorCode(
        await token("summary").request(
          `query ($from: String!, $to: String!) { givingDonationsCsv(from: $from, to: $to) }`,
          period,
        ),
      ),
    ).toBe("UNAUTHENTICATED");
    expect(errorCode(await token("none").execute(GivingSummaryDocument, period))).toBe("UNAUTHENTICATED");
    // Writes stay with finance's people: a token's mutation is refused before any resolver.
    const write = await token("summary").execute(GivingCreateFundDocument, {
      input: { name: "Token fund", deductible: true, visibility: "HIDDEN" },
    });
    expect(errorCode(write)).toBe("FORBIDDEN");
  });
});

// PocketBase's own realtime: a change to a gift, its split, its batch or a fund reaches exactly those
// who may list it.
describeRealtimeColumn({
  personas: PERSONAS,
  collections: Object.keys(TARGETS) as Collection[],
  targetKeys: (collection) => [...TARGETS[collection]],
  targetId: (_, key) => made[key as keyof typeof made],
  allowedTargets: (collection, who) => READS[collection](who),
  client: (who) => pbAs(users[who]),
  su: () => su,
});
