import type { CheckinRecord, UserRecord } from "../pocketbase/records.ts";
import { can } from "./abilities.ts";

/*
 * Check-in's policy (pb_migrations/1732620000_checkin.js). Feature-wide: operateCheckin in
 * abilities.ts (stations: find families, check anyone in and out, rooms and sessions). A room's
 * volunteers — checked in to serve in that room and session, and not yet out — read its list and
 * page a child's parents; a volunteer checks themself out. PocketBase's rules and hook decide; this
 * only says what the screens may offer.
 */

/** What the caller may do with one check-in (`Checkin.can`). */
export interface CheckinCan {
  checkOut: boolean;
  page: boolean;
}

/** `servesHere`: the caller serves, checked in and not out, in the check-in's room and session. */
export function checkinCan(
  user: UserRecord | null,
  checkin: Pick<CheckinRecord, "person" | "kind" | "checkedOutAt">,
  servesHere: boolean,
): CheckinCan {
  const operator = can(user, "operateCheckin");
  const present = !checkin.checkedOutAt;
  const ownService = !!user?.person && user.person === checkin.person && checkin.kind === "volunteer";
  return {
    checkOut: present && (operator || ownService),
    page: present && checkin.kind === "child" && (operator || servesHere),
  };
}

/** What the caller may do with a room or a session (`CheckinRoom.can`, `CheckinSession.can`): operators keep them. */
export const checkinSetupCan = (user: UserRecord | null) => ({ edit: can(user, "operateCheckin") });

/** Read a room's list: operators, and those serving in it now. */
export const readsRoom = (user: UserRecord | null, servesHere: boolean) =>
  can(user, "operateCheckin") || servesHere;
