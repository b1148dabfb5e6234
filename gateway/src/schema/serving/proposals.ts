import type { GatewayContext } from "../../context.ts";
import { pbCall } from "../../errors.ts";
import type {
  ServingBlockoutRecord,
  ServingClearanceRecord,
  ServingMemberRecord,
  ServingNeedRecord,
  ServingPlanRecord,
  ServingPositionRecord,
  ServingPreferencesRecord,
  ServingRequestRecord,
} from "../../pocketbase/records.ts";
import type PocketBase from "pocketbase";
import {
  autofill,
  conflictsFor,
  DEFAULT_WINDOW_WEEKS,
  type Assignment,
  type AutofillInput,
  type AutofillResult,
  type Conflict,
  type Candidate,
  type HouseholdMember,
  type ClearanceKind,
  type PlanSlot,
  type Position,
} from "./autofill.ts";
import { anyOf } from "../../pocketbase/filters.ts";

/**
 * Auto-fill for one team over a range of plans (issue 27): what autofill.ts needs, read with the
 * caller's token — the team's roster, its people's blockouts, preferences and clearances (the rules let
 * a team's leaders read those) — and, as a system read, where those people already serve on other
 * teams: a leader may not read another team's schedule, but auto-fill must not propose someone busy
 * at the time or over their monthly limit. Only that it conflicts is used, and how many places they held
 * (the fairness count the leader sees); households likewise (householdsOf). (A rule letting
 * leaders read their people's requests on every team took PocketBase 18 s on the demo church: the
 * person → teams → leaders join, per request row.) Nothing is written: the leader reviews the proposals
 * and sends the requests (askToServe).
 */

const DAY = (pbDate: string) => pbDate.slice(0, 10);
const orNull = (pbDate: string) => (pbDate ? DAY(pbDate) : null);
const iso = (instant: string) => instant.replace(" ", "T");

/** "09:00": an instant's wall-clock time in the church's zone (preferences name service times so). */
function wallTime(instant: string, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
    timeZone,
  }).format(new Date(iso(instant)));
}

function slotOf(plan: ServingPlanRecord, timeZone: string): PlanSlot {
  const times = (plan.times ?? []).map((t) => ({ startsAt: iso(t.startsAt), endsAt: iso(t.endsAt) }));
  const service = (plan.times ?? []).find((t) => t.kind === "service") ?? plan.times?.[0];
  return {
    id: plan.id,
    date: DAY(plan.date),
    times,
    serviceTime: service ? wallTime(service.startsAt, timeZone) : "",
  };
}

/** What autofill.ts reads about one team over a range of plans, and the names it proposes. */
export interface TeamSchedule {
  input: AutofillInput;
  /** The needs of the team's positions on those plans. */
  needs: ServingNeedRecord[];
  /** The roster's names, by person id. */
  names: Map<string, string>;
}

export interface TeamAutofill extends AutofillResult {
  /** The needs filled, by plan and position (the proposals name their need). */
  needs: ServingNeedRecord[];
  /** The candidates' names, by person id. */
  names: Map<string, string>;
}

/**
 * The team's schedule over [first, last], read with `reader`: the caller's client for a leader (the
 * rules decide), the system's for a job no leader runs (the next person offered a declined place).
 */
