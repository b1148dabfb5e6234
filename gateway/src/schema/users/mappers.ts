import type { PermissionName, UserRecord } from "../../pocketbase/records.ts";
import { permissionsOf } from "../../access/abilities.ts";
import type { Permission } from "../__generated__/types.ts";

/** "settings.manage" ⇄ SETTINGS_MANAGE (GraphQL enum values cannot contain dots). */
export const toPermission = (name: PermissionName) => name.replace(".", "_").toUpperCase() as Permission;

/** PocketBase dates ("2026-11-21 19:47:34.510Z") → ISO-8601. */
export const toIso = (pbDate: string) => pbDate.replace(" ", "T");

export { permissionsOf } from "../../access/abilities.ts";

export const hasPermission = (user: UserRecord | null, permission: PermissionName) =>
  !!user && permissionsOf(user).includes(permission);
