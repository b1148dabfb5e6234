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
import {
  autofill,
  DEFAULT_WINDOW_WEEKS,
  type Assignment,
  type AutofillResult,
  type Candidate,
  type ClearanceKind,
  type PlanSlot,
  type Position,
} from "./autofill.ts";
import { anyOf } from "./filters.ts";

/**
 * Auto-fill for one team over a range of plans (issue 27): what autofill.ts needs, read with the
 * caller's token — the team's roster, its people's blockouts, preferences and clearances (the rules let
 * a team's leaders read those) — and, as a system read, where those people already serve on other
 * teams: a leader may not read another team's schedule, but auto-fill must not propose someone busy
 * at the time or over their monthly limit. Only that it conflicts is used, and how many places they held (the fairness count the leader sees). (A rule letting
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

export interface TeamAutofill extends AutofillResult {
  /** The needs filled, by plan and position (the proposals name their need). */
  needs: ServingNeedRecord[];
  /** The candidates' names, by person id. */
  names: Map<string, string>;
}

export async function proposeForTeam(
  ctx: GatewayContext,
  teamId: string,
  first: string,
  last: string,
): Promise<TeamAutofill> {
  const settings = await ctx.publicSettings.get();
  const timeZone = settings.timezone || "UTC";
  const windowStart = new Date(Date.parse(`${first}T00:00:00Z`) - DEFAULT_WINDOW_WEEKS * 7 * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const [positions, roster, plans] = await Promise.all([
    pbCall(() =>
      ctx.pb
        .collection("serving_positions")
        .getFullList<ServingPositionRecord>({ filter: ctx.pb.filter("team = {:teamId}", { teamId }) }),
    ),
    pbCall(() =>
      ctx.pb.collection("serving_members").getFullList<ServingMemberRecord>({
        filter: ctx.pb.filter("team = {:teamId} && status = 'active'", { teamId }),
      }),
    ),
    pbCall(() =>
      ctx.pb.collection("serving_plans").getFullList<ServingPlanRecord>({
        filter: ctx.pb.filter("date >= {:first} && date <= {:last} && status != 'done'", {
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
      ctx.pb.collection("serving_needs").getFullList<ServingNeedRecord>({
        filter: `(${anyOf(
          ctx.pb,
          "plan",
          plans.map((p) => p.id),
        )}) && (${anyOf(
          ctx.pb,
          "position",
          positions.map((p) => p.id),
        )})`,
      }),
    ),
    pbCall(() =>
      ctx.pb
        .collection("serving_clearances")
        .getFullList<ServingClearanceRecord>({ filter: anyOf(ctx.pb, "person", people) }),
    ),
    pbCall(() =>
      ctx.pb
        .collection("serving_blockouts")
        .getFullList<ServingBlockoutRecord>({ filter: anyOf(ctx.pb, "person", people) }),
    ),
    pbCall(() =>
      ctx.pb
        .collection("serving_preferences")
        .getFullList<ServingPreferencesRecord>({ filter: anyOf(ctx.pb, "person", people) }),
    ),
    // Where they serve on any team, from the fairness window's start to the range's end (a system read,
    // above; the filter names only the team's people).
    pbCall(async () =>
      (await ctx.system.get())
        .collection("serving_requests")
        .getFullList<ServingRequestRecord & { expand?: { plan?: ServingPlanRecord } }>({
          filter: `(${anyOf(ctx.pb, "person", people)}) && status != 'cancelled' && plan.date >= ${ctx.pb.filter(
            "{:since}",
            {
              since: `${windowStart} 00:00:00.000Z`,
            },
          )} && plan.date <= ${ctx.pb.filter("{:last}", { last: `${last} 00:00:00.000Z` })}`,
          expand: "plan",
        }),
    ),
  ]);

  const candidates: Candidate[] = roster.map((row) => {
    const prefs = preferences.find((p) => p.person === row.person);
    return {
      personId: row.person,
      name: row.name,
      // Households are the people rules' to show; a leader may not read them (together/apart left out).
      householdId: null,
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
  const assignments: Assignment[] = requests.flatMap((r) => {
    const plan = r.expand?.plan;
    if (!plan || r.status === "cancelled") return [];
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
  const result = autofill({
    plans: plans.map((plan) => slotOf(plan, timeZone)),
    needs: needs.map((n) => ({ planId: n.plan, positionId: n.position, count: n.count })),
    positions: teamPositions,
    candidates,
    assignments,
  });
  return { ...result, needs, names: new Map(roster.map((row) => [row.person, row.name])) };
}
