import { describe, expect, it } from "vitest";
import { isLoopback, metricsAccess, Readiness } from "./endpoints.ts";
import { errorCodeLabel, operationLabel } from "./graphql-metrics.ts";
import { pocketBasePathTemplate, routeClass, statusClass } from "./metrics.ts";
import { requestIdFrom } from "./scope.ts";

const PB = "http://127.0.0.1:8090";

describe("PocketBase path templates (the metrics' path label)", () => {
  it.each([
    [`${PB}/api/collections/people/records?page=1&filter=x`, "/api/collections/:collection/records"],
    [`${PB}/api/collections/people/records/abcdefghijklmno`, "/api/collections/:collection/records/:id"],
    [`${PB}/api/collections/users/auth-with-password`, "/api/collections/:collection/auth-with-password"],
    [`${PB}/api/collections/users/auth-refresh?expand=roles`, "/api/collections/:collection/auth-refresh"],
    [`${PB}/api/collections/users/impersonate/u1`, "/api/collections/:collection/impersonate/:id"],
    [`${PB}/api/collections/x/made-up-action`, "/api/collections/:collection/:action"],
    [`${PB}/api/files/token`, "/api/files/token"],
    [`${PB}/api/files/pbc_123/rec456/logo_ab12.png?thumb=0x96`, "/api/files/:collection/:id/:file"],
    [`${PB}/api/flock/queues/claim`, "/api/flock/queues/claim"],
    [`${PB}/api/flock/leases/abc123def456ghi`, "/api/flock/leases/:param"],
    [`${PB}/api/health`, "/api/health"],
    [`${PB}/api/backups/pb_backup_2026.zip`, "/api/backups/:param"],
    [`${PB}/api/something-new/x`, "/api/:area"],
    [`${PB}/not-the-api`, "other"],
    [`http://pb.internal/prefix/api/settings`, "/api/settings"],
  ])("%s → %s", (url, template) => {
    expect(pocketBasePathTemplate(url)).toBe(template);
  });
});

describe("labels from fixed sets", () => {
  it("status classes", () => {
    expect([200, 204, 304, 404, 503, null, 0, 999].map(statusClass)).toEqual([
      "2xx",
      "2xx",
      "3xx",
      "4xx",
      "5xx",
      "error",
      "error",
      "error",
    ]);
  });

  it("route classes: the app's built files are static, its pages app", () => {
    expect(routeClass("/graphql", false)).toBe("graphql");
    expect(routeClass("/graphql/stream", false)).toBe("graphql");
    expect(routeClass("/readyz", false)).toBe("health");
    expect(routeClass("/metrics", false)).toBe("metrics");
    expect(routeClass("/files/a/b/c.png", false)).toBe("files");
    expect(routeClass("/feeds/sermons.xml", false)).toBe("feeds");
    expect(routeClass("/sitemap.xml", false)).toBe("feeds");
    expect(routeClass("/uploads/audio/x", false)).toBe("uploads");
    expect(routeClass("/giving/statement.pdf", false)).toBe("other");
    expect(routeClass("/assets/app-abc.js", true)).toBe("static");
    expect(routeClass("/favicon.ico", true)).toBe("static");
    expect(routeClass("/news/welcome", true)).toBe("app");
  });

  it("operation names: the web app's own, anything else other", () => {
    expect(operationLabel("AppShell")).toBe("AppShell");
    expect(operationLabel("HomeNews")).toBe("HomeNews");
    expect(operationLabel("AppShellX")).toBe("other");
    expect(operationLabel(null)).toBe("other");
    expect(operationLabel("Mine", new Set(["Mine"]))).toBe("Mine");
  });

  it("error codes: the catalogue's codes, UNKNOWN without one, OTHER for anything else", () => {
    expect(errorCodeLabel("UNAUTHENTICATED")).toBe("UNAUTHENTICATED");
    expect(errorCodeLabel(undefined)).toBe("UNKNOWN");
    expect(errorCodeLabel("<script>")).toBe("OTHER");
    expect(errorCodeLabel(42)).toBe("OTHER");
  });
});

describe("request ids", () => {
  it("keeps a sane incoming id, else makes one up", () => {
    expect(requestIdFrom("abc-123")).toBe("abc-123");
    expect(requestIdFrom(["first", "second"])).toBe("first");
    const made = [undefined, "", "a b", "x".repeat(129), "caf\u00e9", "a\u0000b"].map(requestIdFrom);
    for (const id of made) expect(id).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe("who may read /metrics", () => {
  const req = (remoteAddress: string, headers: Record<string, string> = {}) => ({
    socket: { remoteAddress },
    headers,
  });

  it("with a token: the bearer of that token, from anywhere", () => {
    expect(metricsAccess(req("10.0.0.9", { authorization: "Bearer s3cret" }), "s3cret")).toBe("allowed");
    expect(metricsAccess(req("10.0.0.9", { authorization: "bearer  s3cret " }), "s3cret")).toBe("allowed");
    expect(metricsAccess(req("127.0.0.1"), "s3cret")).toBe("unauthorized");
    expect(metricsAccess(req("10.0.0.9", { authorization: "Bearer s3cre" }), "s3cret")).toBe("unauthorized");
    expect(metricsAccess(req("10.0.0.9", { authorization: "s3cret" }), "s3cret")).toBe("unauthorized");
  });

  it("without: loopback only, and never what a proxy forwarded", () => {
    for (const address of ["127.0.0.1", "127.3.2.1", "::1", "::ffff:127.0.0.1"])
      expect(metricsAccess(req(address), null), address).toBe("allowed");
    for (const address of ["10.0.0.9", "::ffff:10.0.0.9", "fe80::1", "128.0.0.1"])
      expect(metricsAccess(req(address), null), address).toBe("forbidden");
    expect(metricsAccess(req("127.0.0.1", { "x-forwarded-for": "203.0.113.9" }), null)).toBe("forbidden");
    expect(metricsAccess(req("127.0.0.1", { forwarded: "for=203.0.113.9" }), null)).toBe("forbidden");
    expect(isLoopback(undefined)).toBe(false);
  });
});

describe("readiness", () => {
  it("starting until prepared and listening; then PocketBase's answer, asked once per cache period", async () => {
    let up = true;
    let asked = 0;
    const readiness = new Readiness(async () => {
      asked++;
      return up;
    }, 60_000);
    expect(await readiness.notReadyBecause()).toBe("starting");
    readiness.markPrepared();
    expect(await readiness.notReadyBecause()).toBe("starting");
    readiness.markListening();
    const answers = await Promise.all(Array.from({ length: 5 }, () => readiness.notReadyBecause()));
    expect(answers).toEqual([null, null, null, null, null]);
    up = false;
    expect(await readiness.notReadyBecause()).toBeNull(); // still the cached answer
    expect(asked).toBe(1);
    readiness.markDraining();
    expect(await readiness.notReadyBecause()).toBe("draining");
  });

  it("asks again once the cache period has passed; a failing check is not ready", async () => {
    let asked = 0;
    const readiness = new Readiness(async () => {
      asked++;
      if (asked > 1) throw new Error("ECONNREFUSED");
      return true;
    }, 0);
    readiness.markPrepared();
    readiness.markListening();
    expect(await readiness.notReadyBecause()).toBeNull();
    expect(await readiness.notReadyBecause()).toBe("pocketbase_unreachable");
    expect(asked).toBe(2);
  });
});
