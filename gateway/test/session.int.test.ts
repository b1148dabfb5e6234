/**
 * The 7-day sliding session (PRODUCT.md §9): a browser session whose token is older than an hour
 * gets a fresh token on its next request, so an active member is never signed out. The clock is
 * moved forward in this process only (PocketBase keeps real time), which is what the gateway reads
 * to decide.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import type { Gateway } from "../src/index.ts";
import { SESSION } from "@flock/shared/limits";
import { tokenAgeSeconds } from "../src/session/cookie.ts";
import { createUser, GqlClient, PASSWORD, testGateway, type TestUser } from "./helpers.ts";

const VIEWER = `{ viewer { user { id } } }`;
const SIGN_IN = `mutation($input: SignInInput!) { signIn(input: $input) { user { id } } }`;

let gateway: Gateway;
beforeAll(async () => {
  gateway = await testGateway();
});
afterAll(() => gateway.close());
afterEach(() => {
  vi.useRealTimers();
});

/** Move this process's clock (only Date; timers and sockets keep running) `seconds` ahead. */
function clockAhead(seconds: number) {
  const now = Date.now();
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(now + seconds * 1000);
}

const expClaim = (token: string) =>
  (JSON.parse(Buffer.from(token.split(".")[1]!, "base64url").toString()) as { exp: number }).exp;

async function signedInBrowser(user: TestUser): Promise<GqlClient> {
  const browser = new GqlClient(gateway);
  const result = await browser.request(SIGN_IN, { input: { email: user.email, password: PASSWORD } });
  expect(result.errors).toBeUndefined();
  return browser;
}

describe("sliding refresh", () => {
  it("leaves a fresh session alone", async () => {
    const browser = await signedInBrowser(await createUser());
    const result = await browser.request(VIEWER);
    expect(result.data?.viewer).not.toBeNull();
    expect(result.headers.get("set-cookie")).toBeNull();
  });

  it("re-issues a session token older than an hour, and the new one works", async () => {
    const user = await createUser();
    const browser = await signedInBrowser(user);
    const old = browser.cookie!;
    await new Promise((resolve) => setTimeout(resolve, 1100)); // a new token differs from the old one in `exp` (seconds)

    clockAhead(SESSION.refreshAfterSeconds + 60);
    expect(tokenAgeSeconds(old)).toBeGreaterThan(SESSION.refreshAfterSeconds);
    const refreshed = await browser.request(VIEWER);
    vi.useRealTimers();

    expect(refreshed.data).toEqual({ viewer: { user: { id: user.id } } });
    const setCookie = refreshed.headers.get("set-cookie") ?? "";
    expect(setCookie).toMatch(/^flock_session=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
    expect(refreshed.headers.get("cache-control")).toBe("no-store");
    expect(browser.cookie).not.toBe(old);
    expect(expClaim(browser.cookie!)).toBeGreaterThan(expClaim(old));

    // The new token is a working session, and young again: no further refresh.
    const next = await browser.request(VIEWER);
    expect(next.data).toEqual({ viewer: { user: { id: user.id } } });
    expect(next.headers.get("set-cookie")).toBeNull();
  });

  it("does not turn an integrator's Bearer token into a cookie", async () => {
    const user = await createUser();
    clockAhead(SESSION.refreshAfterSeconds + 60);
    const result = await new GqlClient(gateway, { token: user.token }).request(VIEWER);
    vi.useRealTimers();
    expect(result.data).toEqual({ viewer: { user: { id: user.id } } });
    expect(result.headers.get("set-cookie")).toBeNull();
  });

  it("ends a session PocketBase no longer accepts and clears its cookie", async () => {
    const browser = new GqlClient(gateway);
    browser.cookie = "eyJhbGciOiJIUzI1NiJ9.eyJpZCI6Im5vYm9keSJ9.forged";
    const result = await browser.request(VIEWER);
    expect(result.data).toEqual({ viewer: null });
    expect(result.headers.get("set-cookie")).toBe(
      "flock_session=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax",
    );
    expect(browser.cookie).toBeNull();
  });

  it("marks the cookie Secure in production", async () => {
    const production = await testGateway({ production: true });
    try {
      const user = await createUser();
      const result = await new GqlClient(production).request(SIGN_IN, {
        input: { email: user.email, password: PASSWORD },
      });
      expect(result.headers.get("set-cookie")).toMatch(/; HttpOnly; SameSite=Lax; Secure$/);
    } finally {
      await production.close();
    }
  });
});
