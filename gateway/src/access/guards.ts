import type { GatewayContext } from "../context.ts";
import { forbidden, unauthenticated } from "../errors.ts";
import type { PermissionName, UserRecord } from "../pocketbase/records.ts";
import { can, permissionsOf, type Ability } from "./abilities.ts";

/*
 * Resolvers' guards. They choose a clear error (UNAUTHENTICATED / FORBIDDEN) before PocketBase is
 * asked; PocketBase's API rules still decide every read and write, as the caller.
 */

export async function requireViewer(ctx: GatewayContext): Promise<UserRecord> {
  const viewer = await ctx.viewer();
  if (!viewer) throw unauthenticated();
  return viewer;
}

/** A signed-in user who may do `ability` (abilities.ts), else UNAUTHENTICATED / FORBIDDEN. */
export async function requireAbility(ctx: GatewayContext, ability: Ability): Promise<UserRecord> {
  const viewer = await requireViewer(ctx);
  if (!can(viewer, ability)) throw forbidden();
  return viewer;
}

/** A signed-in user with one exact permission (prefer requireAbility: abilities are what the rules grant). */
export async function requirePermission(
  ctx: GatewayContext,
  permission: PermissionName,
): Promise<UserRecord> {
  const viewer = await requireViewer(ctx);
  if (!permissionsOf(viewer).includes(permission)) throw forbidden();
  return viewer;
}
