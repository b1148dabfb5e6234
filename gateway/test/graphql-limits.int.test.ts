/**
 * QUALITY.md S2: each GraphQL limit at the limit (passes) and one past it (refused before any
 * PocketBase call); introspection and GraphiQL only outside production; CSRF prevention; CORS
 * allow-list; no batching.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Lexer, Source, TokenKind } from "graphql";
import type { Gateway } from "../src/index.ts";
import { GRAPHQL_LIMITS } from "@flock/shared/limits";
import {
  countPocketBaseCalls,
  createUser,
  CSRF_HEADER,
  errorCode,
  fileOf,
  GqlClient,
  multipartBody,
  pngBytes,
  testGateway,
  type TestUser,
} from "./helpers.ts";

let gateway: Gateway;
let production: Gateway;
let admin: TestUser;
beforeAll(async () => {
  [gateway, production, admin] = await Promise.all([
    testGateway(),
    testGateway({ production: true }),
    createUser({ roles: ["Administrator"] }),
  ]);
});
afterAll(async () => {
  await gateway.close();
  await production.close();
});

/**
 * `{ settings { churchName } ... on Query { ... on Query { ping } } }`: the limit counts an inline
 * fragment as a level, so real fields reach any depth. `settings` makes an accepted query call
 * PocketBase, which shows that a refused one was stopped before it could.
 */
function queryOfDepth(depth: number): string {
  let inner = "ping";
  for (let level = 1; level < depth; level++) inner = `... on Query { ${inner} }`;
  return `{ settings { churchName } ${inner} }`;
}

/** `__type(name: "Query") { fields { type { ofType { … { name } } } } }`, `depth` levels deep. */
function introspectionOfDepth(depth: number): string {
  let inner = "name";
  for (let level = 4; level < depth; level++) inner = `ofType { ${inner} }`;
  return `{ settings { churchName } __type(name: "Query") { fields { type { ${inner} } } } }`;
}

function queryWithAliases(aliases: number): string {
  const pings = Array.from({ length: aliases - 1 }, (_, i) => `p${i}: ping`).join(" ");
  return `{ s: settings { churchName } ${pings} }`;
}

/** Lexical tokens as the parser counts them (the end-of-file token excluded). */
function countTokens(query: string): number {
  const lexer = new Lexer(new Source(query));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count++;
  return count;
}

const SETTINGS_FIELDS = [
  "churchName",
  "tagline",
  "brandColor",
  "timezone",
  "locale",
  "address",
  "phone",
  "email",
  "allowSignup",
  "prayerExpiryDays",
  "updated",
];

/**
 * `{ settings { churchName tagline … } }` with exactly `tokens` tokens. The fields cycle through
 * distinct names: graphql-js's field-merging check is quadratic per name and gives up on ~2,000
 * copies of one field, which would hide what the token limit does.
 */
function queryWithTokens(tokens: number): string {
  const fields = Array.from({ length: tokens - 5 }, (_, i) => SETTINGS_FIELDS[i % SETTINGS_FIELDS.length]);
  const query = `{ settings { ${fields.join(" ")} } }`;
  expect(countTokens(query)).toBe(tokens);
  return query;
}

/** Sends `query` as the admin and counts the PocketBase calls it caused. */
async function send(query: string, target = gateway) {
  const { result, calls } = await countPocketBaseCalls(() =>
    new GqlClient(target, { token: admin.token }).request(query),
  );
  return { ...result, calls };
}

