/**
 * Places changing hands (issue 27) through GraphQL with the real PocketBase: a swap that never leaves
 * the place empty (two takers at once leave one), signups on teams that take them, a declined place
 * offered to the next person, a blockout added after scheduling declining what it covers, the
 * conflicts a leader sees before asking, and the leader's schedule live over SSE.
 */
import { randomUUID } from "node:crypto";
import { waitForMail } from "../../scripts/lib/smtp-catcher.ts";
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
  type TestUser,
} from "./helpers.ts";
import { SseSubscription } from "./sse.ts";
import {
  ServingAddBlockoutDocument,
  ServingAddClearanceDocument,
  ServingAddMemberDocument,
  ServingAnswerDocument,
  ServingAskDocument,
  ServingAutofillDocument,
  ServingCandidatesDocument,
  ServingCreatePlanDocument,
  ServingCreatePositionDocument,
  ServingCreateTeamDocument,
  ServingHistoryDocument,
  ServingNeedRequestsDocument,
  ServingOpeningsDocument,
  ServingSetNeedDocument,
  ServingSetPlanStatusDocument,
  ServingSetSwapDocument,
  ServingSignUpDocument,
  ServingTakeSwapDocument,
  ServingTeamClearancesDocument,
  ServingUpdatePlanLinkDocument,
} from "./__generated__/operations.ts";
import { createEvent } from "./event-support.ts";

let gateway: Gateway;
let su: PocketBase;
let pastor: TestUser;
const run = randomUUID().slice(0, 6);
/** Each test's plan on its own day (its people are its own too, so nobody is busy elsewhere at the time). */
let nextDay = 0;

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  pastor = await createUser({ roles: ["Pastor"] });
});
afterAll(() => gateway.close());

