/**
 * Serving's write rules decided inside the write (pb_hooks/lib/serving.js), through PocketBase's REST
 * API as every path writes: who may be asked, places left under concurrent asks, single-use mail links,
 * and nothing asked or answered on a plan that is done.
 */
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";
import { createUser, pbAs, system, type TestUser } from "./helpers.ts";

let su: PocketBase;
let leader: TestUser;
let otherLeader: TestUser;
let volunteer: TestUser;
const run = randomUUID().slice(0, 6);

/** A team led by `leader` with a position, `volunteer` able to fill it, and a plan needing `count`. */
async function world(count = 1, planStatus = "published") {
  const team = await su
    .collection("serving_teams")
    .create({ name: `Team ${run} ${randomUUID().slice(0, 4)}`, status: "active" });
  const position = await su.collection("serving_positions").create({ team: team.id, name: "Greeter" });
  await su
    .collection("serving_members")
    .create({ team: team.id, person: leader.personId, role: "leader", status: "active" });
  await su.collection("serving_members").create({
    team: team.id,
    person: volunteer.personId,
    role: "member",
    status: "active",
    positions: [position.id],
  });
  const plan = await su.collection("serving_plans").create({
    title: "Sunday",
    date: "2030-03-03 00:00:00.000Z",
    status: planStatus,
  });
  const need = await su.collection("serving_needs").create({ plan: plan.id, position: position.id, count });
  return { team, position, plan, need };
}

/** A person on the team who can fill the position (no login). */
async function teammate(teamId: string, positionId: string) {
  const person = await su
    .collection("people")
    .create({ firstName: "Mate", lastName: run, recordStatus: "active" });
  await su
    .collection("serving_members")
    .create({ team: teamId, person: person.id, role: "member", status: "active", positions: [positionId] });
  return person.id as string;
}

const refusal = async (write: Promise<unknown>) => {
  try {
    await write;
    return null;
  } catch (error) {
    if (!(error instanceof ClientResponseError)) throw error;
    return { status: error.status, data: error.response.data as Record<string, { code: string }> };
  }
};

beforeAll(async () => {
  su = await system();
  [leader, otherLeader, volunteer] = await Promise.all([createUser(), createUser(), createUser()]);
});

