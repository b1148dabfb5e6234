import { timingSafeEqual } from "node:crypto";
import DataLoader from "dataloader";
import type { GatewayContext } from "../../context.ts";
import { badUserInput, forbidden, notFound, pbCall } from "../../errors.ts";
import type {
  ServingMemberRecord,
  ServingNeedRecord,
  ServingPlanRecord,
  StoredPlanTime,
  ServingPositionRecord,
  ServingRequestRecord,
  ServingTeamRecord,
} from "../../pocketbase/records.ts";
import { requireAbility, requireViewer } from "../../access/guards.ts";
import { can } from "../../access/abilities.ts";
import { leadsTeam, servingRequestCan, servingTeamCan } from "../../access/serving.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import {
  fromPocketBaseDate,
  fromPocketBaseDateOrNull,
  pocketBaseDay,
  toPocketBaseDate,
} from "../../pocketbase/dates.ts";
import { renderBody } from "../../markdown/body.ts";
import { Validator } from "../../validation/validate.ts";
import { LIMITS } from "@flock/shared/limits";
import { noticeAsked } from "./notices.ts";
import { afterDecline } from "./places.ts";
import { anyOf } from "../../pocketbase/filters.ts";
import { proposeForTeam } from "./proposals.ts";
import { DEFAULT_WINDOW_WEEKS } from "./autofill.ts";
import { displayName } from "../people/mappers.ts";
import { requireOccurrence } from "../events/reads.ts";
import type {
  Resolvers,
  ServingPlanInput,
  ServingPositionInput,
  ServingTeamInput,
} from "../__generated__/types.ts";

/**
 * Serving (issue 27): teams, positions, rosters, plans, needs and requests to serve. Every read and
 * write runs with the caller's token: PocketBase's rules (pb_migrations/1732600000_serving.js) decide
 * who sees and changes what, and its hook (pb_hooks/lib/serving.js) who may be asked, the places left
 * and single answers. The policy (access/serving.ts) only says what the screens may offer. A mail
 * link's answer is the one write made without a signed-in caller: PocketBase checks its secret.
 */

/** At most this many people asked at once (one leader's click). */
const ASK_MAX = 20;
/** A plan's times: at most this many, each within this long. */
const DAY_MS = 24 * 60 * 60 * 1000;

const HOLDS_PLACE = new Set(["pending", "accepted"]);

/**
 * A request as GraphQL returns it. `readWithToken`: read by the system for the holder of its mail
 * link (signed out), so its plan and position are read the same way (the holder may not read them).
 */
export type ServingRequestModel = ServingRequestRecord & { readWithToken?: boolean };

/** The request by id through the system client, for the holder of its mail link. */
async function readForTokenHolder(ctx: GatewayContext, id: string): Promise<ServingRequestModel | null> {
  const system = await ctx.system.get();
  const request = await system
    .collection("serving_requests")
    .getOne<ServingRequestRecord>(id)
    .catch(() => null);
  return request ? { ...request, readWithToken: true } : null;
}

