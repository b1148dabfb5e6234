import type { UserRecord } from "../pocketbase/records.ts";
import { can } from "./abilities.ts";

/*
 * Prayer's policy (pb_migrations/1732300000_prayer.js, 1732430000_prayer_wall_privacy.js,
 * 1732520000_group_prayer.js). Feature-wide: moderatePrayer and viewPastoralPrayer in abilities.ts.
 * `mine` below is "the caller asked for this request": their prayer_request_private row, read with
 * their own token (the resolvers load it only when a check needs it).
 */

/** Moderators, and pastoral staff (who may moderate every request, pastoral ones too). */
export const isPrayerModerator = (user: UserRecord | null) => can(user, "moderatePrayer");

/** The requester, or a moderator passing on a praise report the requester shared in person. */
export const mayMarkAnswered = (user: UserRecord | null, mine: boolean) => mine || isPrayerModerator(user);

/**
 * What the caller may do with one prayer request (`PrayerRequest.can`), one answer per field: a
 * screen asks only for what it shows (the live wall asks for `flag`, which needs no read), and
 * `markAnswered` alone needs to know whether the caller asked for it (`mine`, read on demand).
 */
export const prayerRequestCan = {
  /** Approve, reject, edit, answer for and remove it: pastoral requests need viewPastoralPrayer. */
  moderate: (user: UserRecord | null, request: { visibility: string | undefined }) =>
    request.visibility === "pastoral" ? can(user, "viewPastoralPrayer") : isPrayerModerator(user),
  /** Active members, while it is on the wall or its group's wall (`onAWall`: only its members read those). */
  flag: (user: UserRecord | null, onAWall: boolean) =>
    user?.expand?.person?.recordStatus === "active" && onAWall,
  /** The requester or its moderators, while it is approved. */
  markAnswered: (
    user: UserRecord | null,
    request: { visibility: string | undefined; status: string },
    mine: boolean,
  ) => request.status === "approved" && (mine || prayerRequestCan.moderate(user, request)),
};

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
