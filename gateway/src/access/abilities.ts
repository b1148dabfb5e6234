import type { PermissionName, RoleRecord, UserRecord } from "../pocketbase/records.ts";

/**
 * What a signed-in person may do, named for the screens and actions that need it — the one place the
 * gateway and the web app read permissions from. Each ability is granted by any one of the listed
 * permissions, exactly as the PocketBase API rules in pb_migrations grant it (the rules stay the
 * authority: gateway/test/access-agreement.int.test.ts proves, persona by persona, that what
 * `Viewer.can` says agrees with what PocketBase then allows).
 *
 * Permission names appear only here, in the features' policies beside this file and in pb_migrations
 * (scripts/gateway-rules.test.ts refuses them anywhere else in the gateway): a resolver asks for an
 * ability (`requireAbility`, `can`) or a record's `…Can` from its feature's policy, never for a
 * permission.
 */
export const ABILITIES = {
  /** Write drafts of posts and pages (publishers may too: PocketBase's rules let them). */
  editContent: ["content.edit", "content.publish"],
  /** Publish, schedule, update, unpublish and delete posts and pages (content.publish). */
  publishContent: ["content.publish"],
  /** Open the media library and upload to it. */
  useMediaLibrary: ["content.edit", "media.manage"],
  /** Change and delete anyone's uploads, not only one's own. */
  manageMedia: ["media.manage"],
  /** Sermons, series and speakers, drafts included. */
  manageSermons: ["sermons.manage"],
  /** Events, their dates and exceptions, drafts included; the attendee lists. */
  manageEvents: ["events.manage"],
  /** Create, change, hide and archive any group; its members, requests and address. */
  manageGroups: ["groups.manage"],
  /** Every serving team, its positions and members; plans and who is asked to serve. */
  manageServing: ["serving.manage"],
  /** Child check-in: stations, every family's check-in and checkout, rooms, sessions and reports. */
  operateCheckin: ["checkin.operate"],
  /** Giving totals per fund and day, never a donor (finance only: no other role has it). */
  viewGivingSummary: ["giving.view_summary", "giving.view", "giving.manage"],
  /** Every gift and batch, with donors. */
  viewGiving: ["giving.view", "giving.manage"],
  /** Funds, batches and gifts: enter, close, reopen. */
  manageGiving: ["giving.manage"],
  /** The people and households staff screens and visit requests (read). */
  viewPeople: ["people.view", "people.manage"],
  /** Add, change and approve people and households. */
  managePeople: ["people.manage"],
  /** The moderation queue: approve, answer and remove requests (pastoral ones only with viewPastoralPrayer). */
  moderatePrayer: ["prayer.moderate", "prayer.view_pastoral"],
  /** Requests shared with pastoral staff only. */
  viewPastoralPrayer: ["prayer.view_pastoral"],
  /** The church's settings (name, logo, service times, sign-up). */
  manageSettings: ["settings.manage"],
  /** Accounts and their roles. */
  manageRoles: ["roles.manage"],
  /** API tokens for integrations (issue 16). */
  manageIntegrations: ["api.manage"],
} as const satisfies Record<string, readonly PermissionName[]>;

export type Ability = keyof typeof ABILITIES;
export type Abilities = Record<Ability | "useAdmin", boolean>;

/** Every permission a user's expanded roles grant. */
export function permissionsOf(user: UserRecord): PermissionName[] {
  return [...new Set((user.expand?.roles ?? []).flatMap((role) => role.permissions ?? []))];
}

export function can(user: UserRecord | null, ability: Ability): boolean {
  if (!user) return false;
  const granted = permissionsOf(user);
  return ABILITIES[ability].some((permission) => (granted as readonly string[]).includes(permission));
}

/** All abilities of a user (none for a visitor); `useAdmin`: any staff screen at all. */
export function abilitiesOf(user: UserRecord | null): Abilities {
  const result = Object.fromEntries(
    (Object.keys(ABILITIES) as Ability[]).map((ability) => [ability, can(user, ability)]),
  ) as Abilities;
  result.useAdmin = (Object.keys(ABILITIES) as Ability[]).some((ability) => result[ability]);
  return result;
}

/** Whether a role's permissions grant `ability` (an account manager must keep a role that grants manageRoles). */
export function roleGrants(role: Pick<RoleRecord, "permissions">, ability: Ability): boolean {
  return ABILITIES[ability].some((permission) => (role.permissions ?? []).includes(permission));
}

/**
 * A PocketBase filter for the accounts whose roles grant `ability`, for the system jobs that find whom
 * to tell (staff alerts, a deletion request, a disabled webhook). `:each ?=` as in the API rules: a
 * plain `?=` over a relation → multi-select never matches on 0.40.4.
 */
export function holdersOf(ability: Ability): string {
  return `(${ABILITIES[ability].map((permission) => `roles.permissions:each ?= "${permission}"`).join(" || ")})`;
}

/**
 * The schema's Permission enum (Role.permissions, what integrators and the users screen read) and the
 * stored name behind each value; schema/enum-values.ts maps the enum with it.
 */
export const PERMISSION_VALUES = {
  SETTINGS_MANAGE: "settings.manage",
  ROLES_MANAGE: "roles.manage",
  PEOPLE_VIEW: "people.view",
  PEOPLE_MANAGE: "people.manage",
  CONTENT_EDIT: "content.edit",
  CONTENT_PUBLISH: "content.publish",
  SERMONS_MANAGE: "sermons.manage",
  EVENTS_MANAGE: "events.manage",
  GROUPS_MANAGE: "groups.manage",
  SERVING_MANAGE: "serving.manage",
  CHECKIN_OPERATE: "checkin.operate",
  GIVING_VIEW_SUMMARY: "giving.view_summary",
  GIVING_VIEW: "giving.view",
  GIVING_MANAGE: "giving.manage",
  PRAYER_MODERATE: "prayer.moderate",
  PRAYER_VIEW_PASTORAL: "prayer.view_pastoral",
  MEDIA_MANAGE: "media.manage",
  API_MANAGE: "api.manage",
} as const satisfies Record<string, PermissionName>;