/** The mail link's secret compared in constant time (its length is not secret: always 43). */
function sameSecret(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** A plan or position of a request: with the caller's token, or the system's for a mail link's holder. */
async function readOfRequest<T>(
  ctx: GatewayContext,
  request: ServingRequestModel,
  collection: "serving_plans" | "serving_positions",
  id: string,
  viaCaller: () => Promise<T | null>,
): Promise<T | null> {
  if (!request.readWithToken) return viaCaller();
  const system = await ctx.system.get();
  return system
    .collection(collection)
    .getOne<T & Record<string, unknown>>(id)
    .catch(() => null);
}

// ---------------------------------------------------------------------------------------------------
// Per-request loaders: the caller's own roster rows (what they lead), positions, and each plan's needs
// and requests, one PocketBase call per kind whatever the query's shape.

interface ServingLoaders {
  mine: Promise<ServingMemberRecord[]> | null;
  position: DataLoader<string, ServingPositionRecord | null>;
  positionsOfTeam: DataLoader<string, ServingPositionRecord[]>;
  membersOfTeam: DataLoader<string, ServingMemberRecord[]>;
  needsOfPlan: DataLoader<string, ServingNeedRecord[]>;
  requestsOfPlan: DataLoader<string, ServingRequestRecord[]>;
  plan: DataLoader<string, ServingPlanRecord | null>;
}
const loaders = new WeakMap<object, ServingLoaders>();

function byKey<T>(ids: readonly string[], rows: T[], key: (row: T) => string): T[][] {
  return ids.map((id) => rows.filter((row) => key(row) === id));
}

function loadersOf(ctx: GatewayContext): ServingLoaders {
  let l = loaders.get(ctx);
  if (!l) {
    const list = <T>(collection: string, field: string, sort: string) =>
      new DataLoader<string, T[]>(
        async (ids) => {
          const rows = await pbCall(() =>
            ctx.pb.collection(collection).getFullList<T>({ filter: anyOf(ctx.pb, field, ids), sort }),
          );
          return byKey(ids, rows, (row) => (row as Record<string, string>)[field]!);
        },
        { maxBatchSize: 50 },
      );
    const one = <T extends { id: string }>(collection: string) =>
      new DataLoader<string, T | null>(
        async (ids) => {
          const rows = await pbCall(() =>
            ctx.pb.collection(collection).getFullList<T>({ filter: anyOf(ctx.pb, "id", ids) }),
          );
          return ids.map((id) => rows.find((row) => row.id === id) ?? null);
        },
        { maxBatchSize: 50 },
      );
    l = {
      mine: null,
      position: one<ServingPositionRecord>("serving_positions"),
      positionsOfTeam: list<ServingPositionRecord>("serving_positions", "team", "sort,name"),
      membersOfTeam: list<ServingMemberRecord>("serving_members", "team", "role,name"),
      needsOfPlan: list<ServingNeedRecord>("serving_needs", "plan", "created"),
      requestsOfPlan: list<ServingRequestRecord>("serving_requests", "plan", "created"),
      plan: one<ServingPlanRecord>("serving_plans"),
    };
    loaders.set(ctx, l);
  }
  return l;
}

/** The caller's own active roster rows (the rules let everyone read their own), once per request. */
function myRows(ctx: GatewayContext): Promise<ServingMemberRecord[]> {
  const l = loadersOf(ctx);
  l.mine ??= (async () => {
    const viewer = await ctx.viewer();
    if (!viewer?.person) return [];
    return pbCall(() =>
      ctx.pb.collection("serving_members").getFullList<ServingMemberRecord>({
        filter: ctx.pb.filter("person = {:person} && status = 'active'", { person: viewer.person }),
      }),
    );
  })();
  return l.mine;
}

const forget = (ctx: GatewayContext) => loaders.delete(ctx);

async function membershipIn(ctx: GatewayContext, teamId: string): Promise<ServingMemberRecord | null> {
  return (await myRows(ctx)).find((row) => row.team === teamId) ?? null;
}

/** Leaders' and staff's work on a team known by id; FORBIDDEN for everyone else (before PocketBase). */
async function requireLeads(ctx: GatewayContext, teamId: string): Promise<void> {
  const viewer = await requireViewer(ctx);
  if (!leadsTeam(viewer, await membershipIn(ctx, teamId))) throw forbidden();
}

async function positionOf(ctx: GatewayContext, id: string): Promise<ServingPositionRecord> {
  const position = await loadersOf(ctx).position.load(id);
  if (!position) throw notFound();
  return position;
}

async function needOf(ctx: GatewayContext, id: string): Promise<ServingNeedRecord> {
  return pbCall(() => ctx.pb.collection("serving_needs").getOne<ServingNeedRecord>(id));
}

// ---------------------------------------------------------------------------------------------------
// Validation (shared/src/limits.ts; PocketBase checks the same limits again).

function validateTeam(input: ServingTeamInput) {
  const v = new Validator();
  const name = v.text("name", input.name, { required: true, max: LIMITS.servingTeamNameMax });
  const description =
    input.description == null
      ? undefined
      : v.text("description", input.description, { max: LIMITS.servingTeamDescriptionMax });
  const reminderDays = input.reminderDays ?? undefined;
  if (reminderDays !== undefined && (reminderDays < 0 || reminderDays > LIMITS.servingReminderDaysMax))
    v.add("reminderDays", "out_of_range", `Use 0 to ${LIMITS.servingReminderDaysMax} days.`);
  v.done();
  return Object.fromEntries(
    Object.entries({
      name,
      description,
      reminderDays,
      allowSignup: input.allowSignup ?? undefined,
      showNames: input.showNames ?? undefined,
      autoOffer: input.autoOffer ?? undefined,
    }).filter(([, value]) => value !== undefined),
  );
}

function validatePosition(input: ServingPositionInput) {
  const v = new Validator();
  const name = v.text("name", input.name, { required: true, max: LIMITS.servingPositionNameMax });
  const description =
    input.description == null
      ? undefined
      : v.text("description", input.description, { max: LIMITS.servingPositionDescriptionMax });
  v.done();
  return Object.fromEntries(
    Object.entries({
      name,
      description,
      requiresBackgroundCheck: input.requiresBackgroundCheck ?? undefined,
      requiresTraining: input.requiresTraining ?? undefined,
    }).filter(([, value]) => value !== undefined),
  );
}

/**
 * The event occurrence a plan serves: both its event and original start, or an empty eventId to unlink
 * (omitted: kept). The caller must see the event and the event take place then.
 */
async function occurrenceLink(ctx: GatewayContext, input: ServingPlanInput) {
  if (input.eventId == null) return {};
  if (input.eventId === "") return { event: "", occurrenceStart: "" };
  if (!input.occurrenceStart)
    throw badUserInput({ occurrenceStart: { code: "required", message: "Choose the date of the event." } });
  try {
    const occurrence = await requireOccurrence(ctx, input.eventId, input.occurrenceStart);
    return {
      event: input.eventId,
      occurrenceStart: toPocketBaseDate(occurrence.originalStart.toInstant().toString()),
    };
  } catch {
    throw badUserInput({
      eventId: { code: "no_such_occurrence", message: "Choose an event that takes place then." },
    });
  }
}

function validatePlan(input: ServingPlanInput) {
  const v = new Validator();
  const title = v.text("title", input.title, { required: true, max: LIMITS.servingPlanTitleMax });
  const date = pocketBaseDay(v.day("date", input.date, { required: true }));
  const notes = input.notes ?? undefined;
  if (notes !== undefined && notes.length > LIMITS.servingPlanNotesMax)
    v.add("notes", "too_long", `Use at most ${LIMITS.servingPlanNotesMax} characters.`);
  let times: StoredPlanTime[] | undefined;
  if (input.times != null) {
    if (input.times.length > LIMITS.servingPlanTimesMax)
      v.add("times", "too_many", `At most ${LIMITS.servingPlanTimesMax} times.`);
    const day = date ? Date.parse(date.replace(" ", "T")) : NaN;
    times = input.times.map((time, i) => {
      const label = v.text(`times.${i}.label`, time.label, { max: LIMITS.servingPlanTimeLabelMax });
      const startsAt = new Date(time.startsAt);
      const endsAt = new Date(time.endsAt);
      if (Number.isNaN(startsAt.getTime()) || Number.isNaN(endsAt.getTime()))
        v.add(`times.${i}`, "invalid_date", "Use valid times.");
      else if (endsAt <= startsAt) v.add(`times.${i}`, "ends_before_start", "A time ends after it starts.");
      else if (endsAt.getTime() - startsAt.getTime() > DAY_MS)
        v.add(`times.${i}`, "too_long", "A time lasts at most 24 hours.");
      // On the plan's day or the next (a late service), whatever the church's zone.
      else if (
        !Number.isNaN(day) &&
        (startsAt.getTime() < day - DAY_MS || startsAt.getTime() > day + 2 * DAY_MS)
      )
        v.add(`times.${i}`, "not_on_plan_day", "A time is on the plan's day.");
      return { kind: time.kind, label, startsAt: startsAt.toISOString(), endsAt: endsAt.toISOString() };
    });
    times.sort((a, b) => a.startsAt.localeCompare(b.startsAt));
  }
  v.done();
  return Object.fromEntries(
    Object.entries({ title, date, notes, times }).filter(([, value]) => value !== undefined),
  );
}

/** Today in UTC as YYYY-MM-DD (plans are day-precise; a day's margin is added where it matters). */
const today = () => new Date().toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------------

export const servingResolvers: Resolvers = {
  Query: {
    servingTeams: (_, __, ctx) =>
      pbCall(() => ctx.pb.collection("serving_teams").getFullList<ServingTeamRecord>({ sort: "name" })),
    async servingTeam(_, { id }, ctx) {
      try {
        return await pbCall(() => ctx.pb.collection("serving_teams").getOne<ServingTeamRecord>(id));
      } catch {
        return null;
      }
    },
    async servingPlans(_, { from, to }, ctx) {
      const v = new Validator();
      const first = pocketBaseDay(from ? v.day("from", from) : today());
      const last = pocketBaseDay(
        to ? v.day("to", to) : new Date(Date.now() + 12 * 7 * DAY_MS).toISOString().slice(0, 10),
      );
      v.done();
      return pbCall(() =>
        ctx.pb.collection("serving_plans").getFullList<ServingPlanRecord>({
          filter: ctx.pb.filter("date >= {:first} && date <= {:last}", { first, last }),
          sort: "date,id",
        }),
      );
    },
    servingPlan: (_, { id }, ctx) => loadersOf(ctx).plan.load(id),
    async servingAutofill(_, { teamId, from, to }, ctx) {
      await requireLeads(ctx, teamId);
      const v = new Validator();
      const first = v.day("from", from, { required: true });
      const last = v.day("to", to, { required: true });
      if (first && last && (last < first || Date.parse(last) - Date.parse(first) > 26 * 7 * DAY_MS))
        v.add("to", "out_of_range", "Choose an end after the start, at most 26 weeks later.");
      v.done();
      const result = await proposeForTeam(ctx, teamId, first, last);
      const needOf = (planId: string, positionId: string) =>
        result.needs.find((n) => n.plan === planId && n.position === positionId)!.id;
      return {
        proposals: result.proposals.map((p) => ({
          needId: needOf(p.planId, p.positionId),
          planId: p.planId,
          positionId: p.positionId,
          personId: p.personId,
          name: result.names.get(p.personId) ?? "",
          servedInWindow: p.reason.servedInWindow,
          windowWeeks: p.reason.windowWeeks ?? DEFAULT_WINDOW_WEEKS,
          prefersTime: p.reason.prefersTime,
          withHousehold: p.reason.withHousehold,
        })),
        unfilled: result.unfilled,
      };
    },
    async myServingRequests(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      if (!viewer.person) return [];
      // From yesterday: a plan's day is its wall-clock date, and the church may be behind UTC.
      const since = `${new Date(Date.now() - DAY_MS).toISOString().slice(0, 10)} 00:00:00.000Z`;
      return pbCall(() =>
        ctx.pb.collection("serving_requests").getFullList<ServingRequestRecord>({
          filter: ctx.pb.filter("person = {:person} && plan.date >= {:since} && status != 'cancelled'", {
            person: viewer.person,
            since,
          }),
          sort: "plan.date,created",
        }),
      );
    },
    async myServingHistory(_, { first }, ctx) {
      const viewer = await requireViewer(ctx);
      if (!viewer.person) return [];
      const count = Math.min(Math.max(first ?? 20, 1), 100);
      const before = `${today()} 00:00:00.000Z`;
      const rows = await pbCall(() =>
        ctx.pb.collection("serving_requests").getList<ServingRequestRecord>(1, count, {
          filter: ctx.pb.filter("person = {:person} && plan.date < {:before} && status = 'accepted'", {
            person: viewer.person,
            before,
          }),
          sort: "-plan.date,-created",
          skipTotal: true,
        }),
      );
      return rows.items;
    },
    async servingRequestByToken(_, { id, token }, ctx) {
      // No guest may read a request (its rules): the system reads the row and compares the secret, and
      // nothing is returned once it is answered (the hook spends the secret).
      const request = await readForTokenHolder(ctx, id);
      if (!request?.token || !sameSecret(request.token, token)) return null;
      return request;
    },
  },

  Mutation: {
    async createServingTeam(_, { input }, ctx) {
      await requireAbility(ctx, "manageServing");
      const data = validateTeam(input);
      return writeAsCaller(() =>
        ctx.pb
          .collection("serving_teams")
          .create<ServingTeamRecord>({ reminderDays: 2, showNames: true, ...data, status: "active" }),
      );
    },
    async updateServingTeam(_, { id, input }, ctx) {
      await requireLeads(ctx, id);
      const data = validateTeam(input);
      return writeAsCaller(() => ctx.pb.collection("serving_teams").update<ServingTeamRecord>(id, data));
    },
    async setServingTeamStatus(_, { id, status }, ctx) {
      await requireAbility(ctx, "manageServing");
      return writeAsCaller(() =>
        ctx.pb.collection("serving_teams").update<ServingTeamRecord>(id, { status }),
      );
    },
    async createServingPosition(_, { teamId, input }, ctx) {
      await requireLeads(ctx, teamId);
      const data = validatePosition(input);
      const count = (await loadersOf(ctx).positionsOfTeam.load(teamId)).length;
      return writeAsCaller(() =>
        ctx.pb
          .collection("serving_positions")
          .create<ServingPositionRecord>({ ...data, team: teamId, sort: Math.min(count, 1000) }),
      );
    },
    async updateServingPosition(_, { id, input }, ctx) {
      await requireViewer(ctx); // a visitor: UNAUTHENTICATED before any read
      const position = await positionOf(ctx, id);
      await requireLeads(ctx, position.team);
      const data = validatePosition(input);
      return writeAsCaller(() =>
        ctx.pb.collection("serving_positions").update<ServingPositionRecord>(id, data),
      );
    },
    async deleteServingPosition(_, { id }, ctx) {
      await requireViewer(ctx); // a visitor: UNAUTHENTICATED before any read
      const position = await positionOf(ctx, id);
      await requireLeads(ctx, position.team);
      await writeAsCaller(() => ctx.pb.collection("serving_positions").delete(id));
      return true;
    },
    async addServingMember(_, { teamId, personId, role, positionIds }, ctx) {
      await requireLeads(ctx, teamId);
      const positions = await teamPositions(ctx, teamId, positionIds ?? []);
      const row = await writeAsCaller(() =>
        ctx.pb.collection("serving_members").create<ServingMemberRecord>({
          team: teamId,
          person: personId,
          role: role ?? "member",
          positions,
          status: "active",
        }),
      );
      forget(ctx);
      return row;
    },
    async updateServingMember(_, { id, role, positionIds, active }, ctx) {
      const row = await pbCall(() => ctx.pb.collection("serving_members").getOne<ServingMemberRecord>(id));
      await requireLeads(ctx, row.team);
      const positions = positionIds == null ? undefined : await teamPositions(ctx, row.team, positionIds);
      const updated = await writeAsCaller(() =>
        ctx.pb.collection("serving_members").update<ServingMemberRecord>(
          id,
          Object.fromEntries(
            Object.entries({
              role: role ?? undefined,
              positions,
              status: active == null ? undefined : active ? "active" : "inactive",
            }).filter(([, value]) => value !== undefined),
          ),
        ),
      );
      forget(ctx);
      return updated;
    },
    async removeServingMember(_, { id }, ctx) {
      await requireViewer(ctx);
      await writeAsCaller(() => ctx.pb.collection("serving_members").delete(id));
      forget(ctx);
      return true;
    },

    async createServingPlan(_, { input }, ctx) {
      await requireAbility(ctx, "manageServing");
      const data = { ...validatePlan(input), ...(await occurrenceLink(ctx, input)) };
      return writeAsCaller(() =>
        ctx.pb
          .collection("serving_plans")
          .create<ServingPlanRecord>({ times: [], notes: "", ...data, status: "draft" }),
      );
    },
    async updateServingPlan(_, { id, input }, ctx) {
      await requireAbility(ctx, "manageServing");
      const data = { ...validatePlan(input), ...(await occurrenceLink(ctx, input)) };
      return writeAsCaller(() => ctx.pb.collection("serving_plans").update<ServingPlanRecord>(id, data));
    },
    async setServingPlanStatus(_, { id, status }, ctx) {
      await requireAbility(ctx, "manageServing");
      return writeAsCaller(() =>
        ctx.pb.collection("serving_plans").update<ServingPlanRecord>(id, { status }),
      );
    },
    async deleteServingPlan(_, { id }, ctx) {
      await requireAbility(ctx, "manageServing");
      await writeAsCaller(() => ctx.pb.collection("serving_plans").delete(id));
      return true;
    },

    async setServingNeed(_, { planId, positionId, count }, ctx) {
      await requireViewer(ctx); // a visitor: UNAUTHENTICATED before any read
      const position = await positionOf(ctx, positionId);
      await requireLeads(ctx, position.team);
      if (!Number.isInteger(count) || count < 1 || count > LIMITS.servingNeedCountMax)
        throw badUserInput({
          count: { code: "out_of_range", message: `Ask for 1 to ${LIMITS.servingNeedCountMax} people.` },
        });
      const existing = await pbCall(() =>
        ctx.pb.collection("serving_needs").getFullList<ServingNeedRecord>({
          filter: ctx.pb.filter("plan = {:planId} && position = {:positionId}", { planId, positionId }),
        }),
      );
      return writeAsCaller(() =>
        existing[0]
          ? ctx.pb.collection("serving_needs").update<ServingNeedRecord>(existing[0].id, { count })
          : ctx.pb
              .collection("serving_needs")
              .create<ServingNeedRecord>({ plan: planId, position: positionId, count }),
      );
    },
    async removeServingNeed(_, { id }, ctx) {
      await requireViewer(ctx); // a visitor: UNAUTHENTICATED before any read
      const need = await needOf(ctx, id);
      await requireLeads(ctx, (await positionOf(ctx, need.position)).team);
      await writeAsCaller(() => ctx.pb.collection("serving_needs").delete(id));
      return true;
    },

    async askToServe(_, { needId, personIds }, ctx) {
      const viewer = await requireViewer(ctx);
      const need = await needOf(ctx, needId);
      await requireLeads(ctx, (await positionOf(ctx, need.position)).team);
      if (!personIds.length || personIds.length > ASK_MAX)
        throw badUserInput({
          personIds: { code: "out_of_range", message: `Ask 1 to ${ASK_MAX} people at once.` },
        });
      // One after another: each takes a place, and the hook refuses once none is left.
      const asked: ServingRequestRecord[] = [];
      for (const person of [...new Set(personIds)])
        asked.push(
          await writeAsCaller(() =>
            ctx.pb.collection("serving_requests").create<ServingRequestRecord>({
              need: needId,
              person,
              askedBy: viewer.person || "",
              source: "manual",
            }),
          ),
        );
      // Told after the response (system jobs; a failure to notify never fails the ask).
      const leader = viewer.expand?.person ? displayName(viewer.expand.person) : viewer.name;
      ctx.afterResponse(() => {
        for (const request of asked) void noticeAsked(ctx, request.id, leader).catch(() => undefined);
      });
      return asked;
    },
    async answerServingRequest(_, { id, accept, reason, token }, ctx) {
      const v = new Validator();
      const declineReason = accept ? "" : v.text("reason", reason, { max: LIMITS.servingDeclineReasonMax });
      v.done();
      const data = { status: accept ? "accepted" : "declined", declineReason };
      let answered: ServingRequestModel | null;
      if (token) {
        // Without signing in: PocketBase's update rule checks the secret; the hook spends it.
        await pbCall(() => ctx.pb.collection("serving_requests").update(id, data, { query: { token } }));
        answered = await readForTokenHolder(ctx, id);
        if (!answered) throw notFound();
      } else {
        await requireViewer(ctx);
        answered = await writeAsCaller(() =>
          ctx.pb.collection("serving_requests").update<ServingRequestRecord>(id, data),
        );
      }
      if (!accept) ctx.afterResponse(() => void afterDecline(ctx, id).catch(() => undefined));
      return answered;
    },
    async removeServingRequest(_, { id }, ctx) {
      await requireViewer(ctx);
      await writeAsCaller(() => ctx.pb.collection("serving_requests").delete(id));
      return true;
    },
  },

  ServingTeam: {
    // Primes the position loader: the schedule asks for the teams' positions and again for each need's.
    positions: async (team, _, ctx) => {
      const l = loadersOf(ctx);
      const positions = await l.positionsOfTeam.load(team.id);
      for (const position of positions) l.position.prime(position.id, position);
      return positions;
    },
    members: (team, _, ctx) => loadersOf(ctx).membersOfTeam.load(team.id),
    can: async (team, _, ctx) => servingTeamCan(await ctx.viewer(), await membershipIn(ctx, team.id)),
  },

  ServingPosition: {
    teamId: (position) => position.team,
  },

  ServingMember: {
    personId: (row) => row.person,
    positionIds: (row) => row.positions ?? [],
    active: (row) => row.status === "active",
    isMe: async (row, _, ctx) => (await ctx.viewer())?.person === row.person,
  },

  ServingPlan: {
    date: (plan) => plan.date.slice(0, 10),
    times: (plan) => plan.times ?? [],
    notesHtml: (plan, _, ctx) => renderBody(ctx, `serving_plans:${plan.id}:${plan.updated}`, plan.notes),
    needs: (plan, _, ctx) => loadersOf(ctx).needsOfPlan.load(plan.id),
    // Read as the caller: an event they may not see (a draft, members-only for a token) is null.
    occurrence: (plan, _, ctx) =>
      plan.event && plan.occurrenceStart
        ? requireOccurrence(ctx, plan.event, fromPocketBaseDate(plan.occurrenceStart)).catch(() => null)
        : null,
    can: async (_, __, ctx) => ({ edit: can(await ctx.viewer(), "manageServing") }),
  },

  ServingNeed: {
    planId: (need) => need.plan,
    position: (need, _, ctx) => positionOf(ctx, need.position),
    accepted: async (need, _, ctx) =>
      (await requestsOf(ctx, need)).filter((r) => r.status === "accepted").length,
    pending: async (need, _, ctx) =>
      (await requestsOf(ctx, need)).filter((r) => r.status === "pending").length,
    requests: (need, _, ctx) => requestsOf(ctx, need),
    can: async (need, _, ctx) => {
      const position = await positionOf(ctx, need.position);
      return { schedule: leadsTeam(await ctx.viewer(), await membershipIn(ctx, position.team)) };
    },
  },

  ServingRequest: {
    needId: (request) => request.need,
    plan: (request, _, ctx) =>
      readOfRequest(ctx, request, "serving_plans", request.plan, () =>
        loadersOf(ctx).plan.load(request.plan),
      ),
    position: (request, _, ctx) =>
      readOfRequest(ctx, request, "serving_positions", request.position, () =>
        loadersOf(ctx).position.load(request.position),
      ),
    personId: (request) => request.person,
    source: (request) => request.source || "manual",
    swapOpen: (request) => !!request.swapOpen,
    answeredAt: (request) => fromPocketBaseDateOrNull(request.answeredAt),
    isMe: async (request, _, ctx) => (await ctx.viewer())?.person === request.person,
    can: async (request, _, ctx) => {
      const position = await loadersOf(ctx).position.load(request.position);
      const plan = await loadersOf(ctx).plan.load(request.plan);
      return servingRequestCan(
        await ctx.viewer(),
        request,
        position ? await membershipIn(ctx, position.team) : null,
        plan?.status !== "done",
      );
    },
  },

  ServingPlanTime: {
    startsAt: (time) => fromPocketBaseDate(time.startsAt),
    endsAt: (time) => fromPocketBaseDate(time.endsAt),
  },
};

/** A need's requests the caller may see (one read per plan), places-holding first. */
async function requestsOf(ctx: GatewayContext, need: ServingNeedRecord): Promise<ServingRequestRecord[]> {
  const rows = (await loadersOf(ctx).requestsOfPlan.load(need.plan)).filter((r) => r.need === need.id);
  return [...rows].sort((a, b) => Number(HOLDS_PLACE.has(b.status)) - Number(HOLDS_PLACE.has(a.status)));
}

/** The given positions, checked to be the team's own (a roster row names only its team's positions). */
async function teamPositions(ctx: GatewayContext, teamId: string, ids: readonly string[]): Promise<string[]> {
  const own = new Set((await loadersOf(ctx).positionsOfTeam.load(teamId)).map((p) => p.id));
  const unique = [...new Set(ids)];
  if (unique.length > LIMITS.servingPositionsPerMemberMax || unique.some((id) => !own.has(id)))
    throw badUserInput({
      positionIds: { code: "not_on_team", message: "Choose positions of this team." },
    });
  return unique;
}
