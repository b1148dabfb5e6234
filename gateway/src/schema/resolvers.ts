import type { Resolvers } from "./__generated__/types.ts";
import { authResolvers } from "./auth/resolvers.ts";
import { settingsResolvers } from "./settings/resolvers.ts";
import { usersResolvers } from "./users/resolvers.ts";
import { contentResolvers } from "./content/resolvers.ts";
import { mediaResolvers } from "./media/resolvers.ts";
import { peopleResolvers } from "./people/resolvers.ts";
import { peopleStaffResolvers } from "./people/staff-resolvers.ts";
import { visitsResolvers } from "./visits/resolvers.ts";
import { prayerResolvers } from "./prayer/resolvers.ts";
import { notificationsResolvers } from "./notifications/resolvers.ts";
import { staffAlertsResolvers } from "./staff-alerts/resolvers.ts";
import { sermonsResolvers } from "./sermons/resolvers.ts";
import { ENUM_VALUES } from "./enum-values.ts";
import { eventsResolvers } from "./events/resolvers.ts";
import { eventsCanResolvers } from "./events/can.ts";
import { integrationsResolvers } from "./integrations/resolvers.ts";
import { groupsResolvers } from "./groups/resolvers.ts";
import { servingResolvers } from "./serving/resolvers.ts";
import { availabilityResolvers } from "./serving/availability.ts";
import { placesResolvers } from "./serving/places.ts";
import { clearanceResolvers } from "./serving/clearances.ts";
import { checkinFeatureResolvers } from "./checkin/resolvers.ts";
import { givingResolvers } from "./giving/resolvers.ts";
import { givingStatementResolvers } from "./giving/statement-resolvers.ts";
import { givingReportResolvers } from "./giving/reports.ts";
import { givingImportResolvers } from "./giving/import.ts";
import { givingOnlineResolvers } from "./giving/online-resolvers.ts";
import { givingCampaignResolvers } from "./giving/campaigns.ts";

const modules: Resolvers[] = [
  { Query: { ping: () => true }, Mutation: { noop: () => true } },
  // Each enum's PocketBase values: arguments arrive as them, fields return them (enum-values.ts).
  ENUM_VALUES,
  authResolvers,
  usersResolvers,
  settingsResolvers,
  contentResolvers,
  mediaResolvers,
  peopleResolvers,
  peopleStaffResolvers,
  visitsResolvers,
  prayerResolvers,
  notificationsResolvers,
  staffAlertsResolvers,
  sermonsResolvers,
  eventsResolvers,
  eventsCanResolvers,
  integrationsResolvers,
  groupsResolvers,
  servingResolvers,
  availabilityResolvers,
  placesResolvers,
  clearanceResolvers,
  ...checkinFeatureResolvers,
  givingResolvers,
  givingStatementResolvers,
  givingReportResolvers,
  givingImportResolvers,
  givingOnlineResolvers,
  givingCampaignResolvers,
];

/** Merge the feature modules' resolver maps (each type's fields from every module). */
export const resolvers = modules.reduce<Record<string, Record<string, unknown>>>((merged, module) => {
  for (const [type, fields] of Object.entries(module))
    merged[type] = { ...merged[type], ...(fields as object) };
  return merged;
}, {}) as Resolvers;
