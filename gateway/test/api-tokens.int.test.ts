/**
 * API tokens (issue 16): a token is a machine identity whose PocketBase rules follow its scopes.
 * The token personas' table is checked through GraphQL and through PocketBase's REST API (as the
 * client's own identity); refused tokens get 401, never a guest's answer; CSRF does not apply to
 * token requests and cookies are ignored on them; every answer states the rate limit.
 */
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import PocketBase from "pocketbase";
import type { Gateway } from "../src/index.ts";
import { API_TOKEN_RATE } from "../src/access/api-tokens.ts";
import { createUser, errorCode, GqlClient, system, testGateway, type TestUser, pbUrl } from "./helpers.ts";

let gateway: Gateway;
let su: PocketBase;
let admin: TestUser;
let member: TestUser;
const run = randomUUID().slice(0, 8);
const titles = { publicPost: `Public news ${run}`, membersPost: `Members news ${run}` };
const prayers = { public: `Public prayer ${run}`, members: `Members prayer ${run}` };
const events = { public: `Public event ${run}`, members: `Members event ${run}` };
const tokens: Record<string, { id: string; secret: string }> = {};

const CREATE = `mutation ($input: CreateApiTokenInput!) { createApiToken(input: $input) { secret token { id name scopes hint status createdByName expiresAt lastUsedAt } } }`;

async function createToken(name: string, scopes: string[], expiresAt?: string) {
  const result = await new GqlClient(gateway, { token: admin.token }).request<{
    createApiToken: {
      secret: string;
      token: { id: string; hint: string; scopes: string[]; status: string; createdByName: string };
    };
  }>(CREATE, {
    input: { name, scopes, expiresAt },
  });
  expect(result.errors).toBeUndefined();
  return result.data!.createApiToken;
}

/** POST /graphql with a bearer token, as an integrator's script would (no CSRF header, no cookie). */
async function withToken(
  token: string,
  query: string,
  init: { method?: "GET" | "POST"; cookie?: string } = {},
) {
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (init.cookie) headers.cookie = init.cookie;
  const response =
    init.method === "GET"
      ? await gateway.yoga.fetch(
          `http://flock.test/graphql?query=${encodeURIComponent(query)}`,
          { headers },
          { clientIp: "198.51.100.7" },
        )
      : await gateway.yoga.fetch(
          "http://flock.test/graphql",
          {
            method: "POST",
            headers: { ...headers, "content-type": "application/json" },
            body: JSON.stringify({ query }),
          },
          { clientIp: "198.51.100.7" },
        );
  const body = (await response.json()) as {
    data?: Record<string, unknown>;
    errors?: Array<{ message: string; extensions?: { code?: string } }>;
  };
  return { status: response.status, headers: response.headers, body };
}

const NEWS = `{ posts(first: 50, search: "${run}") { edges { node { title } } } prayerWall(first: 50) { edges { node { body } } } events(first: 50, search: "${run}") { title } }`;
type NewsAnswer = {
  posts: { edges: Array<{ node: { title: string } }> };
  prayerWall: { edges: Array<{ node: { body: string } }> };
  events: Array<{ title: string }>;
};

/** What a client's own PocketBase identity reads through REST (impersonated by the system). */
async function restReads(clientId: string) {
  const client = await su.collection("api_clients").impersonate(clientId, 60);
  const posts = await client
    .collection("posts")
    .getFullList({ filter: su.filter("title ~ {:run}", { run }) });
  const requests = await client
    .collection("prayer_requests")
    .getFullList({ filter: su.filter("body ~ {:run}", { run }) });
  const found = await client
    .collection("events")
    .getFullList({ filter: su.filter("title ~ {:run}", { run }) });
  return {
    posts: posts.map((p) => p.title as string).sort(),
    prayers: requests.map((r) => r.body as string).sort(),
    events: found.map((e) => e.title as string).sort(),
  };
}