export async function readTeamSchedule(
  ctx: GatewayContext,
  teamId: string,
  first: string,
  last: string,
  reader: PocketBase = ctx.pb,
): Promise<TeamSchedule> {
  const settings = await ctx.publicSettings.get();
  const timeZone = settings.timezone || "UTC";
  const windowStart = new Date(Date.parse(`${first}T00:00:00Z`) - DEFAULT_WINDOW_WEEKS * 7 * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const [positions, roster, plans] = await Promise.all([
    pbCall(() =>
      reader
        .collection("serving_positions")
        .getFullList<ServingPositionRecord>({ filter: reader.filter("team = {:teamId}", { teamId }) }),
    ),
    pbCall(() =>
      reader.collection("serving_members").getFullList<ServingMemberRecord>({
        filter: reader.filter("team = {:teamId} && status = 'active'", { teamId }),
      }),
    ),
    pbCall(() =>
      reader.collection("serving_plans").getFullList<ServingPlanRecord>({
        filter: reader.filter("date >= {:first} && date <= {:last} && status != 'done'", {
          first: `${first} 00:00:00.000Z`,
          last: `${last} 00:00:00.000Z`,
        }),
        sort: "date,id",
      }),
    ),
  ]);
  const people = roster.map((row) => row.person);
  const [needs, clearances, blockouts, preferences, requests] = await Promise.all([
    pbCall(() =>
      reader.collection("serving_needs").getFullList<ServingNeedRecord>({
        filter: `(${anyOf(
          reader,
          "plan",
          plans.map((p) => p.id),
        )}) && (${anyOf(
          reader,
          "position",
          positions.map((p) => p.id),
        )})`,
      }),
    ),
    pbCall(() =>
      reader
        .collection("serving_clearances")
        .getFullList<ServingClearanceRecord>({ filter: anyOf(reader, "person", people) }),
    ),
    pbCall(() =>
      reader
        .collection("serving_blockouts")
        .getFullList<ServingBlockoutRecord>({ filter: anyOf(reader, "person", people) }),
    ),
    pbCall(() =>
      reader
        .collection("serving_preferences")
        .getFullList<ServingPreferencesRecord>({ filter: anyOf(reader, "person", people) }),
    ),
    // Where they serve on any team, from the fairness window's start to the range's end (a system read,
    // above; the filter names only the team's people).
    pbCall(async () =>
      (await ctx.system.get())
        .collection("serving_requests")
        .getFullList<ServingRequestRecord & { expand?: { plan?: ServingPlanRecord } }>({
          filter: `(${anyOf(reader, "person", people)}) && status != 'cancelled' && status != 'replaced' && plan.date >= ${reader.filter(
            "{:since}",
            {
              since: `${windowStart} 00:00:00.000Z`,
            },
          )} && plan.date <= ${reader.filter("{:last}", { last: `${last} 00:00:00.000Z` })}`,
          expand: "plan",
        }),
    ),
  ]);

  const family = await householdsOf(ctx, people, plans);

  const candidates: Candidate[] = roster.map((row) => {
    const prefs = preferences.find((p) => p.person === row.person);
    return {
      personId: row.person,
      name: row.name,
      // Read by the system for "together" and "apart" only: the leader never sees who lives with whom.
      householdId: family.householdOf.get(row.person) ?? null,
      positionIds: row.positions ?? [],
      clearances: clearances
        .filter((c) => c.person === row.person)
        .map((c) => ({ kind: c.kind as ClearanceKind, expiresOn: orNull(c.expiresOn) })),
      blockouts: blockouts
        .filter((b) => b.person === row.person)
        .map((b) => ({
          startsOn: DAY(b.startsOn),
          endsOn: DAY(b.endsOn),
          repeat: b.repeat || "none",
          until: orNull(b.until),
        })),
      preferences: {
        maxPerMonth: prefs?.maxPerMonth ? prefs.maxPerMonth : null,
        preferredTimes: prefs?.preferredTimes ?? [],
        household: prefs?.household || "none",
      },
    };
  });
  const assignments: Assignment[] = [...requests, ...family.requests].flatMap((r) => {
    const plan = r.expand?.plan;
    if (!plan || r.status === "cancelled" || r.status === "replaced") return [];
    return [
      {
        personId: r.person,
        planId: r.plan,
        positionId: r.position,
        date: DAY(plan.date),
        times: slotOf(plan, timeZone).times,
        status: r.status,
      },
    ];
  });
  const teamPositions: Position[] = positions.map((p) => ({
    id: p.id,
    teamId: p.team,
    name: p.name,
    requires: [
      ...(p.requiresBackgroundCheck ? (["background_check"] as const) : []),
      ...(p.requiresTraining ? (["training"] as const) : []),
    ],
  }));
  return {
    input: {
      plans: plans.map((plan) => slotOf(plan, timeZone)),
      needs: needs.map((n) => ({ planId: n.plan, positionId: n.position, count: n.count })),
      positions: teamPositions,
      candidates,
      assignments,
      households: family.others,
    },
    needs,
    names: new Map(roster.map((row) => [row.person, row.name])),
  };
}

type RequestWithPlan = ServingRequestRecord & { expand?: { plan?: ServingPlanRecord } };

/**
 * Households, for "serve together" and "never on the same plan": the team's people's households, the
 * other people of those households (on other teams), their wish, and where they serve on the plans in
 * range. System reads (households are the people rules' to show, and a leader may not read them): only
 * auto-fill's choice uses them; no household is returned to the leader.
 */
async function householdsOf(ctx: GatewayContext, people: string[], plans: ServingPlanRecord[]) {
  const none = {
    householdOf: new Map<string, string>(),
    others: [] as { personId: string; householdId: string | null; prefersApart: boolean }[],
    requests: [] as RequestWithPlan[],
  };
  if (!people.length) return none;
  const system = await ctx.system.get();
  const own = await system.collection("people").getFullList<{ id: string; household: string }>({
    filter: anyOf(system, "id", people),
    fields: "id,household",
  });
  const householdOf = new Map(own.filter((p) => p.household).map((p) => [p.id, p.household]));
  const households = [...new Set(householdOf.values())];
  if (!households.length || !plans.length) return { ...none, householdOf };
  const onTeam = new Set(people);
  const relatives = (
    await system.collection("people").getFullList<{ id: string; household: string }>({
      filter: anyOf(system, "household", households),
      fields: "id,household",
    })
  ).filter((p) => !onTeam.has(p.id));
  if (!relatives.length) return { ...none, householdOf };
  const ids = relatives.map((p) => p.id);
  const [wishes, requests] = await Promise.all([
    system.collection("serving_preferences").getFullList<ServingPreferencesRecord>({
      filter: anyOf(system, "person", ids),
      fields: "person,household",
    }),
    system.collection("serving_requests").getFullList<RequestWithPlan>({
      filter: `(${anyOf(system, "person", ids)}) && (${anyOf(
        system,
        "plan",
        plans.map((p) => p.id),
      )}) && (status = 'pending' || status = 'accepted')`,
      expand: "plan",
    }),
  ]);
  return {
    householdOf,
    others: relatives.map((p) => ({
      personId: p.id,
      householdId: p.household,
      prefersApart: wishes.some((w) => w.person === p.id && w.household === "apart"),
    })),
    requests,
  };
}

/** Auto-fill's proposals for one team over [first, last] (nothing is written). */
export async function proposeForTeam(
  ctx: GatewayContext,
  teamId: string,
  first: string,
  last: string,
  reader: PocketBase = ctx.pb,
): Promise<TeamAutofill> {
  const schedule = await readTeamSchedule(ctx, teamId, first, last, reader);
  return { ...autofill(schedule.input), needs: schedule.needs, names: schedule.names };
}

/** A roster member who could be asked for one place, and what stands against it. */
export interface NeedCandidate {
  personId: string;
  name: string;
  conflicts: Conflict[];
  /** Places held (asked or accepted, any team) in the fairness window before the plan. */
  servedInWindow: number;
}

/**
 * Everyone on the team who can fill the need's position, with their conflicts for its plan (blocked
 * out, serving at an overlapping time on any team, over their monthly limit, declined before, a missing
 * clearance): what a leader sees before asking by hand. Those already asked for it are left out.
 */
export async function candidatesForNeed(
  ctx: GatewayContext,
  need: ServingNeedRecord,
  teamId: string,
  planDay: string,
  reader: PocketBase = ctx.pb,
): Promise<NeedCandidate[]> {
  const schedule = await readTeamSchedule(ctx, teamId, planDay, planDay, reader);
  const { input } = schedule;
  const plan = input.plans.find((p) => p.id === need.plan);
  const position = input.positions.find((p) => p.id === need.position);
  if (!plan || !position) return [];
  const since = Date.parse(`${planDay}T00:00:00Z`) - DEFAULT_WINDOW_WEEKS * 7 * 86_400_000;
  // One request per person and need (a unique index): whoever was asked already, whatever they said.
  const onNeed = new Set(
    input.assignments
      .filter((a) => a.planId === need.plan && a.positionId === need.position)
      .map((a) => a.personId),
  );
  return input.candidates
    .filter((c) => c.positionIds.includes(need.position) && !onNeed.has(c.personId))
    .map((candidate) => ({
      personId: candidate.personId,
      name: candidate.name,
      conflicts: conflictsFor(candidate, plan, position, input.assignments, householdOf(input, candidate)),
      servedInWindow: input.assignments.filter(
        (a) =>
          a.personId === candidate.personId &&
          a.status !== "declined" &&
          Date.parse(`${a.date}T00:00:00Z`) >= since &&
          a.date < planDay,
      ).length,
    }))
    .sort(
      (a, b) =>
        a.conflicts.length - b.conflicts.length ||
        a.servedInWindow - b.servedInWindow ||
        a.name.localeCompare(b.name),
    );
}

/** The other people of a candidate's household (team or not) with their "apart" wish. */
function householdOf(input: AutofillInput, candidate: Candidate): HouseholdMember[] {
  if (!candidate.householdId) return [];
  return [
    ...input.candidates
      .filter((c) => c.householdId === candidate.householdId && c.personId !== candidate.personId)
      .map((c) => ({ personId: c.personId, prefersApart: c.preferences.household === "apart" })),
    ...(input.households ?? [])
      .filter((h) => h.householdId === candidate.householdId)
      .map((h) => ({ personId: h.personId, prefersApart: h.prefersApart })),
  ];
}
