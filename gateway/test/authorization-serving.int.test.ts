/**
 * QUALITY.md S1 for serving (issue 27): persona × (serving_teams, serving_positions, serving_members,
 * serving_plans, serving_needs, serving_requests, serving_blockouts, serving_clearances) × operation,
 * checked against PocketBase's REST API (the rules in pb_migrations/1732600000_serving.js are the
 * authorization) and through GraphQL, plus the realtime column of the requests.
 *
 * Personas (columns): anonymous, member (active, on no team), volunteer (on the target team, can fill
 * its position, asked to serve on its published plan), leader (leads the target team), otherLeader
 * (leads another team: "a leader of team A managing team B"), editor (staff without serving.manage),
 * manager (a role with serving.manage only). One world (a team, its position and roster, a published
 * and a draft plan with a need, the volunteer's request, a fellow's request) serves every read; writes
 * make their own rows.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect } from "vitest";
import { EventSource } from "eventsource";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { createUser, GqlClient, pbAs, restStatus, system, testGateway, type TestUser } from "./helpers.ts";
import {
  ServingAddMemberDocument,
  ServingAnswerDocument,
  ServingAskDocument,
  ServingCreatePlanDocument,
  ServingCreatePositionDocument,
  ServingAddClearanceDocument,
  ServingCreateTeamDocument,
  ServingOpeningsDocument,
  ServingPlanDocument,
  ServingSetSwapDocument,
  ServingSignUpDocument,
  ServingTakeSwapDocument,
  ServingSetNeedDocument,
  ServingSetTeamStatusDocument,
  ServingTeamClearancesDocument,
  ServingTeamDocument,
  ServingUpdateTeamDocument,
} from "./__generated__/operations.ts";
import { describeRealtimeColumn } from "./realtime-recording.ts";
import {
  A,
  D,
  columns,
  describeAuthorizationTable,
  expectGql,
  expectRest,
  type Check,
} from "./authorization-table.ts";

// The PocketBase SDK's realtime needs an EventSource (Node 20 has none).
(globalThis as { EventSource?: unknown }).EventSource ??= EventSource;

const PERSONAS = ["anonymous", "member", "volunteer", "leader", "otherLeader", "editor", "manager"] as const;
type Persona = (typeof PERSONAS)[number];
const { cells } = columns(PERSONAS);

// Columns: anonymous, member, volunteer, leader, otherLeader, editor, manager.
const activePeople = cells(D, A, A, A, A, A, A);
const team = cells(D, D, A, A, D, D, A); // the team's own people and serving.manage
const leaderOrManager = cells(D, D, D, A, D, D, A);
const managerOnly = cells(D, D, D, D, D, D, A);
const leaders = cells(D, D, D, A, A, D, A); // any team's leader (plans are shared) and serving.manage
const onThePlan = cells(D, D, A, A, A, D, A); // asked to serve on it, leaders, serving.manage
const ownOrLeader = cells(D, D, A, A, D, D, A); // the volunteer's own rows, their team's leaders, serving.manage

const MATRIX = {
  serving_teams: {
    viewActive: activePeople,
    viewArchived: team,
    create: managerOnly,
    editDescription: leaderOrManager,
    archive: managerOnly,
  },
  serving_positions: {
    view: activePeople,
    create: leaderOrManager,
  },
  serving_members: {
    viewSomeoneElsesRow: leaderOrManager,
    add: leaderOrManager,
  },
  serving_plans: {
    viewDraft: leaders,
    viewPublished: onThePlan,
    create: managerOnly,
  },
  serving_needs: {
    view: cells(D, D, A, A, D, D, A),
    set: leaderOrManager,
  },
  serving_requests: {
    viewVolunteers: ownOrLeader,
    viewAFellowsPending: leaderOrManager,
    ask: leaderOrManager,
    answerVolunteers: ownOrLeader,
    // Swaps and signups (1732610000_serving_swaps.js): whoever can fill the position sees an open swap
    // and takes it for themself; a signup puts oneself into a place of a team that takes them. The
    // hook refuses anyone not on the team in the position (leaders and staff included: it is a place
    // for oneself).
    openASwapOnTheirPlace: ownOrLeader,
    viewAFellowsOpenSwap: ownOrLeader,
    takeASwap: cells(D, D, A, D, D, D, D),
    signUp: cells(D, D, A, D, D, D, D),
  },
  serving_blockouts: {
    viewVolunteers: ownOrLeader,
    addOwn: activePeople,
    addForTheVolunteer: cells(D, D, A, D, D, D, A),
  },
  serving_clearances: {
    viewVolunteers: ownOrLeader,
    add: managerOnly,
  },
} as const;

let gateway: Gateway;
let su: PocketBase;
const users = {} as Record<Persona, TestUser | null>;
const run = randomUUID().slice(0, 6);
const unique = (label: string) => `${label} ${run} ${randomUUID().slice(0, 6)}`;

interface World {
  team: string;
  archivedTeam: string;
  position: string;
  draftPlan: string;
  plan: string;
  need: string;
  draftNeed: string;
  /** The volunteer's own request (accepted, so fellows may see it where the team shows names). */
  request: string;
  /** A fellow's pending request on the same need. */
  fellowsRequest: string;
  fellow: string;
  blockout: string;
  clearance: string;
}
let world: World;

