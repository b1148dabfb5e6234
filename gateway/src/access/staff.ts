import type { MediaRecord, RoleRecord, UserRecord } from "../pocketbase/records.ts";
import { can, roleGrants, type Ability } from "./abilities.ts";

/*
 * The small staff features' policy. Settings (manageSettings), visit requests (viewPeople reads them,
 * managePeople handles them) and integrations (manageIntegrations) have only their feature-wide
 * abilities in abilities.ts; what accounts, the media library, staff alerts and audio uploads decide
 * about one record or one person is here.
 */

// ---------------------------------------------------------------------------------------------------
// Accounts and roles (pb_migrations/1732000000_foundation.js, users rules in 1732200000_people.js)

/** Account managers list and search every account; everyone else reads only their own. */
export const seesEveryAccount = (user: UserRecord | null) => can(user, "manageRoles");

/** Whether `chosenRoleIds` still grant their holder manageRoles (nobody locks themself out). */
export const keepsAccountManagement = (roles: readonly RoleRecord[], chosenRoleIds: readonly string[]) =>
  roles.some((role) => chosenRoleIds.includes(role.id) && roleGrants(role, "manageRoles"));

/**
 * Whether the caller may delete a login that has roles (a staff account) when anonymising its
 * person: only account managers (users.deleteRule).
 */
export const mayRemoveStaffAccounts = (user: UserRecord | null) => can(user, "manageRoles");

// ---------------------------------------------------------------------------------------------------
// Staff alerts (system/staff-alerts.ts): who handles each topic — the ability that opens its screen.

export const STAFF_ALERT_ABILITIES = {
  visits: "managePeople",
  signups: "managePeople",
  prayer: "moderatePrayer",
} as const satisfies Record<string, Ability>;

export type StaffTopic = keyof typeof STAFF_ALERT_ABILITIES;

/** Who hears of `topic`; a pastoral prayer request, only those who may read it. */
export const staffAlertAbility = (topic: StaffTopic, options: { pastoral?: boolean } = {}): Ability =>
  topic === "prayer" && options.pastoral ? "viewPastoralPrayer" : STAFF_ALERT_ABILITIES[topic];

/** Whether the user handles `topic` (has its preferences, hears of it). */
export const handlesStaffTopic = (user: UserRecord | null, topic: StaffTopic) =>
  can(user, STAFF_ALERT_ABILITIES[topic]);

/** Whether a digest's prayer section lists pastoral requests for this reader. */
export const readsPastoralPrayer = (user: UserRecord | null) => can(user, "viewPastoralPrayer");

// ---------------------------------------------------------------------------------------------------
// Sermon audio uploads (http/audio-uploads.ts: outside GraphQL, so it asks here itself)

/** Who may start a resumable audio upload: sermon managers (PocketBase decides the final write). */
export const mayUploadSermonAudio = (user: UserRecord | null) => can(user, "manageSermons");

// ---------------------------------------------------------------------------------------------------
// The media library (pb_migrations/1732100000_publishing.js)

/** What the caller may do with one media item (`Media.can`). */
export interface MediaCan {
  edit: boolean;
  delete: boolean;
}

/**
 * edit (alt text, caption): whoever may use the library. delete: manageMedia, and writers their own
 * uploads (the gateway still refuses deleting an item content uses, CONFLICT).
 */
export const mediaCan = (user: UserRecord | null, media: Pick<MediaRecord, "uploadedBy">): MediaCan => ({
  edit: can(user, "useMediaLibrary"),
  delete:
    can(user, "manageMedia") ||
    (can(user, "useMediaLibrary") && !!user && !!media.uploadedBy && media.uploadedBy === user.id),
});
