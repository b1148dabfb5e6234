import type { GatewayContext } from "../../context.ts";
import { badUserInput, forbidden, pbCall } from "../../errors.ts";
import type {
  ServingMemberRecord,
  ServingNeedRecord,
  ServingPlanRecord,
  ServingPositionRecord,
  ServingRequestRecord,
  ServingTeamRecord,
} from "../../pocketbase/records.ts";
import { requireViewer } from "../../access/guards.ts";
import { leadsTeam } from "../../access/serving.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { anyOf } from "../../pocketbase/filters.ts";
import { mapEvents } from "../../realtime/event-queue.ts";
import { candidatesForNeed, proposeForTeam } from "./proposals.ts";
import { noticeAsked, noticeDeclined, noticeSwapOpen, noticeSwapped } from "./notices.ts";

/**
 * Places changing hands (issue 27): swaps, signups, a declined place offered on, and the leader's live
 * schedule. The writes go with the caller's token: PocketBase's rules say who may open a swap, take one
 * or sign up (pb_migrations/1732610000_serving_swaps.js) and its hook decides, inside the write, whether
 * the place is still there (pb_hooks/lib/serving.js). What the system does for no caller — telling
 * people, offering a declined place to the next person — runs after the response.
 */

const DAY_MS = 86_400_000;
/** Openings are listed this far ahead. */
const OPENINGS_WEEKS = 12;
/** Conflicts that rule someone out of being offered a place (over-preference and the like only warn). */
const RULED_OUT = new Set(["not_on_position", "clearance_missing", "blocked_out", "overlap"]);

const dayOf = (pbDate: string) => pbDate.slice(0, 10);

/**
 * After a decline (by answer, mail link or a new blockout): the leaders are told, and when the team
 * offers declined places on, the freest suitable teammate is asked (auto-fill's choice for that one
 * place, read and written by the system: the one declining may not read the roster, nor ask anyone).
 */
export async function afterDecline(ctx: GatewayContext, requestId: string): Promise<void> {
  const offeredTo = await offerPlaceOn(ctx, requestId).catch((error: unknown) => {
    console.error(
      "[serving] could not offer a declined place:",
      error instanceof Error ? error.message : error,
    );
    return undefined;
  });
  await noticeDeclined(ctx, requestId, offeredTo);
}

/** The name of the person the declined place was offered to, or undefined when none was. */
async function offerPlaceOn(ctx: GatewayContext, requestId: string): Promise<string | undefined> {
  const system = await ctx.system.get();
  const declined = await system.collection("serving_requests").getOne<ServingRequestRecord>(requestId);
  if (declined.status !== "declined") return undefined;
  const [plan, position] = await Promise.all([
    system.collection("serving_plans").getOne<ServingPlanRecord>(declined.plan),
    system.collection("serving_positions").getOne<ServingPositionRecord>(declined.position),
  ]);
  const team = await system.collection("serving_teams").getOne<ServingTeamRecord>(position.team);
  if (!team.autoOffer || team.status !== "active" || plan.status !== "published") return undefined;
  const day = dayOf(plan.date);
  const proposal = (await proposeForTeam(ctx, team.id, day, day, system)).proposals.find(
    (p) => p.planId === plan.id && p.positionId === position.id,
  );
  if (!proposal) return undefined;
  // The hook refuses it if the place was taken meanwhile (need_full): then nobody is asked.
  const asked = await system
    .collection("serving_requests")
    .create<ServingRequestRecord>({ need: declined.need, person: proposal.personId, source: "autofill" })
    .catch(() => null);
  if (!asked) return undefined;
  await noticeAsked(ctx, asked.id, team.name);
  return asked.name;
}

/** The caller's active roster rows (their own: the rules let everyone read theirs). */
async function myActiveRows(ctx: GatewayContext, person: string): Promise<ServingMemberRecord[]> {
  return pbCall(() =>
    ctx.pb.collection("serving_members").getFullList<ServingMemberRecord>({
      filter: ctx.pb.filter("person = {:person} && status = 'active'", { person }),
    }),
  );
}

const swapTaken = () =>
  badUserInput({ replaces: { code: "swap_taken", message: "This place was taken meanwhile." } });

/**
 * The swap `person` wants to take, as they may read it. The rules let those who fill the position read
 * a swap only while it is open, so one taken a moment earlier by a teammate answers 404 to the caller:
 * that is swap_taken for someone who fills the position (they saw it offered), NOT_FOUND for anyone else.
 */
async function swapToTake(ctx: GatewayContext, id: string, person: string): Promise<ServingRequestRecord> {
  try {
    return await pbCall(() => ctx.pb.collection("serving_requests").getOne<ServingRequestRecord>(id));
  } catch (error) {
    const system = await ctx.system.get();
    const stored = await system
      .collection("serving_requests")
      .getOne<ServingRequestRecord & { expand?: { position?: ServingPositionRecord } }>(id, {
        expand: "position",
      })
      .catch(() => null);
    const fillers = stored?.expand?.position?.fillerIds.split(",") ?? [];
    if (stored?.status === "replaced" && fillers.includes(person)) throw swapTaken();
    throw error;
  }
}

