import type { GatewayContext } from "../../context.ts";
import { forbidden, pbCall } from "../../errors.ts";
import type {
  ServingBlockoutRecord,
  ServingPlanRecord,
  ServingPreferencesRecord,
  ServingRequestRecord,
} from "../../pocketbase/records.ts";
import { blockoutCovers, type Blockout } from "./blockouts.ts";
import { afterDecline } from "./places.ts";
import { requireViewer } from "../../access/guards.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { pocketBaseDay } from "../../pocketbase/dates.ts";
import { Validator } from "../../validation/validate.ts";
import { LIMITS } from "@flock/shared/limits";
import type { Resolvers, ServingBlockoutInput, ServingPreferencesInput } from "../__generated__/types.ts";

/**
 * A volunteer's availability (issue 27): blockouts and preferences, kept by the person themself with
 * their own token (the rules: their own rows; their teams' leaders read them for conflicts and
 * auto-fill). Read as /me/serving shows them.
 */

function validateBlockout(input: ServingBlockoutInput) {
  const v = new Validator();
  const startsOn = v.day("startsOn", input.startsOn, { required: true });
  const endsOn = v.day("endsOn", input.endsOn, { required: true });
  const until = v.day("until", input.until);
  if (startsOn && endsOn && endsOn < startsOn)
    v.add("endsOn", "ends_before_start", "End on or after the first day.");
  if (startsOn && until && until < startsOn)
    v.add("until", "ends_before_start", "End on or after the first day.");
  const reason = v.text("reason", input.reason, { max: LIMITS.servingBlockoutReasonMax });
  v.done();
  return {
    startsOn: pocketBaseDay(startsOn),
    endsOn: pocketBaseDay(endsOn),
    repeat: input.repeat ?? "none",
    until: input.repeat && input.repeat !== "none" ? pocketBaseDay(until) : "",
    reason,
  };
}

function validatePreferences(input: ServingPreferencesInput) {
  const v = new Validator();
  const { maxPerMonth } = input;
  if (maxPerMonth != null && (maxPerMonth < 1 || maxPerMonth > LIMITS.servingMaxPerMonthMax))
    v.add(
      "maxPerMonth",
      "out_of_range",
      `Use 1 to ${LIMITS.servingMaxPerMonthMax} times a month, or leave it empty for no limit.`,
    );
  const times =
    input.preferredTimes == null ? undefined : [...new Set(input.preferredTimes.map((t) => t.trim()))];
  if (times && times.length > LIMITS.servingPreferredTimesMax)
    v.add("preferredTimes", "too_many", `At most ${LIMITS.servingPreferredTimesMax} times.`);
  if (times?.some((t) => !/^([01]\d|2[0-3]):[0-5]\d$/.test(t)))
    v.add("preferredTimes", "invalid_time", "Write times as 09:00 or 18:30.");
  v.done();
  return Object.fromEntries(
    Object.entries({
      // null: no limit (stored as 0, which the rules and auto-fill read as none).
      maxPerMonth: input.maxPerMonth === undefined ? undefined : (maxPerMonth ?? 0),
      preferredTimes: times?.sort(),
      household: input.household ?? undefined,
    }).filter(([, value]) => value !== undefined),
  );
}

async function myPerson(ctx: GatewayContext): Promise<string> {
  const viewer = await requireViewer(ctx);
  if (!viewer.person) throw forbidden("Your account has no person record yet.");
  return viewer.person;
}

async function myPreferences(ctx: GatewayContext, person: string): Promise<ServingPreferencesRecord | null> {
  const rows = await pbCall(() =>
    ctx.pb
      .collection("serving_preferences")
      .getFullList<ServingPreferencesRecord>({ filter: ctx.pb.filter("person = {:person}", { person }) }),
  );
  return rows[0] ?? null;
}

const preferencesOf = (row: ServingPreferencesRecord | null) => ({
  maxPerMonth: row?.maxPerMonth ? row.maxPerMonth : null,
  preferredTimes: row?.preferredTimes ?? [],
  household: (row?.household || "none") as "none" | "together" | "apart",
});