const member = (team: string, person: string, role: "leader" | "member", positions: string[] = []) =>
  su.collection("serving_members").create({ team, person, role, status: "active", positions });

async function makeWorld(): Promise<World> {
  const [team, archived, other] = await Promise.all(
    [{ status: "active" }, { status: "archived" }, { status: "active" }].map((fields) =>
      su.collection("serving_teams").create({ name: unique("Team"), showNames: false, ...fields }),
    ),
  );
  const position = await su.collection("serving_positions").create({ team: team!.id, name: "Greeter" });
  const fellow = await su
    .collection("people")
    .create({ firstName: "Fellow", lastName: run, recordStatus: "active" });
  await Promise.all([
    member(team!.id, users.leader!.personId!, "leader"),
    member(team!.id, users.volunteer!.personId!, "member", [position.id]),
    member(team!.id, fellow.id, "member", [position.id]),
    member(archived!.id, users.volunteer!.personId!, "member"),
    member(archived!.id, users.leader!.personId!, "leader"),
    member(other!.id, users.otherLeader!.personId!, "leader"),
  ]);
  const [plan, draftPlan] = await Promise.all(
    ["published", "draft"].map((status, i) =>
      su
        .collection("serving_plans")
        .create({ title: unique("Plan"), date: `2031-0${i + 1}-05 00:00:00.000Z`, status }),
    ),
  );
  const [need, draftNeed] = await Promise.all(
    [plan!, draftPlan!].map((p) =>
      su.collection("serving_needs").create({ plan: p.id, position: position.id, count: 50 }),
    ),
  );
  const [request, fellowsRequest] = await Promise.all([
    su
      .collection("serving_requests")
      .create({ need: need!.id, person: users.volunteer!.personId, status: "accepted" }),
    su.collection("serving_requests").create({ need: need!.id, person: fellow.id }),
  ]);
  const [blockout, clearance] = await Promise.all([
    su.collection("serving_blockouts").create({
      person: users.volunteer!.personId,
      startsOn: "2031-02-01 00:00:00.000Z",
      endsOn: "2031-02-08 00:00:00.000Z",
      repeat: "none",
    }),
    su.collection("serving_clearances").create({
      person: users.volunteer!.personId,
      kind: "background_check",
      passedOn: "2030-01-01 00:00:00.000Z",
    }),
  ]);
  return {
    team: team!.id,
    archivedTeam: archived!.id,
    position: position.id,
    plan: plan!.id,
    draftPlan: draftPlan!.id,
    need: need!.id,
    draftNeed: draftNeed!.id,
    request: request!.id,
    fellowsRequest: fellowsRequest!.id,
    fellow: fellow.id,
    blockout: blockout!.id,
    clearance: clearance!.id,
  };
}

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  const managerRole = (
    await su.collection("roles").create({ name: `Serving ${run}`, permissions: ["serving.manage"] })
  ).id;
  users.anonymous = null;
  [users.member, users.volunteer, users.leader, users.otherLeader, users.editor, users.manager] =
    await Promise.all([
      createUser(),
      createUser(),
      createUser(),
      createUser(),
      createUser({ roles: ["Editor"] }),
      createUser(),
    ]);
  await su.collection("users").update(users.manager!.id, { roles: [managerRole] });
  world = await makeWorld();
}, 60_000);
afterAll(() => gateway.close());

