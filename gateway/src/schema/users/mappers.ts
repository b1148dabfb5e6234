import type { PermissionName, UserRecord } from "../../pocketbase/records.ts";
import type { Permission } from "../__generated__/types.ts";

/** "settings.manage" ⇄ SETTINGS_MANAGE (GraphQL enum values cannot contain dots). */
export const toPermission = (name: PermissionName) => name.replace(".", "_").toUpperCase() as Permission;

/** Every permission a user's expanded roles grant. */
export function permissionsOf(user: UserRecord): PermissionName[] {
  return [...new Set((user.expand?.roles ?? []).flatMap((role) => role.permissions ?? []))];
}

export const hasPermission = (user: UserRecord | null, permission: PermissionName) =>
  !!user && permissionsOf(user).includes(permission);
