import type { PermissionName, UserRecord } from "../pocketbase/records.ts";

/**
 * What a signed-in person may do, named for the screens and actions that need it — the one place the
 * gateway and the web app read permissions from. Each ability is granted by any one of the listed
 * permissions, exactly as the PocketBase API rules in pb_migrations grant it (the rules stay the
 * authority: gateway/test/access-agreement.int.test.ts proves, persona by persona, that what
 * `Viewer.can` says agrees with what PocketBase then allows).
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

/** What the viewer may do with one post or page: the posts and pages rules of 1732100000_publishing.js. */
export function contentAbilities(
  user: UserRecord | null,
  status: string | undefined,
): { edit: boolean; publish: boolean; delete: boolean } {
  const publisher = can(user, "publishContent");
  return {
    edit: publisher || (can(user, "editContent") && status === "draft"),
    publish: publisher,
    delete: publisher,
  };
}

/**
 * What an API client may do with one post: with the content.write scope, edit the drafts it wrote
 * (pb_migrations/1732540000_content_write_scope.js); never publish or delete.
 */
export function clientPostAbilities(
  client: { id: string; scopes: readonly string[] },
  post: { status: string; authorClient?: string },
) {
  const edit =
    client.scopes.includes("content.write") &&
    post.status === "draft" &&
    !!post.authorClient &&
    post.authorClient === client.id;
  return { edit, publish: false, delete: false };
}

/** Whether the viewer may moderate one prayer request: pastoral ones need viewPastoralPrayer (1732300000_prayer.js). */
export function mayModeratePrayer(user: UserRecord | null, visibility: string | undefined): boolean {
  return visibility === "pastoral" ? can(user, "viewPastoralPrayer") : can(user, "moderatePrayer");
}