const rest = (persona: Persona) => pbAs(users[persona]);
let n = 0;
const gql = (persona: Persona) =>
  new GqlClient(gateway, { token: users[persona]?.token, ip: `192.0.2.${(n++ % 250) + 1}` });
const got = (expected: "allow" | "deny") => async (run: () => Promise<unknown>) =>
  expectRest(expected, await restStatus(run));
/** A GraphQL write refused: FORBIDDEN, or NOT_FOUND where the rules hide the record from the caller. */
const REFUSED = ["FORBIDDEN", "NOT_FOUND"];
/** A person able to fill the world's position, for asks that must not run out of places or repeat. */
async function freshVolunteer(): Promise<string> {
  const person = await su
    .collection("people")
    .create({ firstName: "New", lastName: run, recordStatus: "active" });
  await member(world.team, person.id, "member", [world.position]);
  return person.id;
}
/** A published plan of its own with one place in the world's position, in three weeks (openings list the coming weeks). */
async function publishedNeed(count = 1): Promise<string> {
  const day = new Date(Date.now() + 21 * 86_400_000).toISOString().slice(0, 10);
  const plan = await su
    .collection("serving_plans")
    .create({ title: unique("P"), date: `${day} 00:00:00.000Z`, status: "published" });
  return (await su.collection("serving_needs").create({ plan: plan.id, position: world.position, count })).id;
}
/** The volunteer's own accepted place (to ask a swap of). */
async function acceptedPlaceOfVolunteer(): Promise<string> {
  return (
    await su.collection("serving_requests").create({
      need: await publishedNeed(),
      person: users.volunteer!.personId,
      status: "accepted",
    })
  ).id;
}
/** A fellow's accepted place with a swap asked for, on a need of its own. */
async function openSwap(): Promise<{ need: string; request: string }> {
  const need = await publishedNeed();
  const request = await su
    .collection("serving_requests")
    .create({ need, person: await freshVolunteer(), status: "accepted" });
  await su.collection("serving_requests").update(request.id, { swapOpen: true });
  return { need, request: request.id };
}
/** A place on a team that takes signups, the volunteer able to fill it and the leader leading it. */
async function signupNeed(): Promise<string> {
  const team = await su
    .collection("serving_teams")
    .create({ name: unique("Signups"), status: "active", allowSignup: true });
  const position = await su.collection("serving_positions").create({ team: team.id, name: "Usher" });
  await member(team.id, users.volunteer!.personId!, "member", [position.id]);
  await member(team.id, users.leader!.personId!, "leader");
  const plan = await su
    .collection("serving_plans")
    .create({ title: unique("P"), date: "2031-03-15 00:00:00.000Z", status: "published" });
  return (await su.collection("serving_needs").create({ plan: plan.id, position: position.id, count: 3 })).id;
}
/** The world's fellow's accepted place with an open swap (read by those who could take it). */
let fellowsSwap: Promise<string> | null = null;
const fellowsOpenSwap = () => (fellowsSwap ??= openSwap().then((swap) => swap.request));
/** A write refused by the rules or by the hook (a place for oneself on a team one is not on). */
const REFUSED_OR_INVALID = ["FORBIDDEN", "NOT_FOUND", "BAD_USER_INPUT"];

/** A pending request of a fresh volunteer, or the volunteer's own (answered by them). */
async function pendingRequestOfVolunteer(): Promise<string> {
  const need = await su.collection("serving_needs").create({
    plan: (
      await su
        .collection("serving_plans")
        .create({ title: unique("P"), date: "2031-03-01 00:00:00.000Z", status: "published" })
    ).id,
    position: world.position,
    count: 1,
  });
  return (
    await su.collection("serving_requests").create({ need: need.id, person: users.volunteer!.personId })
  ).id;
}

