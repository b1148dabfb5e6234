import { randomBytes } from "node:crypto";
import type { GatewayContext } from "../../context.ts";

/**
 * Invalidate every credential of a user (system job): PocketBase signs tokens with the tokenKey, and
 * the personal calendar link is a credential too (calendar apps send no session), so it is cleared:
 * the member makes a new one from /me. Open event streams of the user end at once here; another
 * gateway process ends its own within seconds (realtime/credential-watch.ts sees the new tokenKey).
 */
export async function revokeSessions(ctx: GatewayContext, userId: string): Promise<void> {
  const system = await ctx.system.get();
  await system
    .collection("users")
    .update(userId, { tokenKey: randomBytes(25).toString("hex"), calendarToken: "" });
  ctx.viewerCache.forgetUser(userId);
  await ctx.realtime.endCredential("user", userId);
}
