import type { GatewayContext } from "../context.ts";
import { forbidden, unauthenticated } from "../errors.ts";
import type { UserRecord } from "../pocketbase/records.ts";
import { can, type Ability } from "./abilities.ts";

/*
 * Resolvers' guards. They choose a clear error (UNAUTHENTICATED / FORBIDDEN) before PocketBase is
 * asked; PocketBase's API rules still decide every read and write, as the caller. A feature-wide
 * check names an ability (abilities.ts); a check on one record asks that feature's policy
 * (content.ts, groups.ts, people.ts…) and throws here.
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