describe("limits (PRODUCT.md §9): at the limit passes, one past it is refused without calling PocketBase", () => {
  it(`depth ${GRAPHQL_LIMITS.maxDepth} / ${GRAPHQL_LIMITS.maxDepth + 1}`, async () => {
    const atLimit = await send(queryOfDepth(GRAPHQL_LIMITS.maxDepth));
    expect(atLimit.errors).toBeUndefined();
    expect(atLimit.data).toMatchObject({ settings: { churchName: expect.any(String) }, ping: true });
    expect(atLimit.calls).toBeGreaterThan(0);

    const past = await send(queryOfDepth(GRAPHQL_LIMITS.maxDepth + 1));
    expect(past.errors?.[0]?.message).toMatch(/depth limit of 10 exceeded, found 11/);
    expect(past.data).toBeNull();
    expect(past.calls).toBe(0);
  });

  it("depth also bounds introspection outside production", async () => {
    const atLimit = await send(introspectionOfDepth(GRAPHQL_LIMITS.maxDepth));
    expect(atLimit.errors).toBeUndefined();
    expect(atLimit.data).toMatchObject({ __type: { fields: expect.any(Array) } });
    const past = await send(introspectionOfDepth(GRAPHQL_LIMITS.maxDepth + 1));
    expect(past.errors?.[0]?.message).toMatch(/depth limit of 10 exceeded, found 11/);
    expect(past.calls).toBe(0);
  });

  it(`aliases ${GRAPHQL_LIMITS.maxAliases} / ${GRAPHQL_LIMITS.maxAliases + 1}`, async () => {
    const atLimit = await send(queryWithAliases(GRAPHQL_LIMITS.maxAliases));
    expect(atLimit.errors).toBeUndefined();
    expect(Object.keys(atLimit.data ?? {})).toHaveLength(GRAPHQL_LIMITS.maxAliases);
    expect(atLimit.calls).toBeGreaterThan(0);

    const past = await send(queryWithAliases(GRAPHQL_LIMITS.maxAliases + 1));
    expect(past.errors?.[0]?.message).toMatch(/Aliases limit of 15 exceeded, found 16/);
    expect(past.data).toBeNull();
    expect(past.calls).toBe(0);
  });

  it(`tokens ${GRAPHQL_LIMITS.maxTokens} / ${GRAPHQL_LIMITS.maxTokens + 1}`, async () => {
    const atLimit = await send(queryWithTokens(GRAPHQL_LIMITS.maxTokens));
    expect(atLimit.errors).toBeUndefined();
    expect(atLimit.data).toMatchObject({
      settings: { churchName: expect.any(String), timezone: expect.any(String) },
    });
    expect(atLimit.calls).toBeGreaterThan(0);

    const past = await send(queryWithTokens(GRAPHQL_LIMITS.maxTokens + 1));
    expect(past.errors?.[0]?.message).toMatch(/Token limit of 2000 exceeded/);
    expect(past.data).toBeNull();
    expect(past.calls).toBe(0);
  });

  it(`list size first: ${GRAPHQL_LIMITS.maxFirst} / ${GRAPHQL_LIMITS.maxFirst + 1}`, async () => {
    const atLimit = await send(`{ users(first: ${GRAPHQL_LIMITS.maxFirst}) { edges { node { id } } } }`);
    expect(atLimit.errors).toBeUndefined();
    expect(atLimit.calls).toBeGreaterThan(0);

    for (const first of [GRAPHQL_LIMITS.maxFirst + 1, 0, -1]) {
      const refused = await send(`{ users(first: ${first}) { edges { node { id } } } }`);
      expect(errorCode(refused), `first: ${first}`).toBe("BAD_USER_INPUT");
      expect(refused.errors?.[0]?.extensions?.fieldErrorCodes).toEqual({ first: "out_of_range" });
      expect(refused.calls).toBe(0);
    }
  });

  it("a refused query shows no stack trace", async () => {
    const past = await send(queryOfDepth(GRAPHQL_LIMITS.maxDepth + 5));
    expect(JSON.stringify(past.errors)).not.toMatch(/at \w+ \(|\.ts:\d+|node_modules/);
  });
});

const INTROSPECTION = `{ __schema { queryType { name } } }`;
const TYPE_INTROSPECTION = `{ __type(name: "Settings") { name } }`;
const graphiql = (target: Gateway) =>
  target.yoga.fetch("http://flock.test/graphql", { headers: { accept: "text/html", [CSRF_HEADER]: "1" } });

describe("introspection and GraphiQL", () => {
  it("are available outside production", async () => {
    expect((await send(INTROSPECTION)).data).toEqual({ __schema: { queryType: { name: "Query" } } });
    expect((await send(TYPE_INTROSPECTION)).data).toEqual({ __type: { name: "Settings" } });
    const page = await graphiql(gateway);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toMatch(/text\/html/);
    expect(await page.text()).toMatch(/Flock GraphQL/);
  });

  it("are off in production, while ordinary queries still work", async () => {
    for (const query of [INTROSPECTION, TYPE_INTROSPECTION]) {
      const result = await send(query, production);
      expect(result.data).toBeNull();
      expect(result.errors?.[0]?.message).toMatch(/introspection/i);
      expect(result.calls).toBe(0);
    }
    const page = await graphiql(production);
    expect(page.headers.get("content-type") ?? "").not.toMatch(/text\/html/);
    expect(await page.text()).not.toMatch(/graphiql/i);
    expect((await send(`{ settings { churchName } }`, production)).errors).toBeUndefined();
  });
});

describe("field suggestions (issue 10: they map the schema while introspection is off)", () => {
  // A mistyped field, argument, type and enum value, and the name a suggestion would reveal.
  const typos: Array<[string, string, RegExp]> = [
    ["field", `{ settings { churchNam } }`, /"churchName"/],
    ["argument", `{ posts(frist: 1) { totalCount } }`, /"first"/],
    ["type", `query($x: Local) { ping }`, /"Locale"/],
    ["enum value in the document", `mutation { setMyLocale(locale: ES) { user { id } } }`, /"es"/],
  ];

  it.each(typos)("outside production a mistyped %s gets a 'Did you mean'", async (_, query) => {
    const result = await new GqlClient(gateway, { token: admin.token }).request(query);
    expect(result.errors?.map((e) => e.message).join(" ")).toMatch(/Did you mean/);
  });

  it.each(typos)(
    "in production a mistyped %s is refused without suggesting names",
    async (_, query, hidden) => {
      const result = await new GqlClient(production, { token: admin.token }).request(query);
      expect(result.errors?.length).toBeGreaterThan(0);
      const messages = result.errors!.map((e) => e.message).join(" ");
      expect(messages).not.toMatch(/did you mean/i);
      expect(messages).not.toMatch(hidden);
    },
  );
});

describe("CSRF prevention", () => {
  const get = (headers: Record<string, string>) =>
    gateway.yoga.fetch(`http://flock.test/graphql?query=${encodeURIComponent("{ ping }")}`, {
      headers: { accept: "application/json", ...headers },
    });

  it("refuses a GET without the CSRF header and answers one with it", async () => {
    const without = await get({});
    expect(without.status).toBe(403);
    expect(await without.text()).not.toMatch(/"ping"/);
    const withHeader = await get({ [CSRF_HEADER]: "1" });
    expect(withHeader.status).toBe(200);
    expect(await withHeader.json()).toEqual({ data: { ping: true } });
  });

  it("refuses a multipart upload and a text/plain POST without the header (simple requests a form can send)", async () => {
    const { calls, result } = await countPocketBaseCalls(async () => {
      const multipart = await gateway.yoga.fetch("http://flock.test/graphql", {
        method: "POST",
        body: multipartBody(
          `mutation($file: File!) { uploadLogo(file: $file) { logoUrl } }`,
          "file",
          fileOf(pngBytes(), "logo.png", "image/png"),
          "logo.png",
        ),
        headers: { authorization: `Bearer ${admin.token}` },
      });
      const plain = await gateway.yoga.fetch("http://flock.test/graphql", {
        method: "POST",
        body: JSON.stringify({ query: "mutation { signOut }" }),
        headers: { "content-type": "text/plain", authorization: `Bearer ${admin.token}` },
      });
      return [multipart.status, plain.status];
    });
    expect(result).toEqual([403, 403]);
    expect(calls).toBe(0);
  });

  it("accepts a JSON POST (browsers preflight it) without the header", async () => {
    const response = await gateway.yoga.fetch("http://flock.test/graphql", {
      method: "POST",
      body: JSON.stringify({ query: "{ ping }" }),
      headers: { "content-type": "application/json" },
    });
    expect(response.status).toBe(200);
  });
});

describe("CORS allow-list", () => {
  const preflight = (target: Gateway, origin: string) =>
    target.yoga.fetch("http://flock.test/graphql", {
      method: "OPTIONS",
      headers: {
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": `content-type,${CSRF_HEADER}`,
      },
    });

  it("does not allow a foreign origin", async () => {
    const response = await preflight(gateway, "https://evil.example");
    expect(response.headers.get("access-control-allow-origin")).toBeNull();
    expect(response.headers.get("access-control-allow-credentials")).not.toBe("true");
    const post = await gateway.yoga.fetch("http://flock.test/graphql", {
      method: "POST",
      body: JSON.stringify({ query: "{ ping }" }),
      headers: { "content-type": "application/json", origin: "https://evil.example" },
    });
    expect(post.headers.get("access-control-allow-origin")).toBeNull();
  });

  it("echoes the app's own origin with credentials", async () => {
    const response = await preflight(gateway, "http://flock.test");
    expect(response.headers.get("access-control-allow-origin")).toBe("http://flock.test");
    expect(response.headers.get("access-control-allow-credentials")).toBe("true");
    expect(response.headers.get("access-control-allow-headers")?.toLowerCase()).toContain(CSRF_HEADER);
  });

  it("allows configured integrator origins only", async () => {
    const withIntegrator = await testGateway({ corsOrigins: ["https://screen.example"] });
    try {
      expect(
        (await preflight(withIntegrator, "https://screen.example")).headers.get(
          "access-control-allow-origin",
        ),
      ).toBe("https://screen.example");
      expect(
        (await preflight(withIntegrator, "https://screen.example.evil.example")).headers.get(
          "access-control-allow-origin",
        ),
      ).toBeNull();
    } finally {
      await withIntegrator.close();
    }
  });
});

describe("batching", () => {
  it("refuses an array of operations without running any", async () => {
    const { result: response, calls } = await countPocketBaseCalls(async () =>
      gateway.yoga.fetch("http://flock.test/graphql", {
        method: "POST",
        body: JSON.stringify([{ query: "{ settings { churchName } }" }, { query: "{ ping }" }]),
        headers: { "content-type": "application/json" },
      }),
    );
    expect(response.status).toBeGreaterThanOrEqual(400);
    expect(response.status).toBeLessThan(500);
    const body = (await response.json()) as { data?: unknown; errors?: Array<{ message: string }> };
    expect(Array.isArray(body)).toBe(false);
    expect(body.data).toBeUndefined();
    expect(body.errors?.length).toBeGreaterThan(0);
    expect(calls).toBe(0);
  });
});
