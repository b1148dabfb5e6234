import type { FeatureHttp } from "../http/route-table.ts";
import { contentHttp } from "./content/routes.ts";
import { eventsHttp } from "./events/routes.ts";
import { givingStatementsHttp } from "./giving/statement-routes.ts";
import { groupsHttp } from "./groups/routes.ts";
import { peopleHttp } from "./people/routes.ts";
import { sermonsHttp } from "./sermons/routes.ts";
import { servingHttp } from "./serving/routes.ts";
import { givingOnlineHttp } from "./giving/online-routes.ts";

/**
 * Every feature's HTTP entry (its routes outside GraphQL and its pages' meta), as schema/resolvers.ts
 * merges their resolvers; server.ts composes them into its routing table. A feature serving a route
 * adds its routes.ts here, and http/ stays free of feature code.
 */
export const FEATURE_HTTP: FeatureHttp[] = [
  contentHttp,
  peopleHttp,
  sermonsHttp,
  eventsHttp,
  groupsHttp,
  servingHttp,
  givingStatementsHttp,
  givingOnlineHttp,
];
