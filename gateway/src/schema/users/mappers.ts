import type { PermissionName, UserRecord } from "../../pocketbase/records.ts";

/** Every permission a user's expanded roles grant. */
export function permissionsOf(user: UserRecord): PermissionName[] {
  return [...new Set((user.expand?.roles ?? []).flatMap((role) => role.permissions ?? []))];
}

export const hasPermission = (user: UserRecord | null, permission: PermissionName) =>
  !!user && permissionsOf(user).includes(permission);
