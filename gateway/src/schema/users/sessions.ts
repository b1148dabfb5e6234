import { randomBytes } from "node:crypto";
import type { GatewayContext } from "../../context.ts";

/** Invalidate every token of a user (system job): PocketBase signs tokens with the tokenKey. */
export async function revokeSessions(ctx: GatewayContext, userId: string): Promise<void> {
  const system = await ctx.system.get();
  await system.collection("users").update(userId, { tokenKey: randomBytes(25).toString("hex") });
  ctx.viewerCache.forgetUser(userId);
}
