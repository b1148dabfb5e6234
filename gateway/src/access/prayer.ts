import type { UserRecord } from "../pocketbase/records.ts";
import { can } from "./abilities.ts";

/*
 * Prayer's policy (pb_migrations/1732300000_prayer.js, 1732430000_prayer_wall_privacy.js,
 * 1732520000_group_prayer.js). Feature-wide: moderatePrayer and viewPastoralPrayer in abilities.ts.
 * `mine` below is "the caller asked for this request": their prayer_request_private row, read with
 * their own token (the resolvers load it only when a check needs it).
 */

/** What the caller may do with one prayer request (`PrayerRequest.can`). */
export interface PrayerRequestCan {
  moderate: boolean;
}

/** Moderators, and pastoral staff (who may moderate every request, pastoral ones too). */
export const isPrayerModerator = (user: UserRecord | null) => can(user, "moderatePrayer");

/** Moderating a pastoral request needs viewPastoralPrayer; any other, moderatePrayer. */
export function prayerRequestCan(
  user: UserRecord | null,
  request: { visibility: string | undefined },
): PrayerRequestCan {
  return {
    moderate: request.visibility === "pastoral" ? can(user, "viewPastoralPrayer") : isPrayerModerator(user),
  };
}

/** The requester, or a moderator passing on a praise report the requester shared in person. */
export const mayMarkAnswered = (user: UserRecord | null, mine: boolean) => mine || isPrayerModerator(user);

/**
 * Whether the caller sees the requester's name as given (else the first name only, on the public
 * wall): active members, moderators and the requester.
 */
export async function seesFullName(user: UserRecord | null, mine: () => Promise<boolean>): Promise<boolean> {
  if (!user) return false;
  if (user.expand?.person?.recordStatus === "active" || isPrayerModerator(user)) return true;
  return mine();
}

/**
 * Whether the caller reads who asked every request (pastoral staff), not only their own: the rules
 * give them every prayer_request_private row, so reads of "mine" must filter for them.
 */
export const readsEveryRequester = (user: UserRecord | null) => can(user, "viewPastoralPrayer");

/** Whether the caller may see who asked this request: pastoral staff, and the requester. */
export const seesRequester = (user: UserRecord, privateRow: { user: string }) =>
  readsEveryRequester(user) || privateRow.user === user.id;