beforeAll(async () => {
  gateway = await testGateway();
  su = await system();
  admin = await createUser({ roles: ["Administrator"], name: "Ada Admin" });
  member = await createUser();
  const now = new Date().toISOString();
  for (const [title, audience] of [
    [titles.publicPost, "public"],
    [titles.membersPost, "members"],
  ] as const) {
    await su.collection("posts").create({
      title,
      slug: `${audience}-${run}`,
      status: "published",
      audience,
      author: admin.id,
      revision: 1,
      publishedAt: now,
    });
  }
  for (const [body, visibility] of [
    [prayers.public, "public"],
    [prayers.members, "members"],
  ] as const) {
    await su
      .collection("prayer_requests")
      .create({ body, visibility, anonymous: true, authorName: "", status: "approved" });
  }
  for (const [title, visibility] of [
    [events.public, "public"],
    [events.members, "members"],
  ] as const) {
    await su.collection("events").create({
      title,
      slug: `${visibility}-event-${run}`,
      startsAt: "2027-03-07 15:00:00.000Z",
      endsAt: "2027-03-07 16:00:00.000Z",
      timezone: "America/Chicago",
      visibility,
      status: "published",
      registrationMode: "none",
    });
  }
  for (const [name, scopes] of [
    ["public", []],
    ["content", ["CONTENT_MEMBERS"]],
    ["prayer", ["PRAYER_MEMBERS"]],
    ["both", ["CONTENT_MEMBERS", "PRAYER_MEMBERS"]],
  ] as const) {
    const created = await createToken(`Token ${name} ${run}`, [...scopes]);
    tokens[name] = { id: created.token.id, secret: created.secret };
  }
}, 60_000);

afterAll(async () => {
  await gateway?.close();
});

