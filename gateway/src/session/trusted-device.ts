import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { readCookie } from "./cookie.ts";

/**
 * OWASP's device cookies against targeted lock-out ("Slow Down Online Guessing Attacks with Device
 * Cookies"): a browser that signed in to an account successfully gets a signed cookie for that
 * account. Sign-in attempts that carry it are limited per device, so wrong passwords typed anywhere
 * else cannot lock the owner out; clients without one share the per-account limit.
 *
 * The value is up to `MAX_ENTRIES` entries `<nonce>.<mac>` joined by `~` (a family computer signs in
 * to several accounts), where mac = HMAC(key, nonce + "\n" + email). No email is stored in the
 * cookie; an entry is recognised by recomputing the MAC for the address being signed in to. The key
 * is derived from the PocketBase superuser credentials, which every gateway process of a church
 * already shares: trust survives restarts and holds across replicas without any state in memory.
 * Changing that password only makes browsers untrusted until their next successful sign-in.
 * The cookie goes to /graphql only (where sign-in happens), not with every page and file.
 */
export const TRUSTED_DEVICE_COOKIE = "flock_trusted";
const MAX_AGE_SECONDS = 180 * 24 * 60 * 60;
const MAX_ENTRIES = 5;
const ENTRY = /^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/;

export class TrustedDevices {
  private readonly key: Buffer;

  constructor(superuser: { email: string; password: string }) {
    this.key = Buffer.from(
      hkdfSync("sha256", superuser.password, superuser.email, "flock trusted-device cookie v1", 32),
    );
  }

  private mac(nonce: string, email: string): string {
    return createHmac("sha256", this.key).update(`${nonce}\n${email}`).digest("base64url");
  }

  private entries(cookieHeader: string | null): Array<{ nonce: string; mac: string }> {
    const value = readCookie(cookieHeader, TRUSTED_DEVICE_COOKIE) ?? "";
    return value
      .split("~")
      .filter((entry) => ENTRY.test(entry))
      .slice(0, MAX_ENTRIES)
      .map((entry) => {
        const [nonce, mac] = entry.split(".") as [string, string];
        return { nonce, mac };
      });
  }

  private matches(entry: { nonce: string; mac: string }, email: string): boolean {
    return timingSafeEqual(Buffer.from(entry.mac), Buffer.from(this.mac(entry.nonce, email)));
  }

  /** This browser's device id for `email` (the nonce of a valid entry), or null for an untrusted client. */
  deviceFor(cookieHeader: string | null, email: string): string | null {
    return this.entries(cookieHeader).find((entry) => this.matches(entry, email))?.nonce ?? null;
  }

  /**
   * The Set-Cookie value after a successful sign-in to `email`: a fresh entry for it first, the
   * browser's entries for other accounts kept (the oldest dropped past MAX_ENTRIES).
   */
  issue(cookieHeader: string | null, email: string, secure: boolean): string {
    const nonce = randomBytes(16).toString("base64url");
    const others = this.entries(cookieHeader).filter((entry) => !this.matches(entry, email));
    const value = [{ nonce, mac: this.mac(nonce, email) }, ...others]
      .slice(0, MAX_ENTRIES)
      .map((entry) => `${entry.nonce}.${entry.mac}`)
      .join("~");
    return [
      `${TRUSTED_DEVICE_COOKIE}=${value}`,
      `Max-Age=${MAX_AGE_SECONDS}`,
      "Path=/graphql",
      "HttpOnly",
      "SameSite=Lax",
      ...(secure ? ["Secure"] : []),
    ].join("; ");
  }
}
