import type { GatewayContext } from "../../context.ts";
import { forbidden, pbCall } from "../../errors.ts";
import type { UserRecord } from "../../pocketbase/records.ts";
import { deliveryOf, STAFF_TOPICS, type StaffAlertPrefsRecord } from "../../system/staff-alerts.ts";
import type { Resolvers } from "../__generated__/types.ts";
import { requireViewer } from "../../access/guards.ts";
import { handlesStaffTopic } from "../../access/staff.ts";

/**
 * The viewer's own staff alert preferences (system/staff-alerts.ts), read and written with their
 * token: staff_alert_prefs rows are their owner's only (pb_migrations/1732430100_staff_alerts.js).
 */

async function ownRow(ctx: GatewayContext, viewer: UserRecord): Promise<StaffAlertPrefsRecord | undefined> {
  // The rule scopes the list to the caller's own row (no filter: PocketBase slows empty filtered lists).
  const page = await pbCall(() =>
    ctx.pb.collection("staff_alert_prefs").getList<StaffAlertPrefsRecord>(1, 1, { skipTotal: true }),
  );
  return page.items.find((row) => row.user === viewer.id);
}

export const staffAlertsResolvers: Resolvers = {
  Query: {
    async staffAlertPreferences(_, __, ctx) {
      const viewer = await requireViewer(ctx);
      const topics = STAFF_TOPICS.filter((t) => handlesStaffTopic(viewer, t));
      if (!topics.length) return [];
      const row = await ownRow(ctx, viewer);
      return topics.map((topic) => ({ topic, delivery: deliveryOf(row, topic) }));
    },
  },
  Mutation: {
    async setStaffAlertPreference(_, { topic, delivery }, ctx) {
      const viewer = await requireViewer(ctx);
      if (!handlesStaffTopic(viewer, topic)) throw forbidden();
      const row = await ownRow(ctx, viewer);
      if (row)
        await pbCall(() => ctx.pb.collection("staff_alert_prefs").update(row.id, { [topic]: delivery }));
      else
        await pbCall(() =>
          ctx.pb.collection("staff_alert_prefs").create({ user: viewer.id, [topic]: delivery }),
        );
      return { topic, delivery };
    },
  },
};