/**
 * A blockout added after scheduling: the person's places on plans it covers (asked or accepted, plans
 * not done, from today) are declined with the blockout's reason, as if they had answered so — with
 * their own token (the rules let them answer their own) — and each decline tells the leaders (and
 * offers the place on where the team does).
 */
async function declineBlockedOut(ctx: GatewayContext, person: string, blockout: ServingBlockoutRecord) {
  const covered: Blockout = {
    startsOn: blockout.startsOn.slice(0, 10),
    endsOn: blockout.endsOn.slice(0, 10),
    repeat: blockout.repeat || "none",
    until: blockout.until ? blockout.until.slice(0, 10) : null,
  };
  const since = `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)} 00:00:00.000Z`;
  const held = await pbCall(() =>
    ctx.pb
      .collection("serving_requests")
      .getFullList<ServingRequestRecord & { expand?: { plan?: ServingPlanRecord } }>({
        filter: ctx.pb.filter(
          "person = {:person} && (status = 'pending' || status = 'accepted') && plan.status != 'done' && plan.date >= {:since} && plan.date >= {:first}",
          { person, since, first: blockout.startsOn },
        ),
        expand: "plan",
      }),
  );
  const declined: string[] = [];
  for (const request of held) {
    const day = request.expand?.plan?.date.slice(0, 10);
    if (!day || !blockoutCovers(covered, day)) continue;
    // One answered meanwhile (or refused for any reason) stays as it is: the blockout is saved anyway.
    const done = await writeAsCaller(() =>
      ctx.pb
        .collection("serving_requests")
        .update(request.id, { status: "declined", declineReason: blockout.reason || "" }),
    ).then(
      () => true,
      () => false,
    );
    if (done) declined.push(request.id);
  }
  if (declined.length)
    ctx.afterResponse(() => {
      for (const id of declined) void afterDecline(ctx, id).catch(() => undefined);
    });
}

export const availabilityResolvers: Resolvers = {
  Query: {
    async myServingAvailability(_, __, ctx) {
      const person = await myPerson(ctx);
      const today = `${new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)} 00:00:00.000Z`;
      const [blockouts, preferences] = await Promise.all([
        pbCall(() =>
          ctx.pb.collection("serving_blockouts").getFullList<ServingBlockoutRecord>({
            filter: ctx.pb.filter("person = {:person} && (endsOn >= {:today} || repeat != 'none')", {
              person,
              today,
            }),
            sort: "startsOn,id",
          }),
        ),
        myPreferences(ctx, person),
      ]);
      return { blockouts, preferences: preferencesOf(preferences) };
    },
  },
  Mutation: {
    async addServingBlockout(_, { input }, ctx) {
      const person = await myPerson(ctx);
      const data = validateBlockout(input);
      const blockout = await writeAsCaller(() =>
        ctx.pb.collection("serving_blockouts").create<ServingBlockoutRecord>({ ...data, person }),
      );
      await declineBlockedOut(ctx, person, blockout);
      return blockout;
    },
    async removeServingBlockout(_, { id }, ctx) {
      await myPerson(ctx);
      await writeAsCaller(() => ctx.pb.collection("serving_blockouts").delete(id));
      return true;
    },
    async setServingPreferences(_, { input }, ctx) {
      const person = await myPerson(ctx);
      const data = validatePreferences(input);
      const existing = await myPreferences(ctx, person);
      const saved = await writeAsCaller(() =>
        existing
          ? ctx.pb.collection("serving_preferences").update<ServingPreferencesRecord>(existing.id, data)
          : ctx.pb.collection("serving_preferences").create<ServingPreferencesRecord>({ ...data, person }),
      );
      return preferencesOf(saved);
    },
  },
  ServingBlockout: {
    startsOn: (b) => b.startsOn.slice(0, 10),
    endsOn: (b) => b.endsOn.slice(0, 10),
    repeat: (b) => b.repeat || "none",
    until: (b) => (b.until ? b.until.slice(0, 10) : null),
  },
};