type PlanExpanded = ServingRequestRecord & {
  expand?: {
    plan?: ServingPlanRecord;
    position?: ServingPositionRecord & { expand?: { team?: ServingTeamRecord } };
  };
};

export const placesResolvers: Resolvers = {
  Query: {
    async servingCandidates(_, { needId }, ctx) {
      const viewer = await requireViewer(ctx);
      const need = await pbCall(() => ctx.pb.collection("serving_needs").getOne<ServingNeedRecord>(needId));
      const position = await pbCall(() =>
        ctx.pb.collection("serving_positions").getOne<ServingPositionRecord>(need.position),
      );
      const rows = viewer.person ? await myActiveRows(ctx, viewer.person) : [];
      if (!leadsTeam(viewer, rows.find((row) => row.team === position.team) ?? null)) throw forbidden();
      const plan = await pbCall(() =>
        ctx.pb.collection("serving_plans").getOne<ServingPlanRecord>(need.plan),
      );
      const candidates = await candidatesForNeed(ctx, need, position.team, dayOf(plan.date));
      return candidates.map((c) => ({ ...c, conflicts: [...new Set(c.conflicts.map((x) => x.kind))] }));
    },

    async myServingOpenings(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      if (!viewer.person) return [];
      const me = viewer.person;
      const rows = await myActiveRows(ctx, me);
      const positions = [...new Set(rows.flatMap((row) => row.positions ?? []))];
      if (!positions.length) return [];
      const from = `${new Date(Date.now() - DAY_MS).toISOString().slice(0, 10)} 00:00:00.000Z`;
      const to = `${new Date(Date.now() + OPENINGS_WEEKS * 7 * DAY_MS).toISOString().slice(0, 10)} 00:00:00.000Z`;
      const inRange = ctx.pb.filter(
        "plan.status = 'published' && plan.date >= {:from} && plan.date <= {:to}",
        {
          from,
          to,
        },
      );
      // A member may not read the plans and needs they are not asked for (the rules keep a plan's
      // staffing to its leaders), so the system reads the openings — limited here to the positions the
      // caller's own roster rows name — and returns only what a signup sheet shows.
      const system = await ctx.system.get();
      const swaps = await system.collection("serving_requests").getFullList<PlanExpanded>({
        filter: `swapOpen = true && status = 'accepted' && ${inRange} && (${anyOf(system, "position", positions)})`,
        expand: "plan,position.team",
      });
      const signupTeams = await system.collection("serving_teams").getFullList<ServingTeamRecord>({
        filter: `allowSignup = true && status = 'active' && (${anyOf(
          system,
          "id",
          rows.map((row) => row.team),
        )})`,
      });
      const signupPositions = rows
        .filter((row) => signupTeams.some((team) => team.id === row.team))
        .flatMap((row) => row.positions ?? []);
      const needs = signupPositions.length
        ? await system.collection("serving_needs").getFullList<
            ServingNeedRecord & {
              expand?: {
                plan?: ServingPlanRecord;
                position?: ServingPositionRecord & { expand?: { team?: ServingTeamRecord } };
              };
            }
          >({
            filter: `${inRange} && (${anyOf(system, "position", signupPositions)})`,
            expand: "plan,position.team",
          })
        : [];
      const taken = needs.length
        ? await system.collection("serving_requests").getFullList<ServingRequestRecord>({
            filter: `(${anyOf(
              system,
              "need",
              needs.map((n) => n.id),
            )}) && (status = 'pending' || status = 'accepted' || person = ${system.filter("{:me}", { me })})`,
            fields: "id,need,person,status",
          })
        : [];
      // A need the caller is already asked for (whatever they answered) is not theirs to take again.
      const mine = swaps.length
        ? await pbCall(() =>
            ctx.pb.collection("serving_requests").getFullList<ServingRequestRecord>({
              filter: `person = ${ctx.pb.filter("{:me}", { me })} && (${anyOf(
                ctx.pb,
                "need",
                swaps.map((r) => r.need),
              )})`,
              fields: "id,need",
            }),
          )
        : [];
      const openings = [
        ...needs.flatMap((need) => {
          const held = taken.filter((r) => r.need === need.id);
          const left =
            need.count - held.filter((r) => r.status === "pending" || r.status === "accepted").length;
          const plan = need.expand?.plan;
          const position = need.expand?.position;
          if (left <= 0 || !plan || !position || held.some((r) => r.person === me)) return [];
          return [
            {
              needId: need.id,
              plan,
              positionName: position.name,
              teamName: position.expand?.team?.name ?? "",
              placesLeft: left,
              swapRequestId: null,
              swapFromName: null,
            },
          ];
        }),
        ...swaps.flatMap((request) => {
          const plan = request.expand?.plan;
          const position = request.expand?.position;
          if (request.person === me || !plan || !position || mine.some((r) => r.need === request.need))
            return [];
          return [
            {
              needId: request.need,
              plan,
              positionName: position.name,
              teamName: position.expand?.team?.name ?? "",
              placesLeft: 1,
              swapRequestId: request.id,
              swapFromName: request.name,
            },
          ];
        }),
      ];
      return openings
        .sort(
          (a, b) => a.plan.date.localeCompare(b.plan.date) || a.positionName.localeCompare(b.positionName),
        )
        .map(({ plan, ...rest }) => ({
          ...rest,
          planId: plan.id,
          planTitle: plan.title,
          date: dayOf(plan.date),
          times: plan.times ?? [],
        }));
    },
  },

  Subscription: {
    servingScheduleChanged: {
      subscribe: async (_, { teamId }, ctx) => subscribeToSchedule(ctx, teamId) as never,
      resolve: (value: unknown) => value as never,
    },
  },

  Mutation: {
    async setServingSwap(_, { id, open }, ctx) {
      await requireViewer(ctx);
      const request = await writeAsCaller(() =>
        ctx.pb.collection("serving_requests").update<ServingRequestRecord>(id, { swapOpen: open }),
      );
      if (open)
        ctx.afterResponse(() => {
          void (async () => {
            // Offered to teammates who could take it: on the position, free at the time.
            const system = await ctx.system.get();
            const [need, plan, position] = await Promise.all([
              system.collection("serving_needs").getOne<ServingNeedRecord>(request.need),
              system.collection("serving_plans").getOne<ServingPlanRecord>(request.plan),
              system.collection("serving_positions").getOne<ServingPositionRecord>(request.position),
            ]);
            const candidates = await candidatesForNeed(ctx, need, position.team, dayOf(plan.date), system);
            const free = candidates.filter(
              (c) => !c.conflicts.some((conflict) => RULED_OUT.has(conflict.kind)),
            );
            await noticeSwapOpen(
              ctx,
              request.id,
              free.map((c) => c.personId),
            );
          })().catch(() => undefined);
        });
      return request;
    },

    async takeServingSwap(_, { id }, ctx) {
      const viewer = await requireViewer(ctx);
      if (!viewer.person) throw forbidden("Your account has no person record yet.");
      const original = await swapToTake(ctx, id, viewer.person);
      if (!original.swapOpen || original.status !== "accepted") throw swapTaken();
      const taken = await writeAsCaller(() =>
        ctx.pb.collection("serving_requests").create<ServingRequestRecord>({
          need: original.need,
          person: viewer.person,
          source: "swap",
          replaces: original.id,
          status: "accepted",
        }),
      ).catch(async (error: unknown) => {
        // Someone quicker: the rules refuse a swap no longer open before the hook can say why.
        const now = await (
          await ctx.system.get()
        )
          .collection("serving_requests")
          .getOne<ServingRequestRecord>(original.id)
          .catch(() => null);
        if (!now?.swapOpen || now.status !== "accepted") throw swapTaken();
        throw error;
      });
      ctx.afterResponse(() => void noticeSwapped(ctx, taken.id).catch(() => undefined));
      return taken;
    },

    async signUpToServe(_, { needId }, ctx) {
      const viewer = await requireViewer(ctx);
      if (!viewer.person) throw forbidden("Your account has no person record yet.");
      return writeAsCaller(() =>
        ctx.pb.collection("serving_requests").create<ServingRequestRecord>({
          need: needId,
          person: viewer.person,
          source: "signup",
          status: "accepted",
        }),
      );
    },
  },
};

/**
 * A team's schedule, live: PocketBase's changes of the team's requests under the caller's rules (a
 * leader reads their team's), each as a small "read it again" message — the matrix is one query, and a
 * burst of answers (auto-fill sent 40 requests) is read once by a client that debounces.
 */
async function subscribeToSchedule(ctx: GatewayContext, teamId: string) {
  const viewer = await requireViewer(ctx);
  const rows = viewer.person ? await myActiveRows(ctx, viewer.person) : [];
  if (!leadsTeam(viewer, rows.find((row) => row.team === teamId) ?? null)) throw forbidden();
  const queue = ctx.realtime.subscribe<ServingRequestRecord>(
    await ctx.realtimeIdentity(),
    "serving_requests",
    "*",
    {
      filter: ctx.pb.filter("position.team = {:teamId}", { teamId }),
    },
  );
  await queue.ready;
  // A resync (a slow reader, a reconnect): the same "read it again", naming nothing in particular.
  return mapEvents(queue, (event) =>
    event.type === "resync"
      ? { teamId, planId: "", requestId: "" }
      : { teamId, planId: event.record.plan, requestId: event.record.id },
  );
}