const REST: { [C in keyof typeof MATRIX]: { [O in keyof (typeof MATRIX)[C]]: Check<Persona> } } = {
  serving_teams: {
    viewActive: (p, e) => got(e)(() => rest(p).collection("serving_teams").getOne(world.team)),
    viewArchived: (p, e) => got(e)(() => rest(p).collection("serving_teams").getOne(world.archivedTeam)),
    async create(p, e) {
      await got(e)(() =>
        rest(p)
          .collection("serving_teams")
          .create({ name: unique("New"), status: "active" }),
      );
    },
    editDescription: (p, e) =>
      got(e)(() =>
        rest(p)
          .collection("serving_teams")
          .update(world.team, { description: `By ${p}` }),
      ),
    async archive(p, e) {
      await got(e)(() => rest(p).collection("serving_teams").update(world.team, { status: "archived" }));
      await su.collection("serving_teams").update(world.team, { status: "active" });
    },
  },
  serving_positions: {
    view: (p, e) => got(e)(() => rest(p).collection("serving_positions").getOne(world.position)),
    create: (p, e) =>
      got(e)(() =>
        rest(p)
          .collection("serving_positions")
          .create({ team: world.team, name: unique("Pos") }),
      ),
  },
  serving_members: {
    async viewSomeoneElsesRow(p, e) {
      const row = await su
        .collection("serving_members")
        .getFirstListItem(`team = "${world.team}" && person = "${world.fellow}"`);
      await got(e)(() => rest(p).collection("serving_members").getOne(row.id));
    },
    async add(p, e) {
      const person = await su
        .collection("people")
        .create({ firstName: "Added", lastName: run, recordStatus: "active" });
      await got(e)(() =>
        rest(p)
          .collection("serving_members")
          .create({ team: world.team, person: person.id, role: "member", status: "active" }),
      );
    },
  },
  serving_plans: {
    viewDraft: (p, e) => got(e)(() => rest(p).collection("serving_plans").getOne(world.draftPlan)),
    viewPublished: (p, e) => got(e)(() => rest(p).collection("serving_plans").getOne(world.plan)),
    create: (p, e) =>
      got(e)(() =>
        rest(p)
          .collection("serving_plans")
          .create({ title: unique("Plan"), date: "2031-05-05 00:00:00.000Z", status: "draft" }),
      ),
  },
  serving_needs: {
    view: (p, e) => got(e)(() => rest(p).collection("serving_needs").getOne(world.need)),
    async set(p, e) {
      const plan = await su
        .collection("serving_plans")
        .create({ title: unique("P"), date: "2031-06-01 00:00:00.000Z", status: "draft" });
      await got(e)(() =>
        rest(p).collection("serving_needs").create({ plan: plan.id, position: world.position, count: 2 }),
      );
    },
  },
  serving_requests: {
    viewVolunteers: (p, e) => got(e)(() => rest(p).collection("serving_requests").getOne(world.request)),
    viewAFellowsPending: (p, e) =>
      got(e)(() => rest(p).collection("serving_requests").getOne(world.fellowsRequest)),
    async ask(p, e) {
      const person = await freshVolunteer();
      await got(e)(() => rest(p).collection("serving_requests").create({ need: world.need, person }));
    },
    async answerVolunteers(p, e) {
      const id = await pendingRequestOfVolunteer();
      await got(e)(() => rest(p).collection("serving_requests").update(id, { status: "declined" }));
    },
    async openASwapOnTheirPlace(p, e) {
      const id = await acceptedPlaceOfVolunteer();
      await got(e)(() => rest(p).collection("serving_requests").update(id, { swapOpen: true }));
    },
    viewAFellowsOpenSwap: async (p, e) =>
      got(e)(async () =>
        rest(p)
          .collection("serving_requests")
          .getOne(await fellowsOpenSwap()),
      ),
    async takeASwap(p, e) {
      const swap = await openSwap();
      await got(e)(() =>
        rest(p)
          .collection("serving_requests")
          .create({
            need: swap.need,
            person: users[p]?.personId ?? world.fellow,
            source: "swap",
            replaces: swap.request,
            status: "accepted",
          }),
      );
    },
    async signUp(p, e) {
      const need = await signupNeed();
      await got(e)(() =>
        rest(p)
          .collection("serving_requests")
          .create({ need, person: users[p]?.personId ?? world.fellow, source: "signup", status: "accepted" }),
      );
    },
  },
  serving_blockouts: {
    viewVolunteers: (p, e) => got(e)(() => rest(p).collection("serving_blockouts").getOne(world.blockout)),
    addOwn: (p, e) =>
      got(e)(() =>
        rest(p)
          .collection("serving_blockouts")
          .create({
            person: users[p]?.personId ?? world.fellow,
            startsOn: "2031-04-01 00:00:00.000Z",
            endsOn: "2031-04-01 00:00:00.000Z",
            repeat: "none",
          }),
      ),
    addForTheVolunteer: (p, e) =>
      got(e)(() =>
        rest(p).collection("serving_blockouts").create({
          person: users.volunteer!.personId,
          startsOn: "2031-04-02 00:00:00.000Z",
          endsOn: "2031-04-02 00:00:00.000Z",
          repeat: "none",
        }),
      ),
  },
  serving_clearances: {
    viewVolunteers: (p, e) => got(e)(() => rest(p).collection("serving_clearances").getOne(world.clearance)),
    add: (p, e) =>
      got(e)(() =>
        rest(p).collection("serving_clearances").create({
          person: users.volunteer!.personId,
          kind: "training",
          passedOn: "2030-06-01 00:00:00.000Z",
        }),
      ),
  },
};

