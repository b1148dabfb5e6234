/**
 * The gateway's observability (issue 33, docs/DEPLOYMENT.md "Observability"): /metrics scraped after a
 * small load and parsed as Prometheus reads it, who may scrape it, /readyz (started, PocketBase up, not
 * draining) beside /healthz, and request ids (echoed, generated, passed on to PocketBase).
 */
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, request as httpRequest, type Server } from "node:http";
import { networkInterfaces, tmpdir } from "node:os";
import { join } from "node:path";
import { Kind, parse, print, visit, type ASTNode, type FragmentDefinitionNode } from "graphql";
import parsePrometheusTextFormat, { type MetricFamily } from "parse-prometheus-text-format";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createGateway, prepareGateway, type Gateway } from "../src/index.ts";
import { recordJobRun } from "../src/observability/metrics.ts";
import { runInScope } from "../src/observability/scope.ts";
import { GraphQLSseClient } from "../../scripts/lib/sse-client.ts";
import { pbUrl, system, testConfig, testGateway } from "./helpers.ts";
import { DedicatedPocketBase, WALL_SUBSCRIPTION } from "./realtime-support.ts";

const TOKEN = "metrics-token-for-the-test-0123456789";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const TEMPLATE = `<!doctype html><html lang="en"><head><title>x</title><!--flock:head--></head><body></body></html>`;

/** Gateways this file started, closed in afterAll. */
const started: Gateway[] = [];
async function listening(gateway: Gateway): Promise<string> {
  started.push(gateway);
  return gateway.listen();
}
/** Closes a gateway this file started, now rather than in afterAll. */
async function closeNow(gateway: Gateway): Promise<void> {
  started.splice(started.indexOf(gateway), 1);
  await gateway.close();
}

let webDist: string;
/** Gateway A: a METRICS_TOKEN, the built app, the load. */
let gateway: Gateway;
let url: string;
/** Gateway B, in the same process: no token, listening on every interface. */
let other: Gateway;
let otherPort: number;
let outboxRow: string;

beforeAll(async () => {
  webDist = await mkdtemp(join(tmpdir(), "flock-metrics-web-"));
  await mkdir(join(webDist, "assets"));
  await writeFile(join(webDist, "index.html"), TEMPLATE);
  await writeFile(join(webDist, "assets", "app-abc.js"), `console.log("flock");\n`);
  // A pending mail the outbox will not send for a day: the queue depth has at least this one.
  outboxRow = (
    await (await system()).collection("mail_outbox").create({
      kind: "event.rsvp",
      message: { message: { to: "depth@test.example", subject: "Later", text: "x" }, churchName: "Flock" },
      status: "pending",
      attempts: 0,
      nextAttemptAt: new Date(Date.now() + 86_400_000).toISOString(),
    })
  ).id;
  gateway = await testGateway({ webDist, metricsToken: TOKEN });
  url = await listening(gateway);
  other = await testGateway({ host: "0.0.0.0" });
  otherPort = Number(new URL(await listening(other)).port);
});

afterAll(async () => {
  for (const g of started) await g.close();
  await rm(webDist, { recursive: true, force: true });
  if (outboxRow) await (await system()).collection("mail_outbox").delete(outboxRow);
});

type Families = Map<string, MetricFamily>;

/**
 * The exposition as Prometheus reads it. parse-prometheus-text-format 1.1.1 folds a histogram's labelled
 * series into one unlabelled sample (its flattenMetrics), so the histograms' `_bucket`, `_sum` and
 * `_count` series are also read without their TYPE line, as plain samples under those names.
 */
