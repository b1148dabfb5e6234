import type { PermissionName, UserRecord } from "../../pocketbase/records.ts";
import { permissionsOf } from "../../access/abilities.ts";
import type { Permission } from "../__generated__/types.ts";

/** "settings.manage" ⇄ SETTINGS_MANAGE (GraphQL enum values cannot contain dots). */
export const toPermission = (name: PermissionName) => name.replace(".", "_").toUpperCase() as Permission;

export { permissionsOf } from "../../access/abilities.ts";

export const hasPermission = (user: UserRecord | null, permission: PermissionName) =>
  !!user && permissionsOf(user).includes(permission);