/** The plan through GraphQL: seen, or null. */
const planSeen = async (p: Persona, id: string) =>
  !!(await gql(p).execute(ServingPlanDocument, { id })).data?.servingPlan;
/** The request ids the persona sees on the published plan's need. */
const requestsSeen = async (p: Persona) =>
  ((await gql(p).execute(ServingPlanDocument, { id: world.plan })).data?.servingPlan?.needs ?? []).flatMap(
    (need) => need.requests.map((r) => r.id),
  );

const GRAPHQL: { [C in keyof typeof MATRIX]?: { [O in keyof (typeof MATRIX)[C]]?: Check<Persona> } } = {
  serving_teams: {
    async viewActive(p, e) {
      expect(!!(await gql(p).execute(ServingTeamDocument, { id: world.team })).data?.servingTeam).toBe(
        e === A,
      );
    },
    async viewArchived(p, e) {
      expect(
        !!(await gql(p).execute(ServingTeamDocument, { id: world.archivedTeam })).data?.servingTeam,
      ).toBe(e === A);
    },
    create: async (p, e) =>
      expectGql(
        e,
        p,
        await gql(p).execute(ServingCreateTeamDocument, { input: { name: unique("New") } }),
        REFUSED,
      ),
    editDescription: async (p, e) =>
      expectGql(
        e,
        p,
        await gql(p).execute(ServingUpdateTeamDocument, {
          id: world.team,
          input: { name: `Team ${run} main`, description: p },
        }),
        REFUSED,
      ),
    async archive(p, e) {
      expectGql(
        e,
        p,
        await gql(p).execute(ServingSetTeamStatusDocument, { id: world.team, status: "ARCHIVED" }),
        REFUSED,
      );
      await su.collection("serving_teams").update(world.team, { status: "active" });
    },
  },
  serving_positions: {
    async view(p, e) {
      const names =
        (await gql(p).execute(ServingTeamDocument, { id: world.team })).data?.servingTeam?.positions ?? [];
      expect(names.some((position) => position.id === world.position)).toBe(e === A);
    },
    create: async (p, e) =>
      expectGql(
        e,
        p,
        await gql(p).execute(ServingCreatePositionDocument, {
          teamId: world.team,
          input: { name: unique("Pos") },
        }),
        REFUSED,
      ),
  },
  serving_members: {
    async viewSomeoneElsesRow(p, e) {
      const members =
        (await gql(p).execute(ServingTeamDocument, { id: world.team })).data?.servingTeam?.members ?? [];
      expect(members.some((m) => m.name === `Fellow ${run}`)).toBe(e === A);
    },
    async add(p, e) {
      const person = await su
        .collection("people")
        .create({ firstName: "Added", lastName: run, recordStatus: "active" });
      expectGql(
        e,
        p,
        await gql(p).execute(ServingAddMemberDocument, { teamId: world.team, personId: person.id }),
        REFUSED,
      );
    },
  },
  serving_plans: {
    viewDraft: async (p, e) => expect(await planSeen(p, world.draftPlan)).toBe(e === A),
    viewPublished: async (p, e) => expect(await planSeen(p, world.plan)).toBe(e === A),
    create: async (p, e) =>
      expectGql(
        e,
        p,
        await gql(p).execute(ServingCreatePlanDocument, {
          input: { title: unique("Plan"), date: "2031-05-05" },
        }),
        REFUSED,
      ),
  },
  serving_needs: {
    async view(p, e) {
      const needs =
        (await gql(p).execute(ServingPlanDocument, { id: world.plan })).data?.servingPlan?.needs ?? [];
      expect(needs.some((need) => need.id === world.need)).toBe(e === A);
    },
    async set(p, e) {
      const plan = await su
        .collection("serving_plans")
        .create({ title: unique("P"), date: "2031-06-01 00:00:00.000Z", status: "draft" });
      expectGql(
        e,
        p,
        await gql(p).execute(ServingSetNeedDocument, {
          planId: plan.id,
          positionId: world.position,
          count: 2,
        }),
        REFUSED,
      );
    },
  },
  serving_requests: {
    viewVolunteers: async (p, e) => expect((await requestsSeen(p)).includes(world.request)).toBe(e === A),
    viewAFellowsPending: async (p, e) =>
      expect((await requestsSeen(p)).includes(world.fellowsRequest)).toBe(e === A),
    async ask(p, e) {
      const person = await freshVolunteer();
      expectGql(
        e,
        p,
        await gql(p).execute(ServingAskDocument, { needId: world.need, personIds: [person] }),
        REFUSED,
      );
    },
    async answerVolunteers(p, e) {
      const id = await pendingRequestOfVolunteer();
      expectGql(e, p, await gql(p).execute(ServingAnswerDocument, { id, accept: false }), REFUSED);
    },
    async openASwapOnTheirPlace(p, e) {
      const id = await acceptedPlaceOfVolunteer();
      expectGql(e, p, await gql(p).execute(ServingSetSwapDocument, { id, open: true }), REFUSED);
    },
    async viewAFellowsOpenSwap(p, e) {
      const id = await fellowsOpenSwap();
      const offered = (await gql(p).execute(ServingOpeningsDocument, {})).data?.myServingOpenings ?? [];
      const onPlan = (
        await Promise.all(
          [await su.collection("serving_requests").getOne(id)].map(async (r) =>
            (
              (await gql(p).execute(ServingPlanDocument, { id: r.plan })).data?.servingPlan?.needs ?? []
            ).flatMap((need) => need.requests.map((request) => request.id)),
          ),
        )
      ).flat();
      expect(offered.some((o) => o.swapRequestId === id) || onPlan.includes(id)).toBe(e === A);
    },
    async takeASwap(p, e) {
      const swap = await openSwap();
      expectGql(
        e,
        p,
        await gql(p).execute(ServingTakeSwapDocument, { id: swap.request }),
        REFUSED_OR_INVALID,
      );
    },
    async signUp(p, e) {
      const need = await signupNeed();
      expectGql(e, p, await gql(p).execute(ServingSignUpDocument, { needId: need }), REFUSED_OR_INVALID);
    },
  },
  serving_clearances: {
    // On the team's roster: the volunteer's row with their clearances (leaders, staff, themself).
    async viewVolunteers(p, e) {
      const members =
        (await gql(p).execute(ServingTeamClearancesDocument, { id: world.team })).data?.servingTeam
          ?.members ?? [];
      const own = members.find((m) => m.personId === users.volunteer!.personId);
      expect(!!own?.clearances.some((c) => c.id === world.clearance)).toBe(e === A);
    },
    add: async (p, e) =>
      expectGql(
        e,
        p,
        await gql(p).execute(ServingAddClearanceDocument, {
          personId: users.volunteer!.personId!,
          kind: "TRAINING",
          passedOn: "2026-06-01",
        }),
        REFUSED,
      ),
  },
};

