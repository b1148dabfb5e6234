import { SESSION } from "@flock/shared/limits";

/** Read one cookie from a Cookie header. */
export function readCookie(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq === -1) continue;
    if (part.slice(0, eq).trim() === name) {
      const value = part.slice(eq + 1).trim();
      try {
        return decodeURIComponent(value) || null;
      } catch {
        return null;
      }
    }
  }
  return null;
}

/** The session cookie of PRODUCT.md §9: httpOnly, SameSite=Lax, Secure in production. */
export function sessionCookie(token: string | null, secure: boolean): string {
  const attributes = ["Path=/", "HttpOnly", "SameSite=Lax", ...(secure ? ["Secure"] : [])];
  if (!token) return [`${SESSION.cookieName}=`, "Max-Age=0", ...attributes].join("; ");
  return [
    `${SESSION.cookieName}=${encodeURIComponent(token)}`,
    `Max-Age=${SESSION.maxAgeSeconds}`,
    ...attributes,
  ].join("; ");
}

/** Seconds since a PocketBase token was issued, derived from its `exp` claim and the 7-day lifetime. */
export function tokenAgeSeconds(token: string, nowMs = Date.now()): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      exp?: number;
    };
    if (typeof payload.exp !== "number") return Infinity;
    return nowMs / 1000 - (payload.exp - SESSION.maxAgeSeconds);
  } catch {
    return Infinity;
  }
}
