/**
 * Serving through GraphQL (issue 27): staff set up a team with positions and a plan; a leader says
 * how many people a position needs and asks volunteers; a volunteer answers signed in, another from
 * the mail link without signing in; bad input gets field errors. PocketBase's rules and hook decide
 * (serving-rules.int.test.ts checks them through REST).
 */
import { randomUUID } from "node:crypto";
import { linkFrom, waitForMail } from "../../scripts/lib/smtp-catcher.ts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import {
  catcherUrl,
  createUser,
  errorCode,
  GqlClient,
  system,
  testGateway,
  type GqlResult,
  type TestUser,
} from "./helpers.ts";
import {
  ServingAddMemberDocument,
  ServingAnswerDocument,
  ServingAddBlockoutDocument,
  ServingAskDocument,
  ServingAutofillDocument,
  ServingByTokenDocument,
  ServingCreatePlanDocument,
  ServingCreatePositionDocument,
  ServingCreateTeamDocument,
  ServingMineDocument,
  ServingMyAvailabilityDocument,
  ServingRemoveBlockoutDocument,
  ServingSetPreferencesDocument,
  ServingPlanDocument,
  ServingSetNeedDocument,
  ServingSetPlanStatusDocument,
  ServingTeamDocument,
} from "./__generated__/operations.ts";

let gateway: Gateway;
let su: PocketBase;
let pastor: TestUser;
let leader: TestUser;
let volunteer: TestUser;
let second: TestUser;
let member: TestUser;
const run = randomUUID().slice(0, 6);

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  [pastor, leader, volunteer, second, member] = await Promise.all([
    createUser({ roles: ["Pastor"] }),
    createUser(),
    createUser(),
    createUser(),
    createUser(),
  ]);
  await su
    .collection("people")
    .update(volunteer.personId!, { firstName: "Vera", lastName: `Volunteer ${run}` });
});
afterAll(() => gateway.close());

const gql = (user: TestUser | null) => new GqlClient(gateway, { token: user?.token });
/** A refusal's field error codes ({ field: code }). */
const fieldCodes = (result: Pick<GqlResult<unknown>, "errors">) =>
  (result.errors?.[0]?.extensions?.fieldErrorCodes ?? {}) as Record<string, string>;

/** A team with a Greeter position, `leader` leading, `volunteer` and `second` greeters; a published plan needing `count`. */
async function setUp(count = 2) {
  const team = (
    await gql(pastor).execute(ServingCreateTeamDocument, {
      input: { name: `Welcome ${run} ${randomUUID().slice(0, 4)}` },
    })
  ).data!.createServingTeam;
  const greeter = (
    await gql(pastor).execute(ServingCreatePositionDocument, { teamId: team.id, input: { name: "Greeter" } })
  ).data!.createServingPosition;
  await gql(pastor).execute(ServingAddMemberDocument, {
    teamId: team.id,
    personId: leader.personId!,
    role: "LEADER",
  });
  for (const person of [volunteer, second])
    expect(
      (
        await gql(leader).execute(ServingAddMemberDocument, {
          teamId: team.id,
          personId: person.personId!,
          positionIds: [greeter.id],
        })
      ).errors,
    ).toBeUndefined();
  const plan = (
    await gql(pastor).execute(ServingCreatePlanDocument, {
      input: {
        title: "Sunday services",
        date: "2030-03-03",
        times: [
          {
            kind: "SERVICE",
            label: "First service",
            startsAt: "2030-03-03T15:00:00.000Z",
            endsAt: "2030-03-03T16:15:00.000Z",
          },
        ],
      },
    })
  ).data!.createServingPlan;
  await gql(pastor).execute(ServingSetPlanStatusDocument, { id: plan.id, status: "PUBLISHED" });
  const need = (
    await gql(leader).execute(ServingSetNeedDocument, { planId: plan.id, positionId: greeter.id, count })
  ).data!.setServingNeed;
  return { team, greeter, plan, need };
}