const NO_API_YET =
  "GraphQL reads only the caller's own blockouts (myServingAvailability, serving.int.test.ts): a leader sees only the conflict they cause (servingCandidates, serving-places.int.test.ts)";
describeAuthorizationTable({
  personas: PERSONAS,
  table: MATRIX,
  rest: REST,
  graphql: GRAPHQL,
  gaps: { graphql: { serving_blockouts: NO_API_YET } },
});

// Realtime: a `*` subscription to requests gets the volunteer's own (them, their leader, staff) and the
// fellow's pending one (their leader, staff) — never another team's leader or a member.
const REALTIME_TARGETS = () => ({ own: world.request, fellows: world.fellowsRequest });
describeRealtimeColumn({
  personas: PERSONAS,
  collections: ["serving_requests"] as const,
  targetKeys: () => ["fellows", "own"],
  targetId: (_, key) => REALTIME_TARGETS()[key as "own" | "fellows"],
  allowedTargets: (_, persona) =>
    leaderOrManager[persona] === A ? ["fellows", "own"] : persona === "volunteer" ? ["own"] : [],
  client: rest,
  su: () => su,
});

// ─── API tokens: the scope "serving.read" reads schedules, never rosters or anyone's availability ──
const TOKENS = ["noScope", "servingRead", "contentMembers"] as const;
type Token = (typeof TOKENS)[number];
const TOKEN_SCOPES: Record<Token, string[]> = {
  noScope: [],
  servingRead: ["SERVING_READ"],
  contentMembers: ["CONTENT_MEMBERS"],
};
const tokenCells = columns(TOKENS).cells;
const SCOPED = tokenCells(D, A, D);
const NO_TOKEN = tokenCells(D, D, D);
const TOKEN_TABLE = {
  serving_teams: { viewActive: SCOPED, create: NO_TOKEN },
  serving_plans: { viewPublished: SCOPED, viewDraft: NO_TOKEN },
  serving_needs: { view: SCOPED },
  serving_requests: { viewOnPublishedPlan: SCOPED, viewOnDraftPlan: NO_TOKEN, answer: NO_TOKEN },
  serving_members: { viewRow: NO_TOKEN },
  serving_blockouts: { view: NO_TOKEN },
  serving_clearances: { view: NO_TOKEN },
} as const;

