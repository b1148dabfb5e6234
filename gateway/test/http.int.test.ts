/**
 * The gateway's Node server: health and readiness, PocketBase being down (QUALITY.md R1), masked
 * errors, the /files proxy, and the built web app with its meta tags and security headers (S4).
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import type { RecordModel } from "pocketbase";
import { createGateway, type Gateway } from "../src/index.ts";
import {
  createUser,
  errorCode,
  fileOf,
  GqlClient,
  pngBytes,
  system,
  testConfig,
  testGateway,
} from "./helpers.ts";

const DEAD_PB = "http://127.0.0.1:1";
const NO_STACK = /at \w+ \(|\.ts:\d+|node_modules|ECONNREFUSED/;
const TEMPLATE = `<!doctype html><html lang="en"><head><title>x</title><!--flock:head--></head><body><div id="root"></div></body></html>`;
const APP_JS = `console.log("flock");\n`.repeat(100); // over 512 bytes: served gzipped

let webDist: string;
let gateway: Gateway;
let url: string;
let settings: RecordModel;

/** A gateway listening on a free port, closed in afterAll. */
const started: Gateway[] = [];
async function listening(gatewayToStart: Gateway): Promise<string> {
  started.push(gatewayToStart);
  return gatewayToStart.listen();
}

/** A raw GET that keeps the path exactly as written (fetch would normalise `..`). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(base);
    const req = httpRequest({ host: target.hostname, port: target.port, path, method: "GET" }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => (body += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", reject);
    req.end();
  });
}

beforeAll(async () => {
  webDist = await mkdtemp(join(tmpdir(), "flock-web-"));
  await mkdir(join(webDist, "assets"));
  await writeFile(join(webDist, "index.html"), TEMPLATE);
  await writeFile(join(webDist, "assets", "app-abc.js"), APP_JS);
  await writeFile(join(webDist, "robots.txt"), "User-agent: *\n");
  gateway = await testGateway({ webDist });
  url = await listening(gateway);
  settings = (await (await system()).collection("settings").getFullList())[0]!;
});

afterAll(async () => {
  for (const g of started) await g.close();
  await rm(webDist, { recursive: true, force: true });
});

describe("health", () => {
  it("/healthz answers 200 without asking PocketBase", async () => {
    const response = await fetch(`${url}/healthz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("/readyz answers 200 while PocketBase is up", async () => {
    const response = await fetch(`${url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
  });
});

describe("keep-alive", () => {
  // Members read a page, think 2.5–7.5 s, and their browser (or a proxy in front, which keeps
  // connections 60 s or more) sends the next request on the same connection. Node's default 5 s
  // keep-alive closed it meanwhile: the next request met a closed socket (ECONNRESET under the P3 load).
  it("keeps an idle connection open longer than a member's think time (and a proxy's 60 s)", async () => {
    const target = new URL(url);
    const socket = connect(Number(target.port), target.hostname);
    let received = "";
    let closed = false;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => (received += chunk));
    socket.on("close", () => (closed = true));
    const ask = () =>
      socket.write(`GET /healthz HTTP/1.1\r\nHost: ${target.host}\r\nConnection: keep-alive\r\n\r\n`);
    const answers = () => received.split("HTTP/1.1 200").length - 1;
    try {
      ask();
      await vi.waitFor(() => expect(answers()).toBe(1), { timeout: 5000 });
      expect(received).toMatch(/keep-alive: timeout=65/i);
      await new Promise((resolve) => setTimeout(resolve, 7_500));
      expect(closed, "the server closed the idle connection").toBe(false);
      ask();
      await vi.waitFor(() => expect(answers()).toBe(2), { timeout: 5000 });
    } finally {
      socket.destroy();
    }
  });
});

describe("PocketBase unreachable (QUALITY.md R1)", () => {
  let dead: Gateway;
  let deadUrl: string;
  beforeAll(async () => {
    // createGateway only: prepareGateway would need PocketBase.
    dead = createGateway(testConfig({ pbUrl: DEAD_PB, webDist }));
    deadUrl = await listening(dead);
  });

  it("/readyz answers 503 while /healthz still answers 200", async () => {
    const ready = await fetch(`${deadUrl}/readyz`);
    expect(ready.status).toBe(503);
    // It never finished starting (prepareGateway needs PocketBase); metrics.int has PocketBase going away.
    expect(await ready.json()).toEqual({ status: "unavailable", reason: "starting" });
    expect((await fetch(`${deadUrl}/healthz`)).status).toBe(200);
  });

  it.each([
    ["a public read", `{ settings { churchName } }`, {}],
    ["a signed-in read", `{ viewer { user { id } } }`, { token: "some.session.token" }],
    [
      "a sign-in",
      `mutation { signIn(input: { email: "a@b.example", password: "whatever-password" }) { user { id } } }`,
      {},
    ],
  ])("GraphQL answers SERVICE_UNAVAILABLE without a stack trace: %s", async (_, query, options) => {
    const result = await new GqlClient(dead, options).request(query);
    expect(errorCode(result)).toBe("SERVICE_UNAVAILABLE");
    expect(result.errors?.[0]?.message).toBe("We can't reach the server right now. Please try again.");
    expect(JSON.stringify(result.errors)).not.toMatch(NO_STACK);
  });

  it("the app and /files answer 503 with Retry-After rather than crashing", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const page = await fetch(`${deadUrl}/`);
      expect(page.status).toBe(503);
      expect(page.headers.get("retry-after")).toBe("5");
      expect(await page.text()).not.toMatch(NO_STACK);
      expect(logged).toHaveBeenCalled(); // the failure is logged for the operator
    } finally {
      logged.mockRestore();
    }
    const file = await fetch(`${deadUrl}/files/abc/def/logo.png`);
    expect(file.status).toBe(503);
    // …and the process still serves the next request.
    expect((await fetch(`${deadUrl}/healthz`)).status).toBe(200);
  });
});

describe("unexpected errors are masked", () => {
  let fake: Server;
  beforeAll(async () => {
    // A "PocketBase" that fails with an internal error and leaks details in its message.
    fake = createServer((_req, res) => {
      res.writeHead(500, { "content-type": "application/json" }).end(
        JSON.stringify({
          status: 500,
          message: "sqlite: database is locked at /srv/pb/secret.go:42",
          data: {},
        }),
      );
    });
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
  });
  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  it("as INTERNAL_SERVER_ERROR with a request id that is also logged, and nothing else", async () => {
    const address = fake.address() as { port: number };
    const broken = createGateway(testConfig({ pbUrl: `http://127.0.0.1:${address.port}` }));
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    try {
      const result = await new GqlClient(broken).request(`{ settings { churchName } }`);
      expect(result.errors).toHaveLength(1);
      const [error] = result.errors!;
      expect(error!.message).toBe("Something went wrong.");
      expect(error!.extensions).toEqual({
        code: "INTERNAL_SERVER_ERROR",
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      });
      expect(JSON.stringify(result)).not.toMatch(/sqlite|secret|database is locked/);
      expect(JSON.stringify(result)).not.toMatch(NO_STACK);
      expect(
        logged.mock.calls.some((args) => String(args[0]).includes(error!.extensions!.requestId as string)),
      ).toBe(true);
    } finally {
      logged.mockRestore();
      await broken.close();
    }
  });
});

describe("/files proxy", () => {
  let record: RecordModel;
  const png = pngBytes(64, 64);
  beforeAll(async () => {
    record = await (
      await system()
    )
      .collection("settings")
      .update(settings.id, { logo: fileOf(png, "logo.png", "image/png") });
  });
  afterAll(async () => {
    await (await system()).collection("settings").update(settings.id, { logo: null });
  });
  const fileUrl = () => `${url}/files/${record.collectionId}/${record.id}/${record.logo}`;

  it("streams the file with its type and PocketBase's sandboxing Content-Security-Policy", async () => {
    const response = await fetch(fileUrl());
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("content-security-policy")).toMatch(/sandbox/);
    expect(response.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    expect(response.headers.get("content-disposition")).toMatch(/filename=/);
    expect(Buffer.from(await response.arrayBuffer()).equals(png)).toBe(true);
  });

  it("answers a Range request with 206 and just those bytes", async () => {
    const response = await fetch(fileUrl(), { headers: { range: "bytes=0-7" } });
    expect(response.status).toBe(206);
    expect(response.headers.get("content-range")).toBe(`bytes 0-7/${png.length}`);
    expect(Buffer.from(await response.arrayBuffer()).equals(png.subarray(0, 8))).toBe(true);
  });

  it("serves thumbnails", async () => {
    const response = await fetch(`${fileUrl()}?thumb=0x96`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
  });

  it("answers 404 for a missing file, a malformed path and other methods", async () => {
    expect((await fetch(`${url}/files/${record.collectionId}/${record.id}/nothing.png`)).status).toBe(404);
    expect((await fetch(`${url}/files/${record.collectionId}/${record.id}`)).status).toBe(404);
    expect((await rawGet(url, `/files/${record.collectionId}/%2e%2e/%2e%2e/api/settings`)).status).toBe(404);
    expect((await fetch(fileUrl(), { method: "POST" })).status).toBe(404);
  });
});

describe("the web app", () => {
  // The name as it is now: a test file that ran before in this worker's PocketBase may still have been
  // restoring the church's name when this file started (seen once in CI: "Our Church" vs "St Test …").
  beforeEach(async () => {
    settings = (await (await system()).collection("settings").getFullList())[0]!;
  });

  it("/ carries the church's name, description and Open Graph tags in the HTML", async () => {
    const response = await fetch(`${url}/`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(response.headers.get("cache-control")).toBe("no-cache");
    const html = await response.text();
    const title = /<title>([^<]*)<\/title>/.exec(html)?.[1];
    expect(title).toContain(settings.churchName);
    expect(html).toContain(`<meta property="og:title" content="${title}">`);
    expect(html).toMatch(/<meta property="og:description" content="[^"]+">/);
    expect(html).toMatch(/<meta name="description" content="[^"]+">/);
    expect(html).toContain(`<link rel="canonical" href="http://flock.test/">`);
    expect(html).toContain(`<html lang="${settings.locale || "en"}"`);
    expect(html).not.toContain("<!--flock:head-->");
    // The home page's text for readers without JavaScript, inside the root the app replaces.
    expect(html).toContain(
      `<div id="root"><main class="prerendered"><article><h1>${settings.churchName}</h1>`,
    );
  });

  it("known routes answer 200 with their own title; unknown ones 404 with the app's HTML", async () => {
    const login = await fetch(`${url}/login`);
    expect(login.status).toBe(200);
    expect(await login.text()).toContain(`<title>Sign in · ${settings.churchName}</title>`);
    for (const [path, title] of [
      ["/visit", "Plan a visit"],
      ["/give", "Give"],
      ["/give/thanks", "Thank you"],
      ["/prayer", "Prayer wall"],
      ["/directory", "Directory"],
      ["/prayer/abc123", "Prayer request"],
      // A mail's answer link and a volunteer's plan: their pages, not a 404 (the app reads them).
      ["/serving/answer/abcdefghij12345", "A request to serve"],
      ["/serving/plans/abcdefghij12345", "Serving plan"],
    ]) {
      const page = await fetch(`${url}${path}`);
      expect(page.status, path).toBe(200);
      expect(await page.text()).toContain(`<title>${title} · ${settings.churchName}</title>`);
    }

    const missing = await fetch(`${url}/no-such-page`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const html = await missing.text();
    expect(html).toContain(`<title>Page not found · ${settings.churchName}</title>`);
    expect(html).toContain(`<meta name="robots" content="noindex">`);
    expect(html).toContain(`<div id="root"></div>`);
  });

  it("advertises each page's feeds for feed readers, podcast apps and calendars (<link rel=alternate>)", async () => {
    const feedsOf = async (path: string) =>
      [
        ...(await (await fetch(`${url}${path}`)).text()).matchAll(
          /<link rel="alternate" type="([^"]+)" title="([^"]+)" href="([^"]+)">/g,
        ),
      ].map(([, type, title, href]) => ({ type, title, href }));
    const news = {
      type: "application/rss+xml",
      title: settings.churchName,
      href: "http://flock.test/feeds/news.xml",
    };
    const podcast = {
      type: "application/rss+xml",
      title: `${settings.churchName}: Sermons`,
      href: "http://flock.test/feeds/sermons.xml",
    };
    const calendar = {
      type: "text/calendar",
      title: `${settings.churchName}: Events`,
      href: "http://flock.test/feeds/events.ics",
    };
    expect(await feedsOf("/")).toEqual([news]);
    expect(await feedsOf("/sermons")).toEqual([news, podcast]);
    expect(await feedsOf("/events")).toEqual([news, calendar]);
    const tag = Date.now().toString(36);
    const series = await (
      await system()
    )
      .collection("sermon_series")
      .create({ title: `Advent ${tag}`, slug: `advent-${tag}` });
    try {
      expect(await feedsOf(`/series/${series.slug}`)).toEqual([
        news,
        {
          type: "application/rss+xml",
          title: `${settings.churchName}: Advent ${tag}`,
          href: `http://flock.test/feeds/series/advent-${tag}.xml`,
        },
        podcast,
      ]);
    } finally {
      await (await system()).collection("sermon_series").delete(series.id);
    }
    // A page that is not there advertises nothing of its own.
    expect(await feedsOf("/series/no-such-series")).toEqual([news]);
  });

  it("serves the API guide (docs/API.md) at /developers, rendered and sanitized, linking the served schema", async () => {
    const page = await fetch(`${url}/developers`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain(`<title>API guide for developers · ${settings.churchName}</title>`);
    // For readers without JavaScript, the guide itself inside the root.
    expect(html).toMatch(
      /<div id="root"><main class="prerendered"><article><h1>API guide for developers<\/h1>/,
    );
    const guide = await fetch(`${url}/developers/guide.html`);
    expect(guide.status).toBe(200);
    expect(guide.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const body = await guide.text();
    expect(body).toMatch(/<h2[^>]*>The schema<\/h2>/);
    expect(body).toContain('href="/graphql/schema.graphql"');
    // The guide's own title gives way to the page's heading; nothing executable survives the renderer.
    expect(body).not.toContain("<h1");
    expect(body).not.toMatch(/<script|onerror=|javascript:/i);
    const etag = guide.headers.get("etag");
    expect(etag).toBeTruthy();
    expect(
      (await fetch(`${url}/developers/guide.html`, { headers: { "if-none-match": etag! } })).status,
    ).toBe(304);
    expect((await fetch(`${url}/developers/guide.html`, { method: "POST" })).status).toBe(405);
  });

  it("escapes settings text in the HTML", async () => {
    const su = await system();
    try {
      await su.collection("settings").update(settings.id, { tagline: `"><script>alert(1)</script>` });
      const html = await (await fetch(`${url}/`)).text();
      expect(html).not.toContain("<script>alert(1)</script>");
      expect(html).toContain("&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;");
    } finally {
      await su.collection("settings").update(settings.id, { tagline: settings.tagline });
    }
  });

  it("serves hashed assets as immutable, gzipped when the browser accepts it", async () => {
    const gzipped = await fetch(`${url}/assets/app-abc.js`, { headers: { "accept-encoding": "gzip" } });
    expect(gzipped.status).toBe(200);
    expect(gzipped.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    expect(gzipped.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(gzipped.headers.get("vary")).toBe("accept-encoding");
    expect(gzipped.headers.get("content-encoding")).toBe("gzip");

    const body = await new Promise<Buffer>((resolve, reject) => {
      const target = new URL(`${url}/assets/app-abc.js`);
      httpRequest(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          headers: { "accept-encoding": "gzip" },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c: Buffer) => chunks.push(c));
          res.on("end", () => resolve(Buffer.concat(chunks)));
        },
      )
        .on("error", reject)
        .end();
    });
    expect(gunzipSync(body).toString()).toBe(APP_JS);

    const plain = await rawGet(url, "/assets/app-abc.js");
    expect(plain.body).toBe(APP_JS);
  });

  it("revalidates files outside /assets, and answers 404 (not the app) for a missing asset", async () => {
    const robots = await fetch(`${url}/robots.txt`);
    expect(robots.headers.get("cache-control")).toBe("public, max-age=300");
    const missing = await fetch(`${url}/assets/app-missing.js`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get("content-type")).toBe("text/plain; charset=utf-8");
  });

  it("never serves files outside the app folder or the raw template", async () => {
    for (const path of ["/%2e%2e/%2e%2e/%2e%2e/etc/passwd", "/..%2f..%2f..%2fetc%2fpasswd", "/index.html"]) {
      const response = await rawGet(url, path);
      expect(response.status, path).toBe(404);
      expect(response.body).not.toContain("root:");
      expect(response.body).not.toContain("<!--flock:head-->");
    }
  });

  it("answers HEAD without a body and refuses other methods", async () => {
    const head = await fetch(`${url}/`, { method: "HEAD" });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe("");
    expect((await fetch(`${url}/`, { method: "POST" })).status).toBe(405);
  });

  it("sends the security headers of QUALITY.md S4 with HTML, and HSTS only in production", async () => {
    const headers = (await fetch(`${url}/`)).headers;
    const csp = headers.get("content-security-policy") ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe/);
    expect(headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
    expect(headers.get("x-content-type-options")).toBe("nosniff");
    expect(headers.get("x-frame-options")).toBe("DENY");
    expect(headers.get("strict-transport-security")).toBeNull();

    const productionUrl = await listening(createGateway(testConfig({ webDist, production: true })));
    const production = await fetch(`${productionUrl}/`);
    expect(production.status).toBe(200);
    expect(production.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
    expect(production.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
  });
});

describe("GraphQL over HTTP", () => {
  it("answers on /graphql with the session cookie set by the server", async () => {
    const user = await createUser();
    const response = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `mutation($i: SignInInput!) { signIn(input: $i) { user { id } } }`,
        variables: { i: { email: user.email, password: user.password } },
      }),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { signIn: { user: { id: user.id } } } });
    const [session, trusted, ...more] = response.headers.getSetCookie();
    expect(session).toMatch(/^flock_session=[^;]+; Max-Age=604800; Path=\/; HttpOnly; SameSite=Lax$/);
    // The browser is trusted for this account from now on (issue 10: no targeted lock-out).
    expect(trusted).toMatch(
      /^flock_trusted=[^;]+; Max-Age=15552000; Path=\/graphql; HttpOnly; SameSite=Lax$/,
    );
    expect(more).toEqual([]);
  });
});