function parseExposition(text: string): Families {
  const families: Families = new Map();
  const add = (family: MetricFamily) => {
    const known = families.get(family.name);
    if (known) known.metrics.push(...family.metrics);
    else families.set(family.name, family);
  };
  parsePrometheusTextFormat(text).forEach(add);
  const untyped = text
    .split("\n")
    .filter((line) => !/^# TYPE \S+ histogram$/.test(line))
    .join("\n");
  for (const family of parsePrometheusTextFormat(untyped))
    if (families.get(family.name.replace(/_(bucket|sum|count)$/, ""))?.type === "HISTOGRAM") add(family);
  return families;
}

async function scrape(base: string, token: string | null = TOKEN): Promise<Families> {
  const response = await fetch(`${base}/metrics`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  expect(response.status).toBe(200);
  return parseExposition(await response.text());
}

const samples = (families: Families, name: string, labels: Record<string, string>) =>
  (families.get(name)?.metrics ?? []).filter((sample) =>
    Object.entries(labels).every(([key, value]) => sample.labels?.[key] === value),
  );
/** A counter's or gauge's value, summed over the series matching `labels` (0 when there is none yet). */
const value = (families: Families, name: string, labels: Record<string, string> = {}) =>
  samples(families, name, labels).reduce((sum, sample) => sum + Number(sample.value), 0);
/** How many observations a histogram holds (its `_count`), summed over the series matching `labels`. */
const observations = (families: Families, name: string, labels: Record<string, string> = {}) => {
  expect(families.get(name)?.type, name).toBe("HISTOGRAM");
  return value(families, `${name}_count`, labels);
};

const WEB_SRC = new URL("../../web/src/", import.meta.url);

/** One of the web app's own operations, as the app sends it: from web/src/**\/*.graphql with its fragments. */
async function webOperation(name: string): Promise<string> {
  const files = (await readdir(WEB_SRC, { recursive: true })).filter((file) => file.endsWith(".graphql"));
  const definitions = (
    await Promise.all(files.map(async (file) => parse(await readFile(new URL(file, WEB_SRC), "utf8"))))
  ).flatMap((document) => document.definitions);
  const fragments = new Map(
    definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const operation = definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION && d.name?.value === name);
  if (!operation) throw new Error(`web/src has no operation ${name}`);
  const needed = new Map<string, FragmentDefinitionNode>();
  const collect = (node: ASTNode) =>
    visit(node, {
      FragmentSpread(spread) {
        const fragment = fragments.get(spread.name.value);
        if (!fragment || needed.has(fragment.name.value)) return;
        needed.set(fragment.name.value, fragment);
        collect(fragment);
      },
    });
  collect(operation);
  return [operation, ...needed.values()].map((d) => print(d)).join("\n\n");
}

async function graphql(
  base: string,
  query: string,
  operationName: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  requestId: string | null;
  body: { data?: unknown; errors?: GraphQLErrorBody[] };
}> {
  const response = await fetch(`${base}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ query, operationName }),
  });
  return {
    status: response.status,
    requestId: response.headers.get("x-request-id"),
    body: (await response.json()) as { data?: unknown; errors?: GraphQLErrorBody[] },
  };
}
interface GraphQLErrorBody {
  message: string;
  extensions?: { code?: string; requestId?: string };
}

describe("/metrics after a small load", () => {
  it("counts the requests, operations, errors and PocketBase calls that were made, and reads the queues", async () => {
    const [appShell, homeNews, notifications] = await Promise.all(
      ["AppShell", "HomeNews", "Notifications"].map(webOperation),
    );
    const before = await scrape(url);

    for (let i = 0; i < 3; i++) {
      const shell = await graphql(url, appShell!, "AppShell");
      expect(shell.body.errors).toBeUndefined();
    }
    const news = await graphql(url, homeNews!, "HomeNews");
    expect(news.body.errors).toBeUndefined();
    // Any name a client makes up is counted as "other": it never becomes a label value.
    const madeUp = await graphql(url, "query MadeUpReport { settings { churchName } }", "MadeUpReport");
    expect(madeUp.body.errors).toBeUndefined();
    // A member's query asked by a visitor: an error with its code.
    const refused = await graphql(url, notifications!, "Notifications");
    const code = refused.body.errors?.[0]?.extensions?.code;
    expect(code).toBe("UNAUTHENTICATED");
    expect((await fetch(`${url}/assets/app-abc.js`)).status).toBe(200);
    expect((await fetch(`${url}/healthz`)).status).toBe(200);

    const POST_GRAPHQL = { method: "POST", route: "graphql", status: "2xx" };
    // A response is counted when it closes, a moment after the client has read it.
    let after = await scrape(url);
    await vi.waitFor(
      async () => {
        after = await scrape(url);
        const http = value(after, "flock_http_requests_total", POST_GRAPHQL);
        expect(http - value(before, "flock_http_requests_total", POST_GRAPHQL)).toBe(6);
      },
      { timeout: 5000 },
    );
    const delta = (name: string, labels: Record<string, string>) =>
      value(after, name, labels) - value(before, name, labels);
    const observed = (name: string, labels: Record<string, string>) =>
      observations(after, name, labels) - observations(before, name, labels);

    // HTTP: by method, route class and status class; every request timed.
    expect(observed("flock_http_request_duration_seconds", POST_GRAPHQL)).toBe(6);
    expect(delta("flock_http_requests_total", { method: "GET", route: "static", status: "2xx" })).toBe(1);
    expect(delta("flock_http_requests_total", { method: "GET", route: "health", status: "2xx" })).toBe(1);
    expect(delta("flock_http_requests_total", { route: "app" })).toBe(0);

    // GraphQL: the web app's operations by name, anything else as "other", errors by code.
    const operations = "flock_graphql_operations_total";
    expect(delta(operations, { operation: "AppShell", outcome: "ok" })).toBe(3);
    expect(delta(operations, { operation: "HomeNews", outcome: "ok" })).toBe(1);
    expect(delta(operations, { operation: "other", outcome: "ok" })).toBe(1);
    expect(delta(operations, { operation: "Notifications", outcome: "error" })).toBe(1);
    expect(delta(operations, { outcome: "error" })).toBe(1);
    expect(delta("flock_graphql_errors_total", { code: "UNAUTHENTICATED" })).toBe(1);
    expect(observed("flock_graphql_operation_duration_seconds", { operation: "AppShell" })).toBe(3);
    expect(observed("flock_graphql_operation_duration_seconds", {})).toBe(6);
    const labelValues = [...after.values()].flatMap((family) =>
      family.metrics.flatMap((sample) => Object.values(sample.labels ?? {})),
    );
    expect(labelValues).not.toContain("MadeUpReport");

    // A histogram's buckets are cumulative and end in its count.
    const buckets = samples(after, "flock_graphql_operation_duration_seconds_bucket", {
      operation: "AppShell",
    });
    expect(buckets.length).toBeGreaterThan(2);
    const counts = buckets.map((bucket) => Number(bucket.value));
    expect(counts).toEqual([...counts].sort((a, b) => a - b));
    expect(buckets.at(-1)!.labels!.le).toBe("+Inf");
    expect(counts.at(-1)).toBe(
      value(after, "flock_graphql_operation_duration_seconds_count", { operation: "AppShell" }),
    );

    // PocketBase calls, by method, path template and status class: the news list read its records.
    const records = { method: "GET", path: "/api/collections/:collection/records", status: "2xx" };
    expect(observed("flock_pocketbase_request_duration_seconds", records)).toBeGreaterThanOrEqual(1);
    const paths = samples(after, "flock_pocketbase_request_duration_seconds_count", {}).map(
      (s) => s.labels!.path!,
    );
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^\/api(\/(:?[a-z-]+))*$/);

    // Queue depths, read as the system: what PocketBase counts now (this file's pending mail among them).
    const su = await system();
    const pending = async (queue: string) =>
      (await su.collection(queue).getList(1, 1, { filter: 'status = "pending"' })).totalItems;
    expect(value(after, "flock_queue_depth", { queue: "mail_outbox" })).toBeGreaterThanOrEqual(1);
    expect(value(after, "flock_queue_depth", { queue: "mail_outbox" })).toBe(await pending("mail_outbox"));
    expect(samples(after, "flock_queue_depth", { queue: "webhook_deliveries" })).toHaveLength(1);
    expect(value(after, "flock_queue_depth", { queue: "webhook_deliveries" })).toBe(
      await pending("webhook_deliveries"),
    );

    // The process's own metrics: CPU, memory, event-loop lag.
    for (const name of [
      "process_cpu_user_seconds_total",
      "process_resident_memory_bytes",
      "nodejs_heap_size_used_bytes",
      "nodejs_eventloop_lag_seconds",
    ])
      expect(after.has(name), name).toBe(true);
  });

  it("counts job runs in the metrics of the gateway that runs them; two gateways in one process count apart", async () => {
    const run = (g: Gateway, job: string, outcome: "ran" | "skipped" | "failed") =>
      runInScope({ metrics: g.services.metrics, requestId: null }, () => recordJobRun(job, outcome));
    run(gateway, "metrics-test", "ran");
    run(gateway, "metrics-test", "ran");
    run(gateway, "metrics-test", "skipped");
    run(other, "metrics-test", "failed");
    const [mine, theirs] = [await scrape(url), await scrape(`http://127.0.0.1:${otherPort}`, null)];
    const job = (families: Families, outcome: string) =>
      value(families, "flock_job_runs_total", { job: "metrics-test", outcome });
    expect([job(mine, "ran"), job(mine, "skipped"), job(mine, "failed")]).toEqual([2, 1, 0]);
    expect([job(theirs, "ran"), job(theirs, "skipped"), job(theirs, "failed")]).toEqual([0, 0, 1]);
    // B served none of A's load.
    expect(value(theirs, "flock_graphql_operations_total", { operation: "AppShell" })).toBe(0);
  });

  it("shows the open event streams and the realtime bridge's subscriptions", async () => {
    const base = `http://127.0.0.1:${otherPort}`;
    const sse = (families: Families) => [
      value(families, "flock_sse_clients"),
      value(families, "flock_realtime_subscriptions"),
    ];
    expect(sse(await scrape(base, null))).toEqual([0, 0]);
    const client = new GraphQLSseClient({ url: base, query: WALL_SUBSCRIPTION });
    try {
      await client.open();
      await vi.waitFor(async () => expect(sse(await scrape(base, null))).toEqual([1, 1]), { timeout: 5000 });
    } finally {
      client.close();
    }
    await vi.waitFor(async () => expect(sse(await scrape(base, null))).toEqual([0, 0]), { timeout: 5000 });
  });
});