const tokens = {} as Record<Token, { id: string; secret: string }>;
let draftRequest = "";
beforeAll(async () => {
  const admin = await createUser({ roles: ["Administrator"] });
  for (const token of TOKENS) {
    const created = await new GqlClient(gateway, { token: admin.token }).request<{
      createApiToken: { secret: string; token: { id: string } };
    }>(`mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { id } } }`, {
      input: { name: `${token} ${run}`, scopes: TOKEN_SCOPES[token] },
    });
    expect(created.errors).toBeUndefined();
    tokens[token] = {
      id: created.data!.createApiToken.token.id,
      secret: created.data!.createApiToken.secret,
    };
  }
  draftRequest = (
    await su.collection("serving_requests").create({ need: world.draftNeed, person: world.fellow })
  ).id;
});

const tokenRest = (token: Token) => su.collection("api_clients").impersonate(tokens[token].id, 600);
const tokenGql = (token: Token) =>
  new GqlClient(gateway, { token: tokens[token].secret, ip: `198.51.100.${60 + TOKENS.indexOf(token)}` });
const tokenGot =
  (expected: "allow" | "deny", run: (pb: PocketBase) => Promise<unknown>) => async (token: Token) =>
    expectRest(expected, await restStatus(async () => run(await tokenRest(token))));

