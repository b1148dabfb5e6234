/**
 * Pledges and campaigns (issue 29) with the real PocketBase: who reads and writes pledge_campaigns and
 * pledges through REST, as tables; through GraphQL, a pastor without finance sees no pledge, a visitor
 * sees a public campaign's progress and never a hidden campaign, a member sees their own and their
 * household's pledges only; progress counts the gifts to the campaign's fund in its period (not before,
 * not after, not another fund); bad input is refused on its fields with nothing written.
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
  CampaignsCreateDocument,
  CampaignsDeletePledgeDocument,
  CampaignsListDocument,
  CampaignsMineDocument,
  CampaignsPledgeDocument,
  CampaignsUpdateDocument,
  CampaignsUpdatePledgeDocument,
} from "./__generated__/operations.ts";
import { describeRealtimeColumn } from "./realtime-recording.ts";

let gateway: Gateway;
let su: PocketBase;

// The PocketBase SDK's realtime needs an EventSource (Node 20 has none).
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

const run = randomUUID().slice(0, 6);
const gql = (user: TestUser | null) => new GqlClient(gateway, { token: user?.token });
const pbDay = (day: string) => `${day} 00:00:00.000Z`;

type Persona =
  | "visitor"
  | "member"
  | "pledger"
  | "householdAdult"
  | "pastor"
  | "admin"
  | "summary"
  | "viewer"
  | "treasurer";
const PERSONAS: Persona[] = [
  "visitor",
  "member",
  "pledger",
  "householdAdult",
  "pastor",
  "admin",
  "summary",
  "viewer",
  "treasurer",
];
const users = {} as Record<Persona, TestUser | null>;
const made = {} as Record<
  "fund" | "otherFund" | "publicCampaign" | "hiddenCampaign" | "closedCampaign" | "pledge",
  string
>;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  const home = await su.collection("households").create({ name: `Pledge home ${run}` });
  Object.assign(users, {
    visitor: null,
    member: await createUser(),
    pledger: await createUser(),
    householdAdult: await createUser(),
    pastor: await createUser({ roles: ["Pastor"] }),
    admin: await createUser({ roles: ["Administrator"] }),
    summary: await createUserWithPermissions(["giving.view_summary"]),
    viewer: await createUserWithPermissions(["giving.view"]),
    treasurer: await createUserWithPermissions(["giving.manage"]),
  });
  for (const who of ["pledger", "householdAdult"] as const)
    await su
      .collection("people")
      .update(users[who]!.personId!, { household: home.id, householdRole: "spouse" });
  const fund = await su.collection("funds").create({ name: `Roof ${run}`, visibility: "hidden", sort: 1 });
  const otherFund = await su
    .collection("funds")
    .create({ name: `Other ${run}`, visibility: "public", sort: 2 });
  const campaign = (name: string, showProgress: boolean, status = "active") =>
    su.collection("pledge_campaigns").create({
      name: `${name} ${run}`,
      fund: fund.id,
      goalCents: 5_000_000,
      startsOn: pbDay("2026-03-01"),
      endsOn: pbDay("2026-06-30"),
      showProgress,
      status,
    });
  const publicCampaign = await campaign("Public", true);
  const hiddenCampaign = await campaign("Hidden", false);
  const closedCampaign = await campaign("Closed", true, "closed");
  const pledge = await su.collection("pledges").create({
    campaign: publicCampaign.id,
    person: users.pledger!.personId,
    amountCents: 120_000,
  });
  Object.assign(made, {
    fund: fund.id,
    otherFund: otherFund.id,
    publicCampaign: publicCampaign.id,
    hiddenCampaign: hiddenCampaign.id,
    closedCampaign: closedCampaign.id,
    pledge: pledge.id,
  });
});
afterAll(() => gateway.close());

const FINANCE_READS: Persona[] = ["viewer", "treasurer"];
const TARGETS = {
  pledge_campaigns: ["publicCampaign", "hiddenCampaign", "closedCampaign"],
  pledges: ["pledge"],
} as const;
type Collection = keyof typeof TARGETS;
const READS: Record<Collection, (who: Persona) => string[]> = {
  pledge_campaigns: (who) =>
    FINANCE_READS.includes(who) ? ["closedCampaign", "hiddenCampaign", "publicCampaign"] : ["publicCampaign"],
  pledges: (who) => (["pledger", "householdAdult", ...FINANCE_READS].includes(who) ? ["pledge"] : []),
};

describe("who reads pledge campaigns and pledges (REST)", () => {
  const rows = (Object.keys(TARGETS) as Collection[]).flatMap((collection) =>
    PERSONAS.map((who) => ({ collection, who })),
  );
  it.each(rows)("$collection as $who", async ({ collection, who }) => {
    const pb = pbAs(users[who]);
    const keys = TARGETS[collection] as readonly (keyof typeof made)[];
    const listed = await pb
      .collection(collection)
      .getFullList({ filter: keys.map((key) => `id = "${made[key]}"`).join(" || ") })
      .catch(() => []);
    const seen = keys.filter((key) => listed.some((row) => row.id === made[key])).sort();
    expect(seen).toEqual(READS[collection](who));
    for (const key of keys) {
      const status = await restStatus(() => pb.collection(collection).getOne(made[key]));
      expect(status === 200, `${collection} ${key} viewed`).toBe(READS[collection](who).includes(key));
    }
  });
});

describe("who writes pledge campaigns and pledges (REST)", () => {
  it.each(PERSONAS)("as %s", async (who) => {
    const pb = pbAs(users[who]);
    const manager = who === "treasurer";
    const campaign = await restStatus(() =>
      pb.collection("pledge_campaigns").create({
        name: `Probe ${randomUUID().slice(0, 6)}`,
        fund: made.fund,
        goalCents: 100,
        startsOn: pbDay("2026-01-01"),
        endsOn: pbDay("2026-12-31"),
        status: "active",
      }),
    );
    expect(campaign === 200, "campaign").toBe(manager);
    const rename = await restStatus(() =>
      pb.collection("pledge_campaigns").update(made.publicCampaign, { description: `by ${who}` }),
    );
    expect(rename === 200, "change a campaign").toBe(manager);

    // Someone else's pledge: finance's managers only.
    const other = await su
      .collection("people")
      .create({ firstName: "Other", lastName: `Person ${run}`, recordStatus: "active" });
    const forOther = await restStatus(async () => {
      const row = await pb
        .collection("pledges")
        .create({ campaign: made.hiddenCampaign, person: other.id, amountCents: 100 });
      await su.collection("pledges").delete(row.id);
      return row;
    });
    expect(forOther === 200, "pledge for another").toBe(manager);
    // One's own pledge: any signed-in person into an active campaign (never a closed one, never the unit).
    const self = users[who];
    if (self?.personId) {
      const own = await pb
        .collection("pledges")
        .create({ campaign: made.hiddenCampaign, person: self.personId, amountCents: 500 })
        .catch(() => null);
      expect(own, "own pledge").not.toBeNull();
      expect(own!.givingUnit, "giving unit from the hook").toBe(
        (await su.collection("people").getOne(self.personId)).household,
      );
      const changed = await restStatus(() => pb.collection("pledges").update(own!.id, { amountCents: 700 }));
      expect(changed, "change own pledge").toBe(200);
      const moved = await restStatus(() => pb.collection("pledges").update(own!.id, { person: other.id }));
      expect(moved === 200, "move own pledge to another").toBe(manager);
      const unit = await restStatus(() => pb.collection("pledges").update(own!.id, { givingUnit: "" }));
      expect(unit, "giving unit from the request").not.toBe(200);
      await su
        .collection("pledges")
        .delete(own!.id)
        .catch(() => undefined);
      const closed = await restStatus(() =>
        pb
          .collection("pledges")
          .create({ campaign: made.closedCampaign, person: self.personId, amountCents: 500 }),
      );
      expect(closed, "own pledge to a closed campaign").not.toBe(200);
    }

    // The household's pledge: finance's managers change and withdraw it; its own member changes it.
    const change = await restStatus(() =>
      pb.collection("pledges").update(made.pledge, { note: `by ${who}` }),
    );
    expect(change === 200, "change the pledge").toBe(manager || who === "pledger");
  });
});

describe("through GraphQL", () => {
  it("a visitor sees a public campaign's progress, not a hidden or closed one, and no pledge", async () => {
    const list = await gql(null).execute(CampaignsListDocument, {});
    expect(list.errors).toBeUndefined();
    const ids = list.data!.pledgeCampaigns.map((c) => c.id);
    expect(ids).toContain(made.publicCampaign);
    expect(ids).not.toContain(made.hiddenCampaign);
    expect(ids).not.toContain(made.closedCampaign);
    const shown = list.data!.pledgeCampaigns.find((c) => c.id === made.publicCampaign)!;
    expect(shown.progressCents).toEqual(expect.any(Number));
    expect(shown.pledgedCents).toBeNull();
    expect(shown.pledges).toEqual([]);
    expect(shown.pledgeCount).toBe(1);
    expect(shown.can).toEqual({ edit: false, pledge: false });
    // The fund is hidden: a visitor reads the campaign, not the fund.
    expect(shown.fund).toBeNull();
  });

  it("a pastor or an administrator without finance sees no pledge and no hidden campaign", async () => {
    for (const who of ["pastor", "admin"] as const) {
      const list = await gql(users[who]).execute(CampaignsListDocument, {});
      expect(list.errors).toBeUndefined();
      expect(list.data!.pledgeCampaigns.map((c) => c.id)).not.toContain(made.hiddenCampaign);
      expect(list.data!.pledgeCampaigns.flatMap((c) => c.pledges)).toEqual([]);
      const mine = await gql(users[who]).execute(CampaignsMineDocument, {});
      expect(mine.data!.myPledges).toEqual([]);
    }
  });

  it("a member sees their own and their household's pledges only", async () => {
    const ids = async (who: Persona) =>
      (await gql(users[who]).execute(CampaignsMineDocument, {})).data!.myPledges.map((p) => p.id);
    expect(await ids("pledger")).toEqual([made.pledge]);
    expect(await ids("householdAdult")).toEqual([made.pledge]);
    expect(await ids("member")).toEqual([]);
    expect(await ids("treasurer")).toEqual([]);
    const mine = (await gql(users.pledger).execute(CampaignsMineDocument, {})).data!.myPledges[0]!;
    expect(mine).toMatchObject({
      amountCents: expect.any(Number),
      campaign: { id: made.publicCampaign },
      can: { edit: true, delete: true },
    });
    const theirs = (await gql(users.householdAdult).execute(CampaignsMineDocument, {})).data!.myPledges[0]!;
    expect(theirs.can).toEqual({ edit: false, delete: false });
  });

  it("finance sees every campaign, its pledges and the pledged total", async () => {
    const list = await gql(users.viewer).execute(CampaignsListDocument, {});
    const hidden = list.data!.pledgeCampaigns.find((c) => c.id === made.hiddenCampaign);
    expect(hidden).toBeDefined();
    const shown = list.data!.pledgeCampaigns.find((c) => c.id === made.publicCampaign)!;
    expect(shown.pledges.map((p) => p.id)).toContain(made.pledge);
    expect(shown.pledgedCents).toBe(shown.pledges.reduce((sum, p) => sum + p.amountCents, 0));
    expect(shown.can).toEqual({ edit: false, pledge: true });
    // publicOnly: what /give shows, for finance too.
    const onGive = await gql(users.treasurer).execute(CampaignsListDocument, { publicOnly: true });
    expect(onGive.data!.pledgeCampaigns.map((c) => c.id)).not.toContain(made.hiddenCampaign);
  });
});

describe("progress", () => {
  it("counts the gifts to the campaign's fund in its period, and a pledge's household's gifts toward it", async () => {
    const campaign = await gql(users.treasurer).execute(CampaignsCreateDocument, {
      input: {
        name: `Progress ${run}`,
        fundId: made.fund,
        goalCents: 1_000_000,
        startsOn: "2025-02-01",
        endsOn: "2025-02-28",
        showProgress: true,
      },
    });
    expect(campaign.errors).toBeUndefined();
    const id = campaign.data!.createPledgeCampaign.id;
    expect(campaign.data!.createPledgeCampaign).toMatchObject({ progressCents: 0, status: "ACTIVE" });
    const gift = (
      date: string,
      splits: { fund: string; amountCents: number }[],
      person = users.pledger!.personId,
    ) =>
      su.collection("donations").create({
        person,
        date: pbDay(date),
        amountCents: splits.reduce((sum, s) => sum + s.amountCents, 0),
        method: "cash",
        splits,
      });
    await gift("2025-02-01", [{ fund: made.fund, amountCents: 10_000 }]); // first day: counts
    await gift("2025-02-28", [
      { fund: made.fund, amountCents: 2_500 }, // last day: counts
      { fund: made.otherFund, amountCents: 7_500 }, // another fund: does not
    ]);
    await gift("2025-02-14", [{ fund: made.fund, amountCents: 4_000 }], users.householdAdult!.personId); // household
    await gift("2025-02-10", [{ fund: made.fund, amountCents: 1_000 }], users.member!.personId); // someone else
    await gift("2025-01-31", [{ fund: made.fund, amountCents: 50_000 }]); // before
    await gift("2025-03-01", [{ fund: made.fund, amountCents: 60_000 }]); // after
    await gift("2025-02-15", [{ fund: made.otherFund, amountCents: 70_000 }]); // another fund

    const progress = async (who: TestUser | null) =>
      (await gql(who).execute(CampaignsListDocument, {})).data!.pledgeCampaigns.find((c) => c.id === id)
        ?.progressCents;
    expect(await progress(users.treasurer)).toBe(17_500);
    expect(await progress(null)).toBe(17_500);

    const pledge = await gql(users.pledger).execute(CampaignsPledgeDocument, {
      input: { campaignId: id, amountCents: 100_000, note: "Over the spring" },
    });
    expect(pledge.errors).toBeUndefined();
    // The pledger's household gave 10,000 + 2,500 + 4,000 to the fund in the period.
    expect(pledge.data!.createPledge).toMatchObject({
      amountCents: 100_000,
      givenCents: 16_500,
      donor: { personId: users.pledger!.personId },
    });

    // Hidden from the public: the figure is finance's only.
    await gql(users.treasurer).execute(CampaignsUpdateDocument, {
      id,
      input: {
        name: `Progress ${run}`,
        fundId: made.fund,
        goalCents: 1_000_000,
        startsOn: "2025-02-01",
        endsOn: "2025-02-28",
        showProgress: false,
      },
    });
    expect(await progress(null)).toBeUndefined();
    const summary = await createUserWithPermissions(["giving.view_summary"]);
    expect(await progress(summary)).toBeUndefined();
    expect(await progress(users.treasurer)).toBe(17_500);
    const mine = (await gql(users.pledger).execute(CampaignsMineDocument, {})).data!.myPledges.find(
      (p) => p.campaign.id === id,
    );
    expect(mine?.givenCents).toBe(16_500);
  });
});

describe("bad input", () => {
  const campaignInput = {
    name: `Bad ${run}`,
    fundId: "",
    goalCents: 1000,
    startsOn: "2026-01-01",
    endsOn: "2026-12-31",
  };
  it("a campaign with no goal or ending before it starts is refused on its fields, nothing written", async () => {
    const named = () => su.collection("pledge_campaigns").getList(1, 1, { filter: `name = "Bad ${run}"` });
    const before = (await named()).totalItems;
    const cases = [
      [{ goalCents: 0 }, "goalCents"],
      [{ goalCents: -5 }, "goalCents"],
      [{ goalCents: 10.5 }, "goalCents"],
      [{ endsOn: "2025-12-31" }, "endsOn"],
      [{ name: " " }, "name"],
    ] as const;
    for (const [change, field] of cases) {
      const result = await gql(users.treasurer).execute(CampaignsCreateDocument, {
        input: { ...campaignInput, fundId: made.fund, ...change },
      });
      expect(errorCode(result), field).toBe("BAD_USER_INPUT");
      expect(Object.keys(fieldErrors(result)), field).toEqual([field]);
    }
    const update = await gql(users.treasurer).execute(CampaignsUpdateDocument, {
      id: made.publicCampaign,
      input: { ...campaignInput, fundId: made.fund, endsOn: "2025-01-01" },
    });
    expect(Object.keys(fieldErrors(update))).toEqual(["endsOn"]);
    expect((await named()).totalItems).toBe(before);
    expect((await su.collection("pledge_campaigns").getOne(made.publicCampaign)).endsOn).toBe(
      pbDay("2026-06-30"),
    );
    // Only finance's managers start a campaign.
    expect(
      errorCode(
        await gql(users.viewer).execute(CampaignsCreateDocument, {
          input: { ...campaignInput, fundId: made.fund },
        }),
      ),
    ).toBe("FORBIDDEN");
  });

  it("a pledge of nothing, to a closed campaign, twice, or for someone else is refused, nothing written", async () => {
    const count = async () =>
      (await su.collection("pledges").getList(1, 1, { filter: `person = "${users.member!.personId}"` }))
        .totalItems;
    const before = await count();
    const zero = await gql(users.member).execute(CampaignsPledgeDocument, {
      input: { campaignId: made.publicCampaign, amountCents: 0 },
    });
    expect(Object.keys(fieldErrors(zero))).toEqual(["amountCents"]);
    const closed = await gql(users.member).execute(CampaignsPledgeDocument, {
      input: { campaignId: made.closedCampaign, amountCents: 100 },
    });
    expect(Object.keys(fieldErrors(closed))).toEqual(["campaignId"]);
    const forOther = await gql(users.member).execute(CampaignsPledgeDocument, {
      input: { campaignId: made.publicCampaign, personId: users.pledger!.personId, amountCents: 100 },
    });
    expect(errorCode(forOther)).toBe("FORBIDDEN");
    expect(await count()).toBe(before);

    const first = await gql(users.member).execute(CampaignsPledgeDocument, {
      input: { campaignId: made.publicCampaign, amountCents: 100 },
    });
    expect(first.errors).toBeUndefined();
    const twice = await gql(users.member).execute(CampaignsPledgeDocument, {
      input: { campaignId: made.publicCampaign, amountCents: 200 },
    });
    expect(Object.keys(fieldErrors(twice))).toEqual(["personId"]);
    const id = first.data!.createPledge.id;
    const negative = await gql(users.member).execute(CampaignsUpdatePledgeDocument, {
      id,
      input: { amountCents: -1 },
    });
    expect(Object.keys(fieldErrors(negative))).toEqual(["amountCents"]);
    expect((await su.collection("pledges").getOne(id)).amountCents).toBe(100);
    // Another member cannot withdraw it; its own member can.
    expect(errorCode(await gql(users.pledger).execute(CampaignsDeletePledgeDocument, { id }))).toBe(
      "FORBIDDEN",
    );
    const withdrawn = await gql(users.member).execute(CampaignsDeletePledgeDocument, { id });
    expect(withdrawn.data?.deletePledge).toBe(true);
    expect(await count()).toBe(before);
  });
});

describe("a merge of two records of one person", () => {
  it("moves the duplicate's pledges; where both pledged to one campaign, one pledge stays at the larger amount", async () => {
    const [keep, duplicate] = await Promise.all(
      ["Keep", "Duplicate"].map((lastName) =>
        su
          .collection("people")
          .create({ firstName: "Pat", lastName: `${lastName} ${run}`, recordStatus: "active" }),
      ),
    );
    const pledge = (person: string, campaign: string, amountCents: number) =>
      su.collection("pledges").create({ campaign, person, amountCents });
    await pledge(keep!.id, made.publicCampaign, 10_000);
    await pledge(duplicate!.id, made.publicCampaign, 25_000);
    const moved = await pledge(duplicate!.id, made.hiddenCampaign, 5_000);
    const staff = await createUser({ roles: ["Pastor"] });
    const merged = await gql(staff).request(
      `mutation($k: ID!, $m: ID!) { mergePeople(keepId: $k, mergeId: $m) { id } }`,
      {
        k: keep!.id,
        m: duplicate!.id,
      },
    );
    expect(merged.errors).toBeUndefined();
    const rows = await su.collection("pledges").getFullList({
      filter: `person = "${keep!.id}" || person = "${duplicate!.id}"`,
      sort: "amountCents",
    });
    expect(rows.map((r) => [r.person, r.campaign, r.amountCents])).toEqual([
      [keep!.id, made.hiddenCampaign, 5_000],
      [keep!.id, made.publicCampaign, 25_000],
    ]);
    expect(rows.map((r) => r.id)).toContain(moved.id);
  });
});

// PocketBase's own realtime: a change to a campaign or a pledge reaches exactly those who may list it.
describeRealtimeColumn({
  personas: PERSONAS,
  collections: Object.keys(TARGETS) as Collection[],
  targetKeys: (collection) => [...TARGETS[collection]],
  targetId: (_, key) => made[key as keyof typeof made],
  allowedTargets: (collection, who) => READS[collection](who),
  client: (who) => pbAs(users[who]),
  su: () => su,
});
