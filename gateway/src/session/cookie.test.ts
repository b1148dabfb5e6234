import { describe, expect, it } from "vitest";
import { SESSION } from "@flock/shared/limits";
import { readCookie, sessionCookie, tokenAgeSeconds } from "./cookie.ts";

/** An unsigned token with PocketBase's claims shape (only the payload matters here). */
const token = (payload: Record<string, unknown>) =>
  ["eyJhbGciOiJIUzI1NiJ9", Buffer.from(JSON.stringify(payload)).toString("base64url"), "signature"].join(".");

describe("readCookie", () => {
  it.each([
    ["the only cookie", "flock_session=abc", "abc"],
    ["one of several, with spaces", "theme=dark;  flock_session=abc ; lang=es", "abc"],
    ["a percent-encoded value", "flock_session=a%2Bb%3D", "a+b="],
    ["the first of two", "flock_session=first; flock_session=second", "first"],
  ])("reads %s", (_, header, expected) => {
    expect(readCookie(header, "flock_session")).toBe(expected);
  });

  it.each([
    ["no header", null],
    ["an empty header", ""],
    ["another cookie only", "theme=dark"],
    ["a longer name that ends the same", "xflock_session=abc"],
    ["a name that starts the same", "flock_session_old=abc"],
    ["an empty value", "flock_session="],
    ["a malformed encoding", "flock_session=%E0%A4%A"],
    ["a part without '='", "flock_session"],
  ])("answers null for %s", (_, header) => {
    expect(readCookie(header, "flock_session")).toBeNull();
  });
});

describe("sessionCookie (PRODUCT.md §9)", () => {
  it("is httpOnly, SameSite=Lax, site-wide and lasts 7 days; not Secure outside production", () => {
    expect(sessionCookie("abc.def.ghi", false)).toBe(
      "flock_session=abc.def.ghi; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax",
    );
  });

  it("is Secure in production", () => {
    expect(sessionCookie("abc.def.ghi", true)).toBe(
      "flock_session=abc.def.ghi; Max-Age=604800; Path=/; HttpOnly; SameSite=Lax; Secure",
    );
  });

  it("clears the cookie on sign-out with the same attributes", () => {
    expect(sessionCookie(null, false)).toBe("flock_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax");
    expect(sessionCookie(null, true)).toBe(
      "flock_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax; Secure",
    );
  });

  it("encodes the value so that readCookie gets the token back", () => {
    const odd = "a;b=c d";
    const cookie = sessionCookie(odd, false);
    expect(cookie).not.toContain("a;b");
    expect(readCookie(cookie.split(";")[0]!, SESSION.cookieName)).toBe(odd);
  });
});

describe("tokenAgeSeconds", () => {
  const now = Date.UTC(2026, 10, 22, 12, 0, 0);
  const issuedAgo = (seconds: number) =>
    token({ id: "u1", exp: now / 1000 - seconds + SESSION.maxAgeSeconds });

  it("derives the age from exp and the 7-day lifetime", () => {
    expect(tokenAgeSeconds(issuedAgo(0), now)).toBe(0);
    expect(tokenAgeSeconds(issuedAgo(59 * 60), now)).toBe(59 * 60);
    expect(tokenAgeSeconds(issuedAgo(2 * 3600), now)).toBe(2 * 3600);
  });

  it("marks a token for refresh only after an hour", () => {
    expect(tokenAgeSeconds(issuedAgo(SESSION.refreshAfterSeconds - 1), now)).toBeLessThanOrEqual(
      SESSION.refreshAfterSeconds,
    );
    expect(tokenAgeSeconds(issuedAgo(SESSION.refreshAfterSeconds + 1), now)).toBeGreaterThan(
      SESSION.refreshAfterSeconds,
    );
  });

  it.each([
    ["garbage", "not-a-token"],
    ["an unreadable payload", "a.%%%.c"],
    ["no exp claim", token({ id: "u1" })],
    ["a non-numeric exp", token({ exp: "soon" })],
  ])("treats %s as too old (so it is refreshed or refused, never trusted)", (_, value) => {
    expect(tokenAgeSeconds(value, now)).toBe(Infinity);
  });

  it("uses the current time by default", () => {
    const fresh = token({ exp: Math.floor(Date.now() / 1000) + SESSION.maxAgeSeconds });
    expect(tokenAgeSeconds(fresh)).toBeLessThan(5);
  });
});