describe("who may read /metrics", () => {
  it("with METRICS_TOKEN: only a request bearing it", async () => {
    const none = await fetch(`${url}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect(await none.text()).not.toMatch(/flock_|process_/);
    const wrong = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}x` } });
    expect(wrong.status).toBe(401);
    const right = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(right.status).toBe(200);
    expect(right.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
    expect(await right.text()).toMatch(/^# HELP flock_/m);
    expect(
      (await fetch(`${url}/metrics`, { method: "POST", headers: { authorization: `Bearer ${TOKEN}` } }))
        .status,
    ).toBe(405);
  });

  it("without a token: this machine only, never a request a proxy forwarded", async () => {
    const base = `http://127.0.0.1:${otherPort}`;
    expect((await fetch(`${base}/metrics`)).status).toBe(200);
    for (const header of ["x-forwarded-for", "forwarded", "x-real-ip"]) {
      const forwarded = await fetch(`${base}/metrics`, { headers: { [header]: "198.51.100.7" } });
      expect(forwarded.status, header).toBe(403);
      expect(await forwarded.text()).toMatch(/METRICS_TOKEN/);
    }
  });

  // The machine's own non-loopback address reaches B (listening on every interface) from outside loopback.
  const outside = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === "IPv4" && !address.internal)?.address;
  it.skipIf(!outside)(`without a token: refused to another address (${outside})`, async () => {
    expect((await fetch(`http://${outside}:${otherPort}/metrics`)).status).toBe(403);
    expect((await fetch(`http://${outside}:${otherPort}/healthz`)).status).toBe(200);
  });
});