const gql = (user: TestUser | null) => new GqlClient(gateway, { token: user?.token });
const fieldCodes = (result: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
  (result.errors?.[0]?.extensions?.fieldErrorCodes ?? {}) as Record<string, string>;

async function named(first: string): Promise<TestUser> {
  const user = await createUser();
  await su.collection("people").update(user.personId!, { firstName: first, lastName: run });
  return user;
}

/**
 * A team (with the given options) whose leader and `count` greeters are new people; a published plan
 * on a day of its own needing `places` greeters.
 */
async function team(options: { allowSignup?: boolean; autoOffer?: boolean }, count: number, places = 1) {
  const leader = await named("Lea");
  const greeters = await Promise.all(Array.from({ length: count }, (_, i) => named(`Greeter${i}`)));
  const created = (
    await gql(pastor).execute(ServingCreateTeamDocument, {
      input: { name: `Places ${run} ${randomUUID().slice(0, 6)}`, ...options },
    })
  ).data!.createServingTeam;
  const greeter = (
    await gql(pastor).execute(ServingCreatePositionDocument, {
      teamId: created.id,
      input: { name: "Greeter" },
    })
  ).data!.createServingPosition;
  await gql(pastor).execute(ServingAddMemberDocument, {
    teamId: created.id,
    personId: leader.personId!,
    role: "LEADER",
  });
  for (const person of greeters)
    await gql(leader).execute(ServingAddMemberDocument, {
      teamId: created.id,
      personId: person.personId!,
      positionIds: [greeter.id],
    });
  // Within the weeks openings are listed for (12), a day apart per test.
  const day = new Date(Date.now() + (14 + 2 * nextDay++) * 86_400_000).toISOString().slice(0, 10);
  const plan = (
    await gql(pastor).execute(ServingCreatePlanDocument, {
      input: {
        title: `Sunday ${run}`,
        date: day,
        times: [{ kind: "SERVICE", startsAt: `${day}T15:00:00.000Z`, endsAt: `${day}T16:15:00.000Z` }],
      },
    })
  ).data!.createServingPlan;
  await gql(pastor).execute(ServingSetPlanStatusDocument, { id: plan.id, status: "PUBLISHED" });
  const need = (
    await gql(leader).execute(ServingSetNeedDocument, {
      planId: plan.id,
      positionId: greeter.id,
      count: places,
    })
  ).data!.setServingNeed;
  return { team: created, greeter, leader, greeters, plan, need, day };
}

async function askAndAccept(leader: TestUser, needId: string, person: TestUser) {
  const [request] = (await gql(leader).execute(ServingAskDocument, { needId, personIds: [person.personId!] }))
    .data!.askToServe;
  expect(
    (await gql(person).execute(ServingAnswerDocument, { id: request!.id, accept: true })).errors,
  ).toBeUndefined();
  return request!;
}

const requestsOn = async (leader: TestUser, planId: string) =>
  (await gql(leader).execute(ServingNeedRequestsDocument, { id: planId })).data!.servingPlan!.needs[0]!
    .requests;

describe("places changing hands", () => {
  it("a swap: teammates are told and see it; two take it at once and one gets it; the place never empties", async () => {
    const { leader, greeters, plan, need } = await team({}, 3);
    const [holder, first, second] = greeters as [TestUser, TestUser, TestUser];
    const outsider = await named("Olga");
    const request = await askAndAccept(leader, need.id, holder);

    // Only the holder may ask for a swap, and only on an accepted place.
    expect(
      errorCode(await gql(first).execute(ServingSetSwapDocument, { id: request.id, open: true })),
    ).toBeDefined();
    const opened = await gql(holder).execute(ServingSetSwapDocument, { id: request.id, open: true });
    expect(opened.data!.setServingSwap).toMatchObject({ status: "ACCEPTED", swapOpen: true });
    const offer = await waitForMail(
      catcherUrl(),
      first.email,
      /Greeter0 .* asks for someone to serve as Greeter/,
    );
    expect(offer.text).toContain("the first to take it serves");

    // Teammates who fill the position see it; someone else neither sees nor takes it.
    const openings = (await gql(first).execute(ServingOpeningsDocument, {})).data!.myServingOpenings;
    expect(openings).toContainEqual(
      expect.objectContaining({ swapRequestId: request.id, planId: plan.id, positionName: "Greeter" }),
    );
    expect((await gql(outsider).execute(ServingOpeningsDocument, {})).data!.myServingOpenings).toEqual([]);
    expect(errorCode(await gql(outsider).execute(ServingTakeSwapDocument, { id: request.id }))).toBe(
      "NOT_FOUND",
    );

    // Two at once: one takes it, the other is told it is gone.
    const [a, b] = await Promise.all([
      gql(first).execute(ServingTakeSwapDocument, { id: request.id }),
      gql(second).execute(ServingTakeSwapDocument, { id: request.id }),
    ]);
    const won = [a, b].filter((r) => r.data?.takeServingSwap);
    const lost = [a, b].filter((r) => r.errors);
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect(fieldCodes(lost[0]!), JSON.stringify(lost[0]!.errors)).toMatchObject({ replaces: "swap_taken" });
    expect(won[0]!.data!.takeServingSwap).toMatchObject({ status: "ACCEPTED", source: "SWAP" });

    const rows = await requestsOn(leader, plan.id);
    expect(rows.filter((r) => r.status === "ACCEPTED")).toHaveLength(1);
    expect(rows.find((r) => r.id === request.id)).toMatchObject({ status: "REPLACED", swapOpen: false });
    // Coming late, a teammate is told it was taken (the rules hide it from them now); anyone else
    // still learns nothing.
    const late = won[0] === a ? second : first;
    expect(fieldCodes(await gql(late).execute(ServingTakeSwapDocument, { id: request.id }))).toMatchObject({
      replaces: "swap_taken",
    });
    expect(errorCode(await gql(outsider).execute(ServingTakeSwapDocument, { id: request.id }))).toBe(
      "NOT_FOUND",
    );
    // The one replaced cannot take the place back by answering again.
    expect(
      fieldCodes(await gql(holder).execute(ServingAnswerDocument, { id: request.id, accept: true })),
    ).toMatchObject({ status: "swap_taken" });
    // Both, and the leader, are told.
    const taker = won[0] === a ? first : second;
    for (const person of [holder, taker, leader])
      await waitForMail(catcherUrl(), person.email, /takes Greeter0 .*'s place as Greeter/);
  });

  it("signups: only on a team that takes them, only while a place is left; a draft plan lists nothing", async () => {
    const closed = await team({}, 1);
    const [closedMember] = closed.greeters as [TestUser];
    expect((await gql(closedMember).execute(ServingOpeningsDocument, {})).data!.myServingOpenings).toEqual(
      [],
    );
    expect(
      (await gql(closedMember).execute(ServingSignUpDocument, { needId: closed.need.id })).data
        ?.signUpToServe,
    ).toBeFalsy();

    const open = await team({ allowSignup: true }, 2, 1);
    const [one, two] = open.greeters as [TestUser, TestUser];
    const listed = (await gql(one).execute(ServingOpeningsDocument, {})).data!.myServingOpenings;
    expect(listed).toEqual([
      expect.objectContaining({ needId: open.need.id, placesLeft: 1, swapRequestId: null, date: open.day }),
    ]);
    const signed = await gql(one).execute(ServingSignUpDocument, { needId: open.need.id });
    expect(signed.data!.signUpToServe).toMatchObject({
      status: "ACCEPTED",
      source: "SIGNUP",
      personId: one.personId,
    });
    // Full now: no longer listed, and a second signup is refused with the field error.
    expect((await gql(two).execute(ServingOpeningsDocument, {})).data!.myServingOpenings).toEqual([]);
    expect(fieldCodes(await gql(two).execute(ServingSignUpDocument, { needId: open.need.id }))).toMatchObject(
      {
        need: "need_full",
      },
    );
    // Back to draft: nothing is offered, and PocketBase refuses a signup.
    await gql(pastor).execute(ServingSetPlanStatusDocument, { id: open.plan.id, status: "DRAFT" });
    await gql(open.leader).execute(ServingSetNeedDocument, {
      planId: open.plan.id,
      positionId: open.greeter.id,
      count: 2,
    });
    expect((await gql(two).execute(ServingOpeningsDocument, {})).data!.myServingOpenings).toEqual([]);
    expect(
      (await gql(two).execute(ServingSignUpDocument, { needId: open.need.id })).data?.signUpToServe,
    ).toBeFalsy();
  });

  it("a decline on a team that offers places on asks the next suitable person, and the leader hears who", async () => {
    const { leader, greeters, plan, need } = await team({ autoOffer: true }, 2);
    const [first, next] = greeters as [TestUser, TestUser];
    const [request] = (
      await gql(leader).execute(ServingAskDocument, { needId: need.id, personIds: [first.personId!] })
    ).data!.askToServe;
    await gql(first).execute(ServingAnswerDocument, { id: request!.id, accept: false, reason: "Travelling" });
    await expect
      .poll(async () => (await requestsOn(leader, plan.id)).find((r) => r.personId === next.personId))
      .toMatchObject({ status: "PENDING", source: "AUTOFILL" });
    const told = await waitForMail(catcherUrl(), leader.email, /Greeter0 .* can't serve as Greeter/);
    expect(told.text).toContain("Their reason: “Travelling”");
    expect(told.text).toContain(`The place was offered to Greeter1 ${run}.`);
    await waitForMail(catcherUrl(), next.email, /Can you serve as Greeter/);
  });

  it("without auto-offer a decline asks nobody", async () => {
    const { leader, greeters, plan, need } = await team({ autoOffer: false }, 2);
    const [request] = (
      await gql(leader).execute(ServingAskDocument, { needId: need.id, personIds: [greeters[0]!.personId!] })
    ).data!.askToServe;
    await gql(greeters[0]!).execute(ServingAnswerDocument, { id: request!.id, accept: false });
    await waitForMail(catcherUrl(), leader.email, /Greeter0 .* can't serve as Greeter/);
    expect((await requestsOn(leader, plan.id)).map((r) => r.status)).toEqual(["DECLINED"]);
  });

  it("a blockout added after scheduling declines what it covers and tells the leader; the leader sees the conflict", async () => {
    const { team: t, greeter, leader, greeters, plan, need, day } = await team({}, 2, 2);
    const [away, free] = greeters as [TestUser, TestUser];
    const request = await askAndAccept(leader, need.id, away);
    // A blockout elsewhere in the year leaves the place alone.
    await gql(away).execute(ServingAddBlockoutDocument, {
      input: { startsOn: "2032-06-01", endsOn: "2032-06-02" },
    });
    expect((await requestsOn(leader, plan.id)).find((r) => r.id === request.id)!.status).toBe("ACCEPTED");
    const added = await gql(away).execute(ServingAddBlockoutDocument, {
      input: { startsOn: day, endsOn: day, reason: "Family wedding" },
    });
    expect(added.errors).toBeUndefined();
    expect((await requestsOn(leader, plan.id)).find((r) => r.id === request.id)!.status).toBe("DECLINED");
    const told = await waitForMail(catcherUrl(), leader.email, /Greeter0 .* can't serve as Greeter/);
    expect(told.text).toContain("Their reason: “Family wedding”");

    // Before asking by hand: the free greeter has no conflict; the one asked already is not listed.
    const candidates = (await gql(leader).execute(ServingCandidatesDocument, { needId: need.id })).data!
      .servingCandidates;
    expect(candidates).toEqual([expect.objectContaining({ personId: free.personId, conflicts: [] })]);
    // A third greeter, blocked out that day, is listed with the conflict, after the free one.
    const third = await named("Theo");
    await gql(leader).execute(ServingAddMemberDocument, {
      teamId: t.id,
      personId: third.personId!,
      positionIds: [greeter.id],
    });
    await gql(third).execute(ServingAddBlockoutDocument, { input: { startsOn: day, endsOn: day } });
    const again = (await gql(leader).execute(ServingCandidatesDocument, { needId: need.id })).data!
      .servingCandidates;
    expect(again.map((c) => [c.personId, c.conflicts])).toEqual([
      [free.personId, []],
      [third.personId, ["BLOCKED_OUT"]],
    ]);
    // Only leaders and staff ask for candidates (a volunteer not asked may not even read the need).
    expect(errorCode(await gql(free).execute(ServingCandidatesDocument, { needId: need.id }))).toBe(
      "NOT_FOUND",
    );
  });

  it("households: auto-fill keeps a couple apart when one wishes it, and the leader sees why before asking", async () => {
    const { team: t, leader, greeters, need, day } = await team({}, 3, 2);
    const [wife, husband, single] = greeters as [TestUser, TestUser, TestUser];
    const household = await su.collection("households").create({ name: `Household ${run}` });
    for (const person of [wife, husband])
      await su.collection("people").update(person.personId!, { household: household.id });
    await su
      .collection("serving_preferences")
      .create({ person: wife.personId, household: "apart", preferredTimes: [], maxPerMonth: 0 });
    const proposed = (
      await gql(leader).execute(ServingAutofillDocument, { teamId: t.id, from: day, to: day })
    ).data!.servingAutofill.proposals.map((p) => p.personId);
    expect(proposed).toHaveLength(2);
    expect(proposed).toContain(single.personId);
    // Never both: one of the two is proposed beside the single greeter.
    expect(proposed.filter((id) => id === wife.personId || id === husband.personId)).toHaveLength(1);
    // Once one of them is asked, the other shows the conflict (not who lives with whom).
    await gql(leader).execute(ServingAskDocument, { needId: need.id, personIds: [husband.personId!] });
    const candidates = (await gql(leader).execute(ServingCandidatesDocument, { needId: need.id })).data!
      .servingCandidates;
    expect(candidates.find((c) => c.personId === wife.personId)!.conflicts).toEqual(["HOUSEHOLD_APART"]);
    expect(candidates.find((c) => c.personId === single.personId)!.conflicts).toEqual([]);
  });

  it("a plan serves an event's occurrence: linked when the event takes place then, refused otherwise, unlinked", async () => {
    const { plan, day } = await team({}, 0);
    const event = await createEvent({
      title: `Sunday worship ${run}`,
      startsAt: `${day}T14:00:00.000Z`,
      endsAt: `${day}T15:15:00.000Z`,
      rrule: "FREQ=WEEKLY;COUNT=4",
    });
    const input = { title: plan.title, date: day };
    const link = (extra: Record<string, unknown>) =>
      gql(pastor).execute(ServingUpdatePlanLinkDocument, { id: plan.id, input: { ...input, ...extra } });
    const linked = await link({ eventId: event.id, occurrenceStart: `${day}T14:00:00.000Z` });
    expect(linked.data!.updateServingPlan.occurrence).toMatchObject({
      originalStart: `${day}T14:00:00.000Z`,
      event: { id: event.id, title: `Sunday worship ${run}` },
    });
    // An hour the event never starts at, or no start at all, is refused on the field.
    expect(
      fieldCodes(await link({ eventId: event.id, occurrenceStart: `${day}T16:00:00.000Z` })),
    ).toMatchObject({
      eventId: "no_such_occurrence",
    });
    expect(fieldCodes(await link({ eventId: event.id }))).toMatchObject({ occurrenceStart: "required" });
    // Omitted: kept; empty: unlinked.
    expect((await link({})).data!.updateServingPlan.occurrence?.event.id).toBe(event.id);
    expect((await link({ eventId: "" })).data!.updateServingPlan.occurrence).toBeNull();
  });

  it("clearances: staff record them (bad dates refused on the field), leaders see them, and a position that requires one goes only to the cleared", async () => {
    const { team: t, leader, greeters, day } = await team({}, 2);
    const [cleared, notCleared] = greeters as [TestUser, TestUser];
    const kids = (
      await gql(pastor).execute(ServingCreatePositionDocument, {
        teamId: t.id,
        input: { name: "Room leader", requiresBackgroundCheck: true },
      })
    ).data!.createServingPosition;
    for (const person of greeters)
      await su
        .collection("serving_members")
        .update(
          (
            await su
              .collection("serving_members")
              .getFirstListItem(`team = "${t.id}" && person = "${person.personId}"`)
          ).id,
          { positions: [kids.id] },
        );
    const add = (user: TestUser, vars: Record<string, unknown>) =>
      gql(user).execute(ServingAddClearanceDocument, {
        personId: cleared.personId!,
        kind: "BACKGROUND_CHECK",
        passedOn: "2026-01-10",
        ...vars,
      });
    expect(fieldCodes(await add(pastor, { passedOn: "2099-01-01" }))).toMatchObject({
      passedOn: "date_in_future",
    });
    expect(fieldCodes(await add(pastor, { expiresOn: "2025-12-31" }))).toMatchObject({
      expiresOn: "ends_before_start",
    });
    expect(errorCode(await add(leader, {}))).toBe("FORBIDDEN");
    const recorded = (await add(pastor, { expiresOn: "2099-01-10" })).data!.addServingClearance;
    expect(recorded).toMatchObject({ kind: "BACKGROUND_CHECK", current: true, can: { remove: true } });
    // An expired one counts for nothing.
    await add(pastor, { personId: notCleared.personId!, passedOn: "2020-01-01", expiresOn: "2021-01-01" });
    const seen = (await gql(leader).execute(ServingTeamClearancesDocument, { id: t.id })).data!.servingTeam!
      .members;
    expect(seen.find((m) => m.personId === cleared.personId)!.clearances).toEqual([
      expect.objectContaining({ id: recorded.id, current: true }),
    ]);
    expect(seen.find((m) => m.personId === notCleared.personId)!.clearances).toEqual([
      expect.objectContaining({ current: false }),
    ]);
    // A member sees only their own row, with their own clearances.
    const own = (await gql(cleared).execute(ServingTeamClearancesDocument, { id: t.id })).data!.servingTeam!
      .members;
    expect(own.map((m) => [m.personId, m.clearances.length])).toEqual([[cleared.personId, 1]]);

    const plan = (
      await gql(pastor).execute(ServingCreatePlanDocument, { input: { title: `Kids ${run}`, date: day } })
    ).data!.createServingPlan;
    await gql(pastor).execute(ServingSetPlanStatusDocument, { id: plan.id, status: "PUBLISHED" });
    await gql(leader).execute(ServingSetNeedDocument, { planId: plan.id, positionId: kids.id, count: 2 });
    const filled = (await gql(leader).execute(ServingAutofillDocument, { teamId: t.id, from: day, to: day }))
      .data!.servingAutofill;
    expect(filled.proposals.filter((p) => p.positionId === kids.id).map((p) => p.personId)).toEqual([
      cleared.personId,
    ]);
    expect(filled.unfilled).toContainEqual({ planId: plan.id, positionId: kids.id, missing: 1 });
  });

  it("who else serves: a volunteer asked on a plan sees its other places and who accepted them where the team shows names", async () => {
    const { team: t, leader, greeters, plan, need } = await team({}, 2);
    const [greeter, barista] = greeters as [TestUser, TestUser];
    const coffee = (
      await gql(pastor).execute(ServingCreatePositionDocument, { teamId: t.id, input: { name: "Coffee" } })
    ).data!.createServingPosition;
    const row = await su
      .collection("serving_members")
      .getFirstListItem(`team = "${t.id}" && person = "${barista.personId}"`);
    await su.collection("serving_members").update(row.id, { positions: [coffee.id] });
    const coffeeNeed = (
      await gql(leader).execute(ServingSetNeedDocument, { planId: plan.id, positionId: coffee.id, count: 1 })
    ).data!.setServingNeed;
    await askAndAccept(leader, need.id, greeter);
    await askAndAccept(leader, coffeeNeed.id, barista);
    const needs = (await gql(greeter).execute(ServingNeedRequestsDocument, { id: plan.id })).data!
      .servingPlan!.needs;
    expect(needs.map((n) => n.id).sort()).toEqual([need.id, coffeeNeed.id].sort());
    expect(needs.flatMap((n) => n.requests.map((r) => r.personId)).sort()).toEqual(
      [greeter.personId, barista.personId].sort(),
    );
    // A team that keeps names to itself: the greeter sees the coffee place, not who fills it.
    await su.collection("serving_teams").update(t.id, { showNames: false });
    const hidden = (await gql(greeter).execute(ServingNeedRequestsDocument, { id: plan.id })).data!
      .servingPlan!.needs;
    expect(hidden.find((n) => n.id === coffeeNeed.id)!.requests).toEqual([]);
  });

  it("history: a volunteer's accepted places on past plans, the latest first (not pending ones, not the coming ones)", async () => {
    const { greeter, greeters, need, leader } = await team({}, 1, 2);
    const [volunteer] = greeters as [TestUser];
    const past = async (date: string, status: string) => {
      const plan = await su
        .collection("serving_plans")
        .create({ title: `Past ${run}`, date: `${date} 00:00:00.000Z`, status: "published" });
      const pastNeed = await su
        .collection("serving_needs")
        .create({ plan: plan.id, position: greeter.id, count: 1 });
      await su
        .collection("serving_requests")
        .create({ need: pastNeed.id, person: volunteer.personId, status });
      return plan.id;
    };
    const older = await past("2026-01-04", "accepted");
    const newer = await past("2026-02-01", "accepted");
    await past("2026-03-01", "pending");
    await askAndAccept(leader, need.id, volunteer); // the coming one
    const history = (await gql(volunteer).execute(ServingHistoryDocument, {})).data!.myServingHistory;
    expect(history.map((h) => h.plan!.id)).toEqual([newer, older]);
    expect(history.every((h) => h.status === "ACCEPTED" && h.position!.name === "Greeter")).toBe(true);
  });

  it("the leader's schedule is live: an answer reaches their subscription; a volunteer may not subscribe", async () => {
    const { team: t, leader, greeters, need, plan } = await team({}, 1);
    const query = `subscription($t: ID!) { servingScheduleChanged(teamId: $t) { teamId planId requestId } }`;
    const live = await SseSubscription.open<{
      servingScheduleChanged: { planId: string; requestId: string };
    }>(gateway, { query, variables: { t: t.id }, token: leader.token, clientIp: "198.51.100.61" });
    const refused = await SseSubscription.open(gateway, {
      query,
      variables: { t: t.id },
      token: greeters[0]!.token,
      clientIp: "198.51.100.62",
    });
    try {
      expect(JSON.stringify((await refused.next((r) => !!r.errors, "the refusal")).errors)).toMatch(
        /FORBIDDEN/,
      );
      await expect
        .poll(() => gateway.services.realtime.stats().subscribers, { timeout: 10_000 })
        .toBeGreaterThanOrEqual(1);
      const [request] = (
        await gql(leader).execute(ServingAskDocument, {
          needId: need.id,
          personIds: [greeters[0]!.personId!],
        })
      ).data!.askToServe;
      await gql(greeters[0]!).execute(ServingAnswerDocument, { id: request!.id, accept: true });
      const change = await live.next(
        (r) => r.data?.servingScheduleChanged.requestId === request!.id,
        "the answer on the leader's schedule",
      );
      expect(change.data!.servingScheduleChanged.planId).toBe(plan.id);
    } finally {
      await live.close();
      await refused.close();
    }
  });
});
