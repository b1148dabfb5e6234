import type { PermissionName, UserRecord } from "../../pocketbase/records.ts";

import { permissionsOf } from "../../access/abilities.ts";

export { permissionsOf };

export const hasPermission = (user: UserRecord | null, permission: PermissionName) =>
  !!user && permissionsOf(user).includes(permission);