describe("/readyz beside /healthz", () => {
  it("answers 200 once the gateway has started and PocketBase answers", async () => {
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  it("answers 503 starting until the gateway has finished starting", async () => {
    const starting = createGateway(testConfig());
    const base = await listening(starting);
    const answer = await fetch(`${base}/readyz`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ status: "unavailable", reason: "starting" });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await prepareGateway(starting);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
  });

  it("answers 503 draining while the gateway closes, and still serves meanwhile", async () => {
    const draining = await testGateway({ shutdownDrainMs: 1500 });
    const base = await listening(draining);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const closing = closeNow(draining);
    const answer = await fetch(`${base}/readyz`);
    expect(answer.status).toBe(503);
    expect(await answer.json()).toEqual({ status: "unavailable", reason: "draining" });
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    await closing;
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
  });

  it("answers 503 while PocketBase is down (within the check's cache), 200 again once it is back", async () => {
    const pocketbase = await DedicatedPocketBase.start();
    try {
      const { gateway: own, url: base } = await pocketbase.gateway();
      started.push(own);
      expect((await fetch(`${base}/readyz`)).status).toBe(200);
      await pocketbase.kill();
      await vi.waitFor(
        async () => {
          const answer = await fetch(`${base}/readyz`);
          expect(answer.status).toBe(503);
          expect(await answer.json()).toEqual({ status: "unavailable", reason: "pocketbase_unreachable" });
        },
        { timeout: 5000, interval: 200 },
      );
      expect((await fetch(`${base}/healthz`)).status).toBe(200);
      await pocketbase.restart();
      await vi.waitFor(async () => expect((await fetch(`${base}/readyz`)).status).toBe(200), {
        timeout: 5000,
        interval: 200,
      });
      await closeNow(own);
    } finally {
      await pocketbase.stop();
    }
  });
});

describe("request ids", () => {
  const idOf = async (headers: Record<string, string> = {}) =>
    (await fetch(`${url}/healthz`, { headers })).headers.get("x-request-id");

  it("echoes a sane X-Request-Id and makes one up when it is absent or junk", async () => {
    expect(await idOf({ "x-request-id": "req-abc_123.XYZ:9" })).toBe("req-abc_123.XYZ:9");
    expect(await idOf({ "x-request-id": "x".repeat(128) })).toBe("x".repeat(128));
    expect(await idOf()).toMatch(UUID);
    const generated = new Set<string | null>();
    for (const junk of ["x".repeat(129), "has space", "tab\there", "{\u00e9}"]) {
      const id = await idOf({ "x-request-id": junk });
      expect(id, JSON.stringify(junk)).toMatch(UUID);
      generated.add(id);
    }
    expect(generated.size).toBe(4);
  });

  describe("passed on to PocketBase", () => {
    let proxy: Server;
    let traced: Gateway;
    let base: string;
    /** What PocketBase was sent through the proxy: path and X-Request-Id. */
    const seen: Array<{ path: string; requestId: string | undefined }> = [];

    beforeAll(async () => {
      // A recording proxy in front of this worker's PocketBase; a request with the id "fail-me" gets a 500.
      const target = new URL(pbUrl());
      proxy = createServer((req, res) => {
        const requestId = req.headers["x-request-id"] as string | undefined;
        seen.push({ path: req.url ?? "", requestId });
        if (requestId === "fail-me" && req.url?.startsWith("/api/collections/")) {
          res
            .writeHead(500, { "content-type": "application/json" })
            .end(JSON.stringify({ status: 500, message: "boom", data: {} }));
          return;
        }
        const upstream = httpRequest(
          {
            host: target.hostname,
            port: target.port,
            path: req.url,
            method: req.method,
            headers: req.headers,
          },
          (answer) => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          },
        );
        upstream.on("error", () => res.destroy());
        req.pipe(upstream);
      });
      await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
      const { port } = proxy.address() as { port: number };
      traced = createGateway(testConfig({ pbUrl: `http://127.0.0.1:${port}` }));
      await prepareGateway(traced);
      base = await listening(traced);
    });

    afterAll(async () => {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
    });

    it("on every call made for the request, the caller's id or the one made up", async () => {
      const homeNews = await webOperation("HomeNews");
      const given = await graphql(base, homeNews, "HomeNews", { "x-request-id": "trace-me-42" });
      expect(given.body.errors).toBeUndefined();
      expect(given.requestId).toBe("trace-me-42");
      const calls = seen.filter((call) => call.requestId === "trace-me-42");
      expect(calls.length).toBeGreaterThanOrEqual(1);
      expect(calls.every((call) => call.path.startsWith("/api/"))).toBe(true);

      const made = await graphql(base, homeNews, "HomeNews");
      expect(made.requestId).toMatch(UUID);
      expect(seen.filter((call) => call.requestId === made.requestId).length).toBeGreaterThanOrEqual(1);
      // The same reads for the two requests: each call carried its own request's id.
      expect(seen.filter((call) => call.requestId === made.requestId).length).toBe(calls.length);
    });

    it("names the request in a masked error and in its log line", async () => {
      const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
      try {
        const failed = await graphql(base, await webOperation("HomeNews"), "HomeNews", {
          "x-request-id": "fail-me",
        });
        expect(failed.body.errors?.[0]?.extensions).toEqual({
          code: "INTERNAL_SERVER_ERROR",
          requestId: "fail-me",
        });
        expect(logged.mock.calls.some((args) => String(args[0]).includes("fail-me"))).toBe(true);
      } finally {
        logged.mockRestore();
      }
    });
  });
});