describe("API tokens", () => {
  it("are created once by staff with api.manage: the secret is shown then, and only a hash is kept", async () => {
    const created = await createToken(`Lobby screen ${run}`, ["CONTENT_MEMBERS"]);
    expect(created.secret).toMatch(new RegExp(`^flock_${created.token.id}_[A-Za-z0-9_-]{43}$`));
    expect(created.token).toMatchObject({
      scopes: ["CONTENT_MEMBERS"],
      status: "ACTIVE",
      createdByName: "Ada Admin",
      hint: `flock_${created.token.id}_…`,
    });
    // The part after "flock_<id>_" (base64url: it may hold "_" itself).
    const secretPart = created.secret.slice(`flock_${created.token.id}_`.length);
    // Neither the list nor PocketBase's REST API (even for the manager) gives the secret or its hash back.
    const list = await new GqlClient(gateway, { token: admin.token }).request<{
      apiTokens: Array<Record<string, unknown>>;
    }>("{ apiTokens { id name hint scopes status } }");
    expect(list.data!.apiTokens.find((t) => t.id === created.token.id)).toMatchObject({
      name: `Lobby screen ${run}`,
    });
    expect(JSON.stringify(list)).not.toContain(secretPart);
    const asAdmin = new PocketBase(pbUrl());
    asAdmin.authStore.save(admin.token, null);
    const record = await asAdmin.collection("api_clients").getOne(created.token.id);
    expect(record.secretHash).toBeUndefined();
    expect(JSON.stringify(record)).not.toContain(secretPart);
  });

  it("are refused to members and to staff without api.manage (GraphQL and REST)", async () => {
    for (const user of [member, await createUser({ roles: ["Pastor"] })]) {
      const client = new GqlClient(gateway, { token: user.token });
      expect(errorCode(await client.request(CREATE, { input: { name: "Nope", scopes: [] } }))).toBe(
        "FORBIDDEN",
      );
      expect(errorCode(await client.request("{ apiTokens { id } }"))).toBe("FORBIDDEN");
      const pb = new PocketBase(pbUrl());
      pb.authStore.save(user.token, null);
      await expect(pb.collection("api_clients").getFullList()).resolves.toEqual([]);
      await expect(
        pb.collection("api_clients").create({
          name: "Nope",
          createdBy: user.id,
          email: `nope-${run}@api-clients.invalid`,
          password: "x".repeat(12),
          passwordConfirm: "x".repeat(12),
        }),
      ).rejects.toThrow();
    }
  });

  it("refuse a bad name and an expiry in the past or too far ahead, with field errors", async () => {
    const client = new GqlClient(gateway, { token: admin.token });
    const blank = await client.request(CREATE, { input: { name: "  ", scopes: [] } });
    expect(blank.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrors: { name: expect.any(String) },
    });
    const past = await client.request(CREATE, {
      input: { name: "Old", scopes: [], expiresAt: "2020-01-01T00:00:00Z" },
    });
    expect(past.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrorCodes: { expiresAt: "date_in_past" },
    });
    const far = await client.request(CREATE, {
      input: {
        name: "Far",
        scopes: [],
        expiresAt: new Date(Date.now() + 3 * 366 * 86_400_000).toISOString(),
      },
    });
    expect(far.errors?.[0]?.extensions).toMatchObject({
      code: "BAD_USER_INPUT",
      fieldErrorCodes: { expiresAt: "date_too_far" },
    });
  });

  it("each token persona reads exactly its scopes (posts, events, prayer requests), through GraphQL and through REST", async () => {
    const all = {
      events: [events.members, events.public],
      posts: [titles.membersPost, titles.publicPost],
      prayers: [prayers.members, prayers.public],
    };
    const publicOnly = { events: [events.public], posts: [titles.publicPost], prayers: [prayers.public] };
    const expected: Record<string, { posts: string[]; prayers: string[]; events: string[] }> = {
      public: publicOnly,
      content: { ...all, prayers: publicOnly.prayers },
      prayer: { ...publicOnly, prayers: all.prayers },
      both: all,
    };
    for (const [name, token] of Object.entries(tokens)) {
      const answer = await withToken(token.secret, NEWS);
      expect(answer.status, name).toBe(200);
      expect(answer.body.errors, name).toBeUndefined();
      const data = answer.body.data as NewsAnswer;
      const viaGraphql = {
        posts: data.posts.edges.map((e) => e.node.title).sort(),
        prayers: data.prayerWall.edges
          .map((e) => e.node.body)
          .filter((body) => body.includes(run))
          .sort(),
        events: data.events.map((e) => e.title).sort(),
      };
      expect(viaGraphql, `${name} through GraphQL`).toEqual(expected[name]);
      expect(await restReads(token.id), `${name} through REST`).toEqual(expected[name]);
    }
  });

  // Subscriptions with a token's scopes (the prayer wall, per scope, each token on a PocketBase
  // connection of its own): authorization-tokens.int.test.ts, "subscriptions for API tokens".

  it("are not a person: no viewer, nothing of anyone's account, and a session cookie beside the token is ignored", async () => {
    const signedIn = new GqlClient(gateway);
    const signIn = await signedIn.request<{ signIn: unknown }>(
      `mutation { signIn(input: { email: "${admin.email}", password: "${admin.password}" }) { __typename } }`,
      {},
      { headers: { "x-graphql-yoga-csrf": "1" } },
    );
    expect(signIn.errors).toBeUndefined();
    expect(signedIn.cookie).toBeTruthy();
    const answer = await withToken(tokens.public!.secret, "{ viewer { user { id } } }", {
      cookie: `flock_session=${signedIn.cookie}`,
    });
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data).toEqual({ viewer: null });
    // Staff-only queries answer as they do for anyone who is not signed in.
    const staff = await withToken(tokens.both!.secret, "{ apiTokens { id } }");
    expect(staff.body.errors?.[0]?.extensions?.code).toBe("UNAUTHENTICATED");
  });

  it("need no CSRF header (no browser can attach them cross-site): GET and POST work without one", async () => {
    const get = await withToken(tokens.public!.secret, "{ ping }", { method: "GET" });
    expect(get.status).toBe(200);
    expect(get.body).toEqual({ data: { ping: true } });
    // The same GET with a session cookie instead is refused for want of the header.
    const cookieGet = await gateway.yoga.fetch(
      `http://flock.test/graphql?query=${encodeURIComponent("{ ping }")}`,
      {},
      { clientIp: "198.51.100.8" },
    );
    expect(cookieGet.status).toBe(403);
  });

  it("refuse unknown, malformed, revoked and expired tokens with 401 — never a guest's answer", async () => {
    const revoked = await createToken(`Revoked ${run}`, []);
    expect((await withToken(revoked.secret, "{ ping }")).status).toBe(200);
    const revoke = await new GqlClient(gateway, { token: admin.token }).request<{
      revokeApiToken: { status: string };
    }>(`mutation { revokeApiToken(id: "${revoked.token.id}") { status } }`);
    expect(revoke.data?.revokeApiToken.status).toBe("REVOKED");
    const expired = await createToken(`Expired ${run}`, [], new Date(Date.now() + 3_600_000).toISOString());
    expect((await withToken(expired.secret, "{ ping }")).status).toBe(200);
    await su.collection("api_clients").update(expired.token.id, { expiresAt: "2020-01-01 00:00:00.000Z" });
    const wrongSecret = `flock_${tokens.both!.id}_${"A".repeat(43)}`;
    const unknownClient = `flock_${"x".repeat(15)}_${tokens.both!.secret.split("_").pop()}`;
    for (const [label, token] of [
      ["revoked", revoked.secret],
      ["expired", expired.secret],
      ["wrong secret", wrongSecret],
      ["unknown client", unknownClient],
      ["malformed", "flock_nonsense"],
    ] as const) {
      const answer = await withToken(token, "{ ping }");
      expect(answer.status, label).toBe(401);
      expect(answer.headers.get("www-authenticate"), label).toBe('Bearer error="invalid_token"');
      expect(answer.body.data, label).toBeUndefined();
      expect(answer.body.errors?.[0]?.extensions?.code, label).toBe("UNAUTHENTICATED");
    }
    const list = await new GqlClient(gateway, { token: admin.token }).request<{
      apiTokens: Array<{ id: string; status: string }>;
    }>("{ apiTokens { id status } }");
    expect(list.data!.apiTokens.find((t) => t.id === expired.token.id)?.status).toBe("EXPIRED");
  });

  it("record when and from where they were last used", async () => {
    const token = await createToken(`Used ${run}`, []);
    expect(token.token).toMatchObject({ lastUsedAt: null });
    await withToken(token.secret, "{ ping }");
    await expect
      .poll(async () => {
        const rows = await su
          .collection("api_client_usage")
          .getFullList({ filter: su.filter("client = {:c}", { c: token.token.id }) });
        return { used: rows.length === 1 && !!rows[0]!.lastUsedAt, ip: rows[0]?.lastUsedIp };
      })
      .toEqual({ used: true, ip: "198.51.100.7" });
    // Staff see it in the list.
    const list = await new GqlClient(gateway, { token: admin.token }).request<{
      apiTokens: Array<{ id: string; lastUsedAt: string | null; lastUsedIp: string | null }>;
    }>("{ apiTokens { id lastUsedAt lastUsedIp } }");
    expect(list.data!.apiTokens.find((t) => t.id === token.token.id)).toMatchObject({
      lastUsedAt: expect.any(String),
      lastUsedIp: "198.51.100.7",
    });
  });

  it(`state their rate limit in the IETF draft's RateLimit and RateLimit-Policy headers, and answer 429 with Retry-After after ${API_TOKEN_RATE.limit} requests a minute`, async () => {
    const token = await createToken(`Busy ${run}`, []);
    const first = await withToken(token.secret, "{ ping }");
    // draft-ietf-httpapi-ratelimit-headers: a named policy (quota q per window w seconds), and what is
    // left of it (r) with the seconds until it is restored (t), as structured fields.
    expect(first.headers.get("ratelimit-policy")).toBe(`"api-token";q=${API_TOKEN_RATE.limit};w=60`);
    const state = /^"api-token";r=(\d+);t=(\d+)$/.exec(first.headers.get("ratelimit") ?? "");
    expect(state, String(first.headers.get("ratelimit"))).not.toBeNull();
    expect(Number(state![1])).toBe(API_TOKEN_RATE.limit - 1);
    expect(Number(state![2])).toBeGreaterThanOrEqual(1);
    expect(Number(state![2])).toBeLessThanOrEqual(60);
    // The draft-06 trio is gone: one format, not two that disagree.
    for (const old of ["ratelimit-limit", "ratelimit-remaining", "ratelimit-reset"])
      expect(first.headers.get(old)).toBeNull();
    for (let i = 1; i < API_TOKEN_RATE.limit; i++) await withToken(token.secret, "{ ping }");
    const limited = await withToken(token.secret, "{ ping }");
    expect(limited.status).toBe(429);
    const wait = Number(limited.headers.get("retry-after"));
    expect(wait).toBeGreaterThan(0);
    expect(limited.headers.get("ratelimit")).toBe(`"api-token";r=0;t=${wait}`);
    expect(limited.body.errors?.[0]?.extensions?.code).toBe("RATE_LIMITED");
    // Another token has its own allowance.
    expect((await withToken(tokens.public!.secret, "{ ping }")).status).toBe(200);
  });
});
