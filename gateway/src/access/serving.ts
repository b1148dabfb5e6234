import type { ServingMemberRecord, ServingRequestRecord, UserRecord } from "../pocketbase/records.ts";
import { can } from "./abilities.ts";

/*
 * Serving's policy (pb_migrations/1732600000_serving.js). Feature-wide: manageServing in abilities.ts
 * (every team, plans, anyone's requests). Everything else depends on the caller's own roster row on
 * the team in question (`membership`: their active serving_members row, null without one): a team's
 * leaders keep its positions and roster and schedule its places; a leader of team A has no rights in
 * team B. A volunteer answers their own requests.
 */

type Membership = Pick<ServingMemberRecord, "role" | "status"> | null;

/** What the caller may do with one team (`ServingTeam.can`). */
export interface ServingTeamCan {
  edit: boolean;
  archive: boolean;
  manageMembers: boolean;
}

/** What the caller may do with one request to serve (`ServingRequest.can`). */
export interface ServingRequestCan {
  answer: boolean;
  manage: boolean;
  swap: boolean;
}

const leads = (membership: Membership) => membership?.status === "active" && membership.role === "leader";

/** Keep the team's positions and roster and schedule its places: its leaders and manageServing. */
export const leadsTeam = (user: UserRecord | null, membership: Membership): boolean =>
  can(user, "manageServing") || leads(membership);

export function servingTeamCan(user: UserRecord | null, membership: Membership): ServingTeamCan {
  return {
    edit: leadsTeam(user, membership),
    archive: can(user, "manageServing"),
    manageMembers: leadsTeam(user, membership),
  };
}

/**
 * answer: the person asked, while the plan is open (`planOpen`). swap (ask for someone to take the
 * place): the same person once they accepted (pb_migrations/1732610000_serving_swaps.js). manage
 * (withdraw, remove): the position's team leaders (`membership` on that team) and manageServing.
 */
export function servingRequestCan(
  user: UserRecord | null,
  request: Pick<ServingRequestRecord, "person" | "status">,
  membership: Membership,
  planOpen: boolean,
): ServingRequestCan {
  const own = !!user?.person && user.person === request.person && planOpen;
  return {
    answer: own && request.status !== "replaced" && request.status !== "cancelled",
    manage: leadsTeam(user, membership),
    swap: own && request.status === "accepted",
  };
}
