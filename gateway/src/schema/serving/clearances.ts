import DataLoader from "dataloader";
import type { GatewayContext } from "../../context.ts";
import { pbCall } from "../../errors.ts";
import type { ServingClearanceRecord } from "../../pocketbase/records.ts";
import { requireAbility } from "../../access/guards.ts";
import { can } from "../../access/abilities.ts";
import { writeAsCaller } from "../../pocketbase/write.ts";
import { pocketBaseDay, todayIn } from "../../pocketbase/dates.ts";
import { Validator } from "../../validation/validate.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { anyOf } from "../../pocketbase/filters.ts";

/**
 * Background checks and training (issue 27): recorded by staff (manageServing), read under the rules
 * of 1732600000_serving.js (staff, the person, the leaders of a team the person serves on). A position
 * that requires one is filled only by someone whose clearance has not expired on the plan's day
 * (autofill.ts); `current` says whether it holds today.
 */

/** The clearances of people, one read per request whatever the roster's size (with the caller's token). */
const loaders = new WeakMap<object, DataLoader<string, ServingClearanceRecord[]>>();
function clearancesOf(ctx: GatewayContext): DataLoader<string, ServingClearanceRecord[]> {
  let loader = loaders.get(ctx);
  if (!loader) {
    loader = new DataLoader(
      async (people) => {
        const rows = await pbCall(() =>
          ctx.pb.collection("serving_clearances").getFullList<ServingClearanceRecord>({
            filter: anyOf(ctx.pb, "person", people),
            sort: "-passedOn,id",
          }),
        );
        return people.map((person) => rows.filter((row) => row.person === person));
      },
      { maxBatchSize: 50 },
    );
    loaders.set(ctx, loader);
  }
  return loader;
}

export const clearanceResolvers: Resolvers = {
  Mutation: {
    async addServingClearance(_, { personId, kind, passedOn, expiresOn }, ctx) {
      await requireAbility(ctx, "manageServing");
      const settings = await ctx.publicSettings.get();
      const today = todayIn(settings.timezone || "UTC");
      const v = new Validator();
      const passed = v.day("passedOn", passedOn, { required: true });
      const expires = v.day("expiresOn", expiresOn);
      if (passed && passed > today) v.add("passedOn", "date_in_future", "This date can't be in the future.");
      if (passed && expires && expires < passed)
        v.add("expiresOn", "ends_before_start", "End on or after the first day.");
      v.done();
      loaders.delete(ctx);
      return writeAsCaller(() =>
        ctx.pb.collection("serving_clearances").create<ServingClearanceRecord>({
          person: personId,
          kind,
          passedOn: pocketBaseDay(passed),
          expiresOn: pocketBaseDay(expires),
        }),
      );
    },
    async removeServingClearance(_, { id }, ctx) {
      await requireAbility(ctx, "manageServing");
      await writeAsCaller(() => ctx.pb.collection("serving_clearances").delete(id));
      loaders.delete(ctx);
      return true;
    },
  },
  ServingMember: {
    clearances: (row, _, ctx) => clearancesOf(ctx).load(row.person),
  },
  ServingClearance: {
    personId: (row) => row.person,
    passedOn: (row) => row.passedOn.slice(0, 10),
    expiresOn: (row) => (row.expiresOn ? row.expiresOn.slice(0, 10) : null),
    current: async (row, _, ctx) => {
      if (!row.expiresOn) return true;
      const settings = await ctx.publicSettings.get();
      return row.expiresOn.slice(0, 10) >= todayIn(settings.timezone || "UTC");
    },
    can: async (_, __, ctx) => ({ remove: can(await ctx.viewer(), "manageServing") }),
  },
};
