import { createHash, randomBytes } from "node:crypto";
import type { GatewayContext } from "../../context.ts";
import { readCookie } from "../../session/cookie.ts";

/**
 * A visitor's device for "I prayed" (once per device per day, PRODUCT.md §9): a random secret in an
 * httpOnly cookie; PocketBase stores only its SHA-256 (`prayer_marks.deviceKey`), so a stored key
 * cannot be turned back into a cookie that claims someone else's marks.
 */
export const DEVICE_COOKIE = "flock_device";
const DEVICE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;
/** 32 random bytes in base64url; shorter values are not ours (a hand-made cookie) and are replaced. */
const DEVICE_SECRET_MIN_CHARS = 40;

/** Same attributes as the session cookie (PRODUCT.md §9): httpOnly, SameSite=Lax, Secure in production. */
export function deviceCookie(secret: string, secure: boolean): string {
  return [
    `${DEVICE_COOKIE}=${encodeURIComponent(secret)}`,
    `Max-Age=${DEVICE_COOKIE_MAX_AGE_SECONDS}`,
    "Path=/",
    "HttpOnly",
    "SameSite=Lax",
    ...(secure ? ["Secure"] : []),
  ].join("; ");
}

export const deviceKeyOfSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** A key set during this request (the response sets the cookie; later resolvers of the same request must see it). */
const issued = new WeakMap<GatewayContext, string>();

/**
 * The caller's device key, or null when the browser has no device cookie yet. With `issue`, a missing
 * cookie is created (the response sets it), so the first "I prayed" of a device counts too.
 */
export function deviceKey(ctx: GatewayContext, options: { issue?: boolean } = {}): string | null {
  const known = issued.get(ctx);
  if (known) return known;
  const secret = readCookie(ctx.request.headers.get("cookie"), DEVICE_COOKIE);
  if (secret && secret.length >= DEVICE_SECRET_MIN_CHARS) return deviceKeyOfSecret(secret);
  if (!options.issue) return null;
  const fresh = randomBytes(32).toString("base64url");
  ctx.session.outgoingCookies.push(deviceCookie(fresh, ctx.config.production));
  const key = deviceKeyOfSecret(fresh);
  issued.set(ctx, key);
  return key;
}