describeAuthorizationTable<Token, "allow" | "deny", typeof TOKEN_TABLE>({
  title: "API tokens",
  personas: TOKENS,
  table: TOKEN_TABLE,
  rest: {
    serving_teams: {
      viewActive: (t, e) => tokenGot(e, (pb) => pb.collection("serving_teams").getOne(world.team))(t),
      create: (t, e) =>
        tokenGot(e, (pb) =>
          pb.collection("serving_teams").create({ name: unique("Token"), status: "active" }),
        )(t),
    },
    serving_plans: {
      viewPublished: (t, e) => tokenGot(e, (pb) => pb.collection("serving_plans").getOne(world.plan))(t),
      viewDraft: (t, e) => tokenGot(e, (pb) => pb.collection("serving_plans").getOne(world.draftPlan))(t),
    },
    serving_needs: {
      view: (t, e) => tokenGot(e, (pb) => pb.collection("serving_needs").getOne(world.need))(t),
    },
    serving_requests: {
      viewOnPublishedPlan: (t, e) =>
        tokenGot(e, (pb) => pb.collection("serving_requests").getOne(world.fellowsRequest))(t),
      viewOnDraftPlan: (t, e) =>
        tokenGot(e, (pb) => pb.collection("serving_requests").getOne(draftRequest))(t),
      answer: (t, e) =>
        tokenGot(e, (pb) =>
          pb.collection("serving_requests").update(world.fellowsRequest, { status: "declined" }),
        )(t),
    },
    serving_members: {
      async viewRow(t, e) {
        const row = await su
          .collection("serving_members")
          .getFirstListItem(`team = "${world.team}" && person = "${world.fellow}"`);
        await tokenGot(e, (pb) => pb.collection("serving_members").getOne(row.id))(t);
      },
    },
    serving_blockouts: {
      view: (t, e) => tokenGot(e, (pb) => pb.collection("serving_blockouts").getOne(world.blockout))(t),
    },
    serving_clearances: {
      view: (t, e) => tokenGot(e, (pb) => pb.collection("serving_clearances").getOne(world.clearance))(t),
    },
  },
  graphql: {
    serving_teams: {
      async viewActive(t, e) {
        expect(!!(await tokenGql(t).execute(ServingTeamDocument, { id: world.team })).data?.servingTeam).toBe(
          e === A,
        );
      },
      create: async (t, e) =>
        expectGql(
          e,
          t,
          await tokenGql(t).execute(ServingCreateTeamDocument, { input: { name: unique("Token") } }),
          REFUSED,
        ),
    },
    serving_plans: {
      async viewPublished(t, e) {
        expect(!!(await tokenGql(t).execute(ServingPlanDocument, { id: world.plan })).data?.servingPlan).toBe(
          e === A,
        );
      },
      async viewDraft(t, e) {
        expect(
          !!(await tokenGql(t).execute(ServingPlanDocument, { id: world.draftPlan })).data?.servingPlan,
        ).toBe(e === A);
      },
    },
    serving_needs: {
      async view(t, e) {
        const needs =
          (await tokenGql(t).execute(ServingPlanDocument, { id: world.plan })).data?.servingPlan?.needs ?? [];
        expect(needs.some((need) => need.id === world.need)).toBe(e === A);
      },
    },
    serving_requests: {
      async viewOnPublishedPlan(t, e) {
        const needs =
          (await tokenGql(t).execute(ServingPlanDocument, { id: world.plan })).data?.servingPlan?.needs ?? [];
        expect(needs.flatMap((n) => n.requests.map((r) => r.id)).includes(world.fellowsRequest)).toBe(
          e === A,
        );
      },
      async viewOnDraftPlan(t, e) {
        const needs =
          (await tokenGql(t).execute(ServingPlanDocument, { id: world.draftPlan })).data?.servingPlan
            ?.needs ?? [];
        expect(needs.flatMap((n) => n.requests.map((r) => r.id)).includes(draftRequest)).toBe(e === A);
      },
      answer: async (t, e) =>
        expectGql(
          e,
          t,
          await tokenGql(t).execute(ServingAnswerDocument, { id: world.fellowsRequest, accept: false }),
          REFUSED,
        ),
    },
    serving_members: {
      async viewRow(t, e) {
        const members =
          (await tokenGql(t).execute(ServingTeamDocument, { id: world.team })).data?.servingTeam?.members ??
          [];
        expect(members.some((m) => m.name === `Fellow ${run}`)).toBe(e === A);
      },
    },
  },
  gaps: { graphql: { serving_blockouts: NO_API_YET, serving_clearances: NO_API_YET } },
});