describe("serving through GraphQL", () => {
  it("a team is set up by staff; its leader keeps the roster and sees everyone, a member only their own row", async () => {
    const { team } = await setUp();
    expect(team).toMatchObject({ reminderDays: 2, showNames: true, status: "ACTIVE" });
    const asLeader = (await gql(leader).execute(ServingTeamDocument, { id: team.id })).data!.servingTeam!;
    expect(asLeader.can).toEqual({ edit: true, archive: false, manageMembers: true });
    expect(asLeader.members.map((m) => m.role)).toEqual(["LEADER", "MEMBER", "MEMBER"]);
    const asVolunteer = (await gql(volunteer).execute(ServingTeamDocument, { id: team.id })).data!
      .servingTeam!;
    expect(asVolunteer.can).toEqual({ edit: false, archive: false, manageMembers: false });
    expect(asVolunteer.members).toHaveLength(1);
    expect(asVolunteer.members[0]).toMatchObject({ isMe: true, name: `Vera Volunteer ${run}` });
    // A member of the church not on the team sees the active team, not its roster; a visitor nothing.
    expect(
      (await gql(member).execute(ServingTeamDocument, { id: team.id })).data!.servingTeam!.members,
    ).toEqual([]);
    expect((await gql(null).execute(ServingTeamDocument, { id: team.id })).data!.servingTeam).toBeNull();
  });

  it("a leader asks; the volunteer accepts signed in; the plan shows the places", async () => {
    const { need, plan } = await setUp();
    const asked = await gql(leader).execute(ServingAskDocument, {
      needId: need.id,
      personIds: [volunteer.personId!, second.personId!],
    });
    expect(asked.errors).toBeUndefined();
    expect(asked.data!.askToServe.map((r) => r.status)).toEqual(["PENDING", "PENDING"]);
    const mine = (await gql(volunteer).execute(ServingMineDocument)).data!.myServingRequests.find(
      (r) => r.plan?.date === "2030-03-03",
    );
    expect(mine).toMatchObject({
      status: "PENDING",
      plan: { title: "Sunday services" },
      position: { name: "Greeter" },
      can: { answer: true, manage: false },
    });
    const accepted = await gql(volunteer).execute(ServingAnswerDocument, { id: mine!.id, accept: true });
    expect(accepted.data!.answerServingRequest).toMatchObject({ status: "ACCEPTED", declineReason: "" });
    expect(accepted.data!.answerServingRequest.answeredAt).not.toBeNull();
    const seen = (await gql(leader).execute(ServingPlanDocument, { id: plan.id })).data!.servingPlan!;
    expect(seen.needs[0]).toMatchObject({ count: 2, accepted: 1, pending: 1, can: { schedule: true } });
    // Someone else cannot answer the volunteer's request.
    expect(errorCode(await gql(second).execute(ServingAnswerDocument, { id: mine!.id, accept: false }))).toBe(
      "FORBIDDEN",
    );
  });

  it("the mail link reads and answers once, without signing in; the place frees on a decline", async () => {
    const { need } = await setUp(1);
    const [request] = (
      await gql(leader).execute(ServingAskDocument, { needId: need.id, personIds: [volunteer.personId!] })
    ).data!.askToServe;
    const token = (await su.collection("serving_requests").getOne(request!.id)).token as string;
    const read = await gql(null).execute(ServingByTokenDocument, { id: request!.id, token });
    expect(read.data!.servingRequestByToken).toMatchObject({
      status: "PENDING",
      plan: { title: "Sunday services", date: "2030-03-03" },
      position: { name: "Greeter" },
    });
    expect(
      (await gql(null).execute(ServingByTokenDocument, { id: request!.id, token: "x".repeat(43) })).data!
        .servingRequestByToken,
    ).toBeNull();
    const declined = await gql(null).execute(ServingAnswerDocument, {
      id: request!.id,
      accept: false,
      reason: "Visiting family",
      token,
    });
    expect(declined.data!.answerServingRequest).toMatchObject({
      status: "DECLINED",
      declineReason: "Visiting family",
      position: { name: "Greeter" },
    });
    // Spent: the link reads nothing and answers nothing now.
    expect(
      (await gql(null).execute(ServingByTokenDocument, { id: request!.id, token })).data!
        .servingRequestByToken,
    ).toBeNull();
    expect(
      errorCode(await gql(null).execute(ServingAnswerDocument, { id: request!.id, accept: true, token })),
    ).toBe("NOT_FOUND");
    // The place is free: the second volunteer can be asked.
    expect(
      (await gql(leader).execute(ServingAskDocument, { needId: need.id, personIds: [second.personId!] }))
        .errors,
    ).toBeUndefined();
  });

  it("the person asked gets a mail whose button answers without signing in; a decline reaches the leader by mail", async () => {
    const { need, team, greeter } = await setUp(1);
    // Someone never asked before, so the mail found is this one.
    const asked = await createUser();
    const name = `Asa ${randomUUID().slice(0, 6)}`;
    await su.collection("people").update(asked.personId!, { firstName: name, lastName: "Asked" });
    await gql(leader).execute(ServingAddMemberDocument, {
      teamId: team.id,
      personId: asked.personId!,
      positionIds: [greeter.id],
    });
    const [request] = (
      await gql(leader).execute(ServingAskDocument, { needId: need.id, personIds: [asked.personId!] })
    ).data!.askToServe;
    const mail = await waitForMail(
      catcherUrl(),
      asked.email,
      /Can you serve as Greeter on Sunday, March 3\?/,
    );
    expect(mail.text).toContain("for Sunday services on Sunday, March 3");
    const link = new URL(linkFrom(mail, "/serving/answer/"));
    expect(link.pathname).toBe(`/serving/answer/${request!.id}`);
    const token = link.searchParams.get("token")!;
    const declined = await gql(null).execute(ServingAnswerDocument, {
      id: request!.id,
      accept: false,
      reason: "Away that weekend",
      token,
    });
    expect(declined.data!.answerServingRequest.status).toBe("DECLINED");
    const told = await waitForMail(
      catcherUrl(),
      leader.email,
      new RegExp(`${name} Asked can't serve as Greeter`),
    );
    expect(told.text).toContain("Their reason: “Away that weekend”");
  });

  it("auto-fill proposes free, qualified people fairly: never someone blocked out or serving elsewhere at the time; the same answer twice", async () => {
    // A team of its own with two greeters never scheduled before (the file's other volunteers serve
    // elsewhere on these Sundays, which auto-fill would rightly avoid).
    const team = (
      await gql(pastor).execute(ServingCreateTeamDocument, {
        input: { name: `Fill ${run} ${randomUUID().slice(0, 4)}` },
      })
    ).data!.createServingTeam;
    const greeter = (
      await gql(pastor).execute(ServingCreatePositionDocument, {
        teamId: team.id,
        input: { name: "Greeter" },
      })
    ).data!.createServingPosition;
    await gql(pastor).execute(ServingAddMemberDocument, {
      teamId: team.id,
      personId: leader.personId!,
      role: "LEADER",
    });
    const [volunteer, second] = await Promise.all([createUser(), createUser()]);
    for (const person of [volunteer, second])
      await gql(leader).execute(ServingAddMemberDocument, {
        teamId: team.id,
        personId: person.personId!,
        positionIds: [greeter.id],
      });
    const plans = [];
    for (const date of ["2030-03-03", "2030-03-10", "2030-03-17", "2030-03-24"]) {
      const p = (
        await gql(pastor).execute(ServingCreatePlanDocument, {
          input: {
            title: "Sunday services",
            date,
            times: [{ kind: "SERVICE", startsAt: `${date}T15:00:00.000Z`, endsAt: `${date}T16:15:00.000Z` }],
          },
        })
      ).data!.createServingPlan;
      await gql(leader).execute(ServingSetNeedDocument, { planId: p.id, positionId: greeter.id, count: 1 });
      plans.push(p);
    }
    const [plan, ...later] = plans as [(typeof plans)[0], ...typeof plans];
    // The volunteer is away on the 10th; the second greeter serves on another team at the time on the 17th.
    await su.collection("serving_blockouts").create({
      person: volunteer.personId,
      startsOn: "2030-03-10 00:00:00.000Z",
      endsOn: "2030-03-10 00:00:00.000Z",
      repeat: "none",
    });
    const otherTeam = await su
      .collection("serving_teams")
      .create({ name: `Other ${run} ${randomUUID().slice(0, 4)}`, status: "active" });
    const sound = await su.collection("serving_positions").create({ team: otherTeam.id, name: "Sound" });
    await su.collection("serving_members").create({
      team: otherTeam.id,
      person: second.personId,
      role: "member",
      status: "active",
      positions: [sound.id],
    });
    const elsewhere = await su.collection("serving_plans").create({
      title: "Other",
      date: "2030-03-17 00:00:00.000Z",
      status: "published",
      times: [
        {
          kind: "service",
          label: "",
          startsAt: "2030-03-17T15:30:00.000Z",
          endsAt: "2030-03-17T16:30:00.000Z",
        },
      ],
    });
    const soundNeed = await su
      .collection("serving_needs")
      .create({ plan: elsewhere.id, position: sound.id, count: 1 });
    await su
      .collection("serving_requests")
      .create({ need: soundNeed.id, person: second.personId, status: "accepted" });

    const run1 = await gql(leader).execute(ServingAutofillDocument, {
      teamId: team.id,
      from: "2030-03-01",
      to: "2030-03-31",
    });
    expect(run1.errors).toBeUndefined();
    const proposals = run1.data!.servingAutofill.proposals;
    const byPlan = new Map(proposals.map((p) => [p.planId, p.personId]));
    expect(byPlan.size).toBe(4);
    expect(byPlan.get(later[0]!.id)).toBe(second.personId); // the volunteer is away
    expect(byPlan.get(later[1]!.id)).toBe(volunteer.personId); // the second greeter serves elsewhere then
    // Fair across teams: with the second greeter's place on the other team counted, the two hold
    // places within one of each other (4 Sundays + 1 elsewhere = 3 and 2).
    const held = (personId: string) =>
      [...byPlan.values()].filter((id) => id === personId).length + (personId === second.personId ? 1 : 0);
    expect(Math.abs(held(volunteer.personId!) - held(second.personId!))).toBeLessThanOrEqual(1);
    expect(proposals.find((p) => p.planId === plan.id)).toMatchObject({
      windowWeeks: 8,
      needId: expect.any(String),
    });
    expect(run1.data!.servingAutofill.unfilled).toEqual([]);
    // Deterministic: the same input, the same proposals.
    const run2 = await gql(leader).execute(ServingAutofillDocument, {
      teamId: team.id,
      from: "2030-03-01",
      to: "2030-03-31",
    });
    expect(run2.data!.servingAutofill).toEqual(run1.data!.servingAutofill);
    // Someone who does not lead the team is refused; a range backwards gets a field error.
    expect(
      errorCode(
        await gql(volunteer).execute(ServingAutofillDocument, {
          teamId: team.id,
          from: "2030-03-01",
          to: "2030-03-31",
        }),
      ),
    ).toBe("FORBIDDEN");
    expect(
      fieldCodes(
        await gql(leader).execute(ServingAutofillDocument, {
          teamId: team.id,
          from: "2030-03-31",
          to: "2030-03-01",
        }),
      ),
    ).toMatchObject({
      to: "out_of_range",
    });
  });

  it("a volunteer keeps their own blockouts and preferences; a blockout ending before it starts is refused", async () => {
    const me = await createUser();
    const added = await gql(me).execute(ServingAddBlockoutDocument, {
      input: {
        startsOn: "2031-05-04",
        endsOn: "2031-05-04",
        repeat: "MONTHLY",
        until: "2031-12-31",
        reason: "Family lunch",
      },
    });
    expect(added.data!.addServingBlockout).toMatchObject({
      startsOn: "2031-05-04",
      repeat: "MONTHLY",
      until: "2031-12-31",
    });
    expect(
      fieldCodes(
        await gql(me).execute(ServingAddBlockoutDocument, {
          input: { startsOn: "2031-05-10", endsOn: "2031-05-09" },
        }),
      ),
    ).toMatchObject({ endsOn: "ends_before_start" });
    const prefs = await gql(me).execute(ServingSetPreferencesDocument, {
      input: { maxPerMonth: 2, preferredTimes: ["11:00", "09:00"], household: "TOGETHER" },
    });
    expect(prefs.data!.setServingPreferences).toEqual({
      maxPerMonth: 2,
      preferredTimes: ["09:00", "11:00"],
      household: "TOGETHER",
    });
    expect(
      fieldCodes(
        await gql(me).execute(ServingSetPreferencesDocument, {
          input: { maxPerMonth: 0, preferredTimes: ["9am"] },
        }),
      ),
    ).toMatchObject({ maxPerMonth: "out_of_range", preferredTimes: "invalid_time" });
    const mine = (await gql(me).execute(ServingMyAvailabilityDocument)).data!.myServingAvailability;
    expect(mine.blockouts.map((b) => b.reason)).toEqual(["Family lunch"]);
    expect(mine.preferences.maxPerMonth).toBe(2);
    // Someone else's blockout is not theirs to remove; their own is.
    expect(
      errorCode(
        await gql(member).execute(ServingRemoveBlockoutDocument, { id: added.data!.addServingBlockout.id }),
      ),
    ).toBe("FORBIDDEN");
    expect(
      (await gql(me).execute(ServingRemoveBlockoutDocument, { id: added.data!.addServingBlockout.id }))
        .errors,
    ).toBeUndefined();
    expect(
      (await gql(me).execute(ServingMyAvailabilityDocument)).data!.myServingAvailability.blockouts,
    ).toEqual([]);
  });

  it("bad input gets field errors", async () => {
    const { need, plan, greeter } = await setUp(1);
    const noDate = await gql(pastor).execute(ServingCreatePlanDocument, {
      input: { title: "No date", date: "" },
    });
    expect(fieldCodes(noDate)).toMatchObject({ date: "required" });
    const backwards = await gql(pastor).execute(ServingCreatePlanDocument, {
      input: {
        title: "Backwards",
        date: "2030-03-10",
        times: [{ kind: "SERVICE", startsAt: "2030-03-10T16:00:00Z", endsAt: "2030-03-10T15:00:00Z" }],
      },
    });
    expect(fieldCodes(backwards)).toMatchObject({ "times.0": "ends_before_start" });
    expect(
      fieldCodes(
        await gql(leader).execute(ServingSetNeedDocument, {
          planId: plan.id,
          positionId: greeter.id,
          count: 0,
        }),
      ),
    ).toMatchObject({
      count: "out_of_range",
    });
    expect(
      fieldCodes(
        await gql(leader).execute(ServingAskDocument, { needId: need.id, personIds: [member.personId!] }),
      ),
    ).toMatchObject({
      person: "not_on_team",
    });
    const [asked] = (
      await gql(leader).execute(ServingAskDocument, { needId: need.id, personIds: [volunteer.personId!] })
    ).data!.askToServe;
    expect(
      fieldCodes(
        await gql(leader).execute(ServingAskDocument, { needId: need.id, personIds: [second.personId!] }),
      ),
    ).toMatchObject({
      need: "need_full",
    });
    // A link used after the plan is done.
    const token = (await su.collection("serving_requests").getOne(asked!.id)).token as string;
    await gql(pastor).execute(ServingSetPlanStatusDocument, { id: plan.id, status: "DONE" });
    expect(
      fieldCodes(await gql(null).execute(ServingAnswerDocument, { id: asked!.id, accept: true, token })),
    ).toMatchObject({
      plan: "plan_done",
    });
  });

  it("only staff create teams and plans; a leader of another team cannot schedule this one", async () => {
    const { need } = await setUp();
    expect(
      errorCode(await gql(leader).execute(ServingCreateTeamDocument, { input: { name: `Nope ${run}` } })),
    ).toBe("FORBIDDEN");
    expect(
      errorCode(
        await gql(null).execute(ServingCreatePlanDocument, { input: { title: "x", date: "2030-01-01" } }),
      ),
    ).toBe("UNAUTHENTICATED");
    const other = await setUp();
    const otherLeader = await createUser();
    await gql(pastor).execute(ServingAddMemberDocument, {
      teamId: other.team.id,
      personId: otherLeader.personId!,
      role: "LEADER",
    });
    expect(
      errorCode(
        await gql(otherLeader).execute(ServingAskDocument, {
          needId: need.id,
          personIds: [volunteer.personId!],
        }),
      ),
    ).toBe("NOT_FOUND"); // another team's need is hidden from them, as PocketBase's rules hide it
  });
});
