/**
 * QUALITY.md I4 (issue 23, items 1, 2 and 8): a credential that ends — an API token revoked or expired,
 * a session signed out, a password changed, an account suspended — ends everywhere, open event streams
 * and the personal calendar feed included; and an invalid credential on /files or /feeds is refused with
 * 401, as GraphQL refuses it, never served as a visitor.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { SESSION } from "@flock/shared/limits";
import { toPocketBaseDate } from "../src/pocketbase/dates.ts";
import {
  createUser,
  fileOf,
  GqlClient,
  PASSWORD,
  pbAs,
  pngBytes,
  system,
  testGateway,
  type TestUser,
} from "./helpers.ts";
import { SseSubscription } from "./sse.ts";
import { WALL_SUBSCRIPTION, type WallEvent } from "./realtime-support.ts";

type Wall = NonNullable<WallEvent["data"]>;

let gateway: Gateway;
let su: PocketBase;
let admin: TestUser;
let url: string;
const run = randomUUID().slice(0, 8);
let ips = 0;
const ip = () => `198.51.100.${(ips++ % 200) + 20}`;
/** Within QUALITY.md I4's 5 seconds of the change. */
const END_WITHIN_MS = 5_000;

beforeAll(async () => {
  gateway = await testGateway();
  url = await gateway.listen();
  su = await system();
  admin = await createUser({ roles: ["Administrator"] });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

const asAdmin = () => new GqlClient(gateway, { token: admin.token, ip: ip() });

async function createToken(scopes: string[]): Promise<{ id: string; secret: string }> {
  const result = await asAdmin().request<{ createApiToken: { secret: string; token: { id: string } } }>(
    `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { id } } }`,
    { input: { name: `Stream ${run} ${randomUUID().slice(0, 4)}`, scopes } },
  );
  expect(result.errors).toBeUndefined();
  return { id: result.data!.createApiToken.token.id, secret: result.data!.createApiToken.secret };
}

const openWall = (token: string) =>
  SseSubscription.open<Wall>(gateway, { query: WALL_SUBSCRIPTION, token, clientIp: ip() });

const membersPrayer = (label: string) =>
  su.collection("prayer_requests").create({
    body: `${label} ${run}`,
    visibility: "members",
    anonymous: true,
    authorName: "",
    status: "approved",
  });

/**
 * The stream is open and hears a members-only request; `end` ends its credential; the stream then
 * ends within 5 s, and a members-only request made afterwards never reaches it. `control` (another
 * credential's stream) stays open and keeps hearing.
 */
async function expectStreamEnds(token: string, control: string, end: () => Promise<void>): Promise<void> {
  const stream = await openWall(token);
  const other = await openWall(control);
  try {
    expect(stream.response.status).toBe(200);
    const before = await membersPrayer("Before");
    await stream.waitFor(
      () => stream.data.some((d) => d.prayerWall.id === before.id),
      "the request before the change",
    );
    await end();
    await stream.waitFor(() => stream.ended !== null, "the stream's end", END_WITHIN_MS);
    expect(stream.ended).toBe("complete");
    const after = await membersPrayer("After");
    await other.waitFor(
      () => other.data.some((d) => d.prayerWall.id === after.id),
      "the other credential's stream to go on",
    );
    expect(other.ended).toBeNull();
    expect(stream.data.some((d) => d.prayerWall.id === after.id)).toBe(false);
  } finally {
    await stream.close();
    await other.close();
  }
}

describe("open subscriptions end with their credential (item 1)", () => {
  it("a PRAYER_MEMBERS token's prayer wall ends within 5 s of revokeApiToken", async () => {
    const token = await createToken(["PRAYER_MEMBERS"]);
    const control = await createToken(["PRAYER_MEMBERS"]);
    await expectStreamEnds(token.secret, control.secret, async () => {
      const revoked = await asAdmin().request<{ revokeApiToken: { status: string } }>(
        `mutation ($id: ID!) { revokeApiToken(id: $id) { status } }`,
        { id: token.id },
      );
      expect(revoked.data?.revokeApiToken.status).toBe("REVOKED");
    });
  });

  it("a token revoked in PocketBase itself (another gateway process) ends its stream within 5 s", async () => {
    const token = await createToken(["PRAYER_MEMBERS"]);
    const control = await createToken(["PRAYER_MEMBERS"]);
    await expectStreamEnds(token.secret, control.secret, async () => {
      await su.collection("api_clients").update(token.id, { revokedAt: toPocketBaseDate(new Date()) });
    });
  });

  it("a token's stream ends within 5 s of the token's expiry", async () => {
    const token = await createToken(["PRAYER_MEMBERS"]);
    const control = await createToken(["PRAYER_MEMBERS"]);
    await expectStreamEnds(token.secret, control.secret, async () => {
      await su
        .collection("api_clients")
        .update(token.id, { expiresAt: toPocketBaseDate(new Date(Date.now() + 1_000)) });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    });
  });

  it("a member's stream ends within 5 s of signing out", async () => {
    const member = await createUser();
    const control = await createUser();
    await expectStreamEnds(member.token, control.token, async () => {
      const out = await new GqlClient(gateway, { token: member.token, ip: ip() }).request(
        `mutation { signOut }`,
      );
      expect(out.errors).toBeUndefined();
    });
  });

  it("a member's stream ends within 5 s of a password change", async () => {
    const member = await createUser();
    const control = await createUser();
    await expectStreamEnds(member.token, control.token, async () => {
      const changed = await new GqlClient(gateway, { token: member.token, ip: ip() }).request(
        `mutation ($input: ChangePasswordInput!) { changePassword(input: $input) { user { id } } }`,
        {
          input: {
            currentPassword: PASSWORD,
            password: "another-password-7731",
            passwordConfirm: "another-password-7731",
          },
        },
      );
      expect(changed.errors).toBeUndefined();
    });
  });

  it("a password changed in PocketBase itself (another gateway process) ends the stream within 5 s", async () => {
    const member = await createUser();
    const control = await createUser();
    await expectStreamEnds(member.token, control.token, async () => {
      await pbAs(member).collection("users").update(member.id, {
        oldPassword: PASSWORD,
        password: "another-password-7731",
        passwordConfirm: "another-password-7731",
      });
    });
  });

  it("a member's stream ends within 5 s of the account's suspension", async () => {
    const member = await createUser();
    const control = await createUser();
    await expectStreamEnds(member.token, control.token, async () => {
      const suspended = await asAdmin().request(
        `mutation ($id: ID!) { setUserStatus(userId: $id, status: SUSPENDED) { id status } }`,
        { id: member.id },
      );
      expect(suspended.errors).toBeUndefined();
    });
  });

  it("a member suspended in PocketBase itself (no session rotation) loses the stream within 5 s", async () => {
    const member = await createUser();
    const control = await createUser();
    await expectStreamEnds(member.token, control.token, async () => {
      await su.collection("users").update(member.id, { status: "suspended" });
    });
  });
});

// ─── The personal calendar feed (item 2) ─────────────────────────────────────────────────────────
async function personalFeed(user: TestUser): Promise<string> {
  const reset = await new GqlClient(gateway, { token: user.token, ip: ip() }).request<{
    resetCalendarToken: string;
  }>(`mutation { resetCalendarToken }`);
  expect(reset.errors).toBeUndefined();
  const path = new URL(reset.data!.resetCalendarToken).pathname;
  const feed = await fetch(`${url}${path}`);
  expect(feed.status).toBe(200);
  expect(await feed.text()).toContain("BEGIN:VCALENDAR");
  return path;
}

describe("the personal calendar feed ends with the account (item 2)", () => {
  it("stops (404, no calendar) once the account is suspended", async () => {
    const member = await createUser();
    const path = await personalFeed(member);
    await su.collection("users").update(member.id, { status: "suspended" });
    const feed = await fetch(`${url}${path}`);
    expect(feed.status).toBe(404);
    expect(await feed.text()).not.toContain("VCALENDAR");
  });

  it("stops once the person is archived (deactivated)", async () => {
    const member = await createUser();
    const path = await personalFeed(member);
    await su.collection("people").update(member.personId!, { recordStatus: "archived" });
    expect((await fetch(`${url}${path}`)).status).toBe(404);
  });

  it("stops once the person is anonymised", async () => {
    const member = await createUser();
    const path = await personalFeed(member);
    const anonymised = await asAdmin().request(`mutation ($id: ID!) { anonymizePerson(id: $id) { id } }`, {
      id: member.personId,
    });
    expect(anonymised.errors).toBeUndefined();
    expect((await fetch(`${url}${path}`)).status).toBe(404);
  });

  it("revoking the sessions (sign out) resets the calendar link too", async () => {
    const member = await createUser();
    const path = await personalFeed(member);
    const out = await new GqlClient(gateway, { token: member.token, ip: ip() }).request(
      `mutation { signOut }`,
    );
    expect(out.errors).toBeUndefined();
    expect((await fetch(`${url}${path}`)).status).toBe(404);
  });
});

// ─── Invalid credentials on /files and /feeds (item 8) ───────────────────────────────────────────
describe("/files and /feeds refuse an invalid credential with 401, as GraphQL does (item 8)", () => {
  let photoPath = "";
  let revoked = "";
  let valid = "";
  let member: TestUser;
  beforeAll(async () => {
    member = await createUser();
    const image = await su.collection("media").create({
      file: fileOf(pngBytes(), "credentials.png", "image/png"),
      kind: "image",
      filename: "credentials.png",
      uploadedBy: admin.id,
    });
    photoPath = `/files/${image.collectionId}/${image.id}/${String(image.file)}`;
    const token = await createToken([]);
    revoked = token.secret;
    await asAdmin().request(`mutation ($id: ID!) { revokeApiToken(id: $id) { id } }`, { id: token.id });
    valid = (await createToken([])).secret;
  });

  const paths = () => ["/feeds/news.xml", "/feeds/events.ics", photoPath];
  const graphqlAnswer = async (authorization: string) =>
    gateway.yoga.fetch("http://flock.test/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", authorization },
      body: JSON.stringify({ query: "{ viewer { id } }" }),
    });

  it.each([
    ["an unknown API token", () => `Bearer flock_aaaaaaaaaaaaaaa_${"b".repeat(43)}`],
    ["a malformed API token", () => "Bearer flock_nonsense"],
    ["a revoked API token", () => `Bearer ${revoked}`],
  ])("answers %s with GraphQL's 401", async (_, header) => {
    const reference = await graphqlAnswer(header());
    expect(reference.status).toBe(401);
    const referenceBody = (await reference.json()) as { errors: Array<{ extensions: { code: string } }> };
    for (const path of paths()) {
      const response = await fetch(`${url}${path}`, { headers: { authorization: header() } });
      expect(response.status, path).toBe(401);
      expect(response.headers.get("www-authenticate"), path).toBe(reference.headers.get("www-authenticate"));
      const body = (await response.json()) as { errors: Array<{ extensions: { code: string } }> };
      expect(body.errors[0]!.extensions.code, path).toBe(referenceBody.errors[0]!.extensions.code);
    }
  });

  it("answers a Bearer session token PocketBase refuses with 401; a refused cookie is a visitor's, as in GraphQL, and stays", async () => {
    const stale = await createUser();
    await su.collection("users").update(stale.id, { tokenKey: randomUUID().replace(/-/g, "") });
    for (const path of paths()) {
      const bearer = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${stale.token}` } });
      expect(bearer.status, path).toBe(401);
      // A page's images may still carry the cookie from before a sign-in: clearing it here would end
      // the new session. GraphQL serves the refused cookie as a visitor (and ends it there).
      const cookie = await fetch(`${url}${path}`, {
        headers: { cookie: `${SESSION.cookieName}=${stale.token}` },
      });
      expect(cookie.status, path).toBe(200);
      expect(cookie.headers.getSetCookie(), path).toEqual([]);
      const garbage = await fetch(`${url}${path}`, { headers: { cookie: `${SESSION.cookieName}=garbage` } });
      expect(garbage.status, path).toBe(200);
    }
  });

  it("still serves visitors, valid API tokens and signed-in members", async () => {
    for (const path of paths()) {
      expect((await fetch(`${url}${path}`)).status, path).toBe(200);
      const token = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${valid}` } });
      expect(token.status, path).toBe(200);
      const session = await fetch(`${url}${path}`, { headers: { authorization: `Bearer ${member.token}` } });
      expect(session.status, path).toBe(200);
      const cookie = await fetch(`${url}${path}`, {
        headers: { cookie: `${SESSION.cookieName}=${member.token}` },
      });
      expect(cookie.status, path).toBe(200);
    }
  });
});