describe("requests to serve, decided in the write", () => {
  it("a leader asks a volunteer of their team; the plan and position come from the need, with a mail-link secret", async () => {
    const { need, plan, position } = await world();
    const request = await pbAs(leader)
      .collection("serving_requests")
      .create({ need: need.id, person: volunteer.personId });
    expect(request).toMatchObject({
      plan: plan.id,
      position: position.id,
      status: "pending",
      source: "manual",
    });
    expect(request.token).toBeUndefined(); // hidden from every API reader
    const stored = await su.collection("serving_requests").getOne(request.id);
    expect(stored.token).toMatch(/^[A-Za-z0-9]{43}$/);
  });

  it("refuses someone not on the team, or not able to fill the position, with a field error", async () => {
    const { need, team } = await world();
    const stranger = await su
      .collection("people")
      .create({ firstName: "Stranger", lastName: run, recordStatus: "active" });
    expect(
      await refusal(su.collection("serving_requests").create({ need: need.id, person: stranger.id })),
    ).toMatchObject({
      status: 400,
      data: { person: { code: "validation_not_on_team" } },
    });
    const other = await su.collection("serving_positions").create({ team: team.id, name: "Coffee" });
    const mate = await teammate(team.id, other.id);
    expect(
      await refusal(su.collection("serving_requests").create({ need: need.id, person: mate })),
    ).toMatchObject({
      status: 400,
      data: { person: { code: "validation_not_on_position" } },
    });
  });

  it("a leader of another team cannot ask for this team's places", async () => {
    const { need } = await world();
    const other = await su
      .collection("serving_teams")
      .create({ name: `Other ${run} ${randomUUID().slice(0, 4)}`, status: "active" });
    await su
      .collection("serving_members")
      .create({ team: other.id, person: otherLeader.personId, role: "leader", status: "active" });
    expect(
      (
        await refusal(
          pbAs(otherLeader)
            .collection("serving_requests")
            .create({ need: need.id, person: volunteer.personId }),
        )
      )?.status,
    ).toBe(400);
  });

  it("two leaders filling the last place at once leave one request", async () => {
    const { need, team, position } = await world(1);
    const mates = await Promise.all([teammate(team.id, position.id), teammate(team.id, position.id)]);
    const results = await Promise.allSettled(
      [volunteer.personId!, ...mates].map((person) =>
        pbAs(leader).collection("serving_requests").create({ need: need.id, person }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const refused = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    for (const r of refused)
      expect((r.reason as ClientResponseError).response.data).toMatchObject({
        need: { code: "validation_need_full" },
      });
    expect(
      await su.collection("serving_requests").getFullList({ filter: `need = "${need.id}"` }),
    ).toHaveLength(1);
  });

  it("a decline frees the place; accepting again needs one free", async () => {
    const { need, team, position } = await world(1);
    const first = await su
      .collection("serving_requests")
      .create({ need: need.id, person: volunteer.personId });
    await pbAs(volunteer)
      .collection("serving_requests")
      .update(first.id, { status: "declined", declineReason: "Away" });
    const mate = await teammate(team.id, position.id);
    await su.collection("serving_requests").create({ need: need.id, person: mate });
    expect(
      await refusal(pbAs(volunteer).collection("serving_requests").update(first.id, { status: "accepted" })),
    ).toMatchObject({ status: 400, data: { need: { code: "validation_need_full" } } });
  });

  it("the mail link answers once, without signing in; a second answer is refused and the first stands", async () => {
    const { need } = await world();
    const request = await su
      .collection("serving_requests")
      .create({ need: need.id, person: volunteer.personId });
    const token = (await su.collection("serving_requests").getOne(request.id)).token as string;
    const guest = pbAs(null);
    const [a, b] = await Promise.allSettled([
      guest
        .collection("serving_requests")
        .update(request.id, { status: "declined", declineReason: "Away" }, { query: { token } }),
      guest.collection("serving_requests").update(request.id, { status: "accepted" }, { query: { token } }),
    ]);
    expect([a.status, b.status].filter((s) => s === "fulfilled")).toHaveLength(1);
    const stored = await su.collection("serving_requests").getOne(request.id);
    expect(stored.token).toBe("");
    expect(stored.answeredAt).not.toBe("");
    expect(
      (
        await refusal(
          guest
            .collection("serving_requests")
            .update(request.id, { status: "accepted" }, { query: { token } }),
        )
      )?.status,
    ).toBe(404);
    // A wrong token, or one that tries to change more than the answer, is refused too.
    const other = await su
      .collection("serving_requests")
      .create({ need: (await world()).need.id, person: volunteer.personId });
    const otherToken = (await su.collection("serving_requests").getOne(other.id)).token as string;
    expect(
      (
        await refusal(
          guest
            .collection("serving_requests")
            .update(other.id, { status: "accepted" }, { query: { token: "x".repeat(43) } }),
        )
      )?.status,
    ).toBe(404);
    expect(
      (
        await refusal(
          guest
            .collection("serving_requests")
            .update(other.id, { status: "accepted", source: "swap" }, { query: { token: otherToken } }),
        )
      )?.status,
    ).toBe(404);
  });

  it("a volunteer answers only the answer: not the person, not the need", async () => {
    const { need } = await world(2);
    const request = await su
      .collection("serving_requests")
      .create({ need: need.id, person: volunteer.personId });
    expect(
      (
        await refusal(
          pbAs(volunteer).collection("serving_requests").update(request.id, { status: "cancelled" }),
        )
      )?.status,
    ).toBe(404);
    expect(
      (
        await refusal(
          pbAs(volunteer)
            .collection("serving_requests")
            .update(request.id, { status: "accepted", person: leader.personId }),
        )
      )?.status,
    ).toBe(404);
    await pbAs(volunteer).collection("serving_requests").update(request.id, { status: "accepted" });
  });

  it("nothing is asked or answered on a plan that is done", async () => {
    const { need, plan } = await world(2);
    const request = await su
      .collection("serving_requests")
      .create({ need: need.id, person: volunteer.personId });
    await su.collection("serving_plans").update(plan.id, { status: "done" });
    expect(
      await refusal(
        pbAs(volunteer).collection("serving_requests").update(request.id, { status: "accepted" }),
      ),
    ).toMatchObject({
      status: 400,
      data: { plan: { code: "validation_plan_done" } },
    });
  });

  it("a need of 0 places is refused by the schema", async () => {
    const { plan, position } = await world();
    const other = await su
      .collection("serving_plans")
      .create({ title: "x", date: "2030-03-10 00:00:00.000Z", status: "draft" });
    expect(
      (
        await refusal(
          su.collection("serving_needs").create({ plan: other.id, position: position.id, count: 0 }),
        )
      )?.status,
    ).toBe(400);
    expect(plan.id).toBeTruthy();
  });
});
