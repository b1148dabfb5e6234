import type { IncomingMessage, ServerResponse } from "node:http";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { SystemClient } from "../pocketbase/client.ts";
import {
  metricsInScope,
  releaseUnscopedMetrics,
  setUnscopedMetrics,
  type JobOutcome,
  type Scope,
  type ScopeMetrics,
} from "./scope.ts";

/*
 * The gateway's Prometheus metrics (GET /metrics, docs/DEPLOYMENT.md "Observability"). Each gateway has
 * a registry of its own (never prom-client's global one), so two gateways in one process count apart;
 * the process's own metrics (CPU, memory, event-loop lag, GC) are one set per process, shared by every
 * gateway in it. Every label's values come from a fixed set: a client can never add a series.
 */

export type { JobOutcome } from "./scope.ts";

/** Seconds: a request or an operation, from a few milliseconds to a slow report. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Seconds: a PocketBase call, usually a millisecond or two on the same machine. */
const POCKETBASE_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5];

/** How long a scrape reuses the queue depths it read, and how long it waits for them. */
export const QUEUE_DEPTH_CACHE_MS = 5_000;
const QUEUE_DEPTH_TIMEOUT_MS = 2_000;

/** The durable queues whose pending rows are counted (system/mail-outbox.ts, system/webhooks.ts). */
export const QUEUES = ["mail_outbox", "webhook_deliveries"] as const;
export type QueueName = (typeof QUEUES)[number];

/** What the metrics read at scrape time from the gateway's services. */
export interface MetricsSources {
  /** Pending rows per queue, read as the system. */
  queueDepths(): Promise<Record<QueueName, number>>;
  /** The realtime bridge's open PocketBase connections and GraphQL subscriptions. */
  realtime(): { connections: number; subscribers: number };
}

let processRegistry: Registry | null = null;
/** The process's metrics (prom-client's default set), started once per process. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);
const methodLabel = (method: string | undefined) => (method && METHODS.has(method) ? method : "other");

/** "2xx", "4xx"…; "error" when no answer came (PocketBase unreachable, a timeout). */
export function statusClass(status: number | null): string {
  if (status === null || !Number.isFinite(status) || status < 100 || status > 599) return "error";
  return `${Math.floor(status / 100)}xx`;
}

/** The auth and record actions a collection's path may name (PocketBase's API). */
const COLLECTION_ACTIONS = new Set([
  "records",
  "auth-methods",
  "auth-refresh",
  "auth-with-password",
  "auth-with-oauth2",
  "auth-with-otp",
  "request-otp",
  "request-verification",
  "confirm-verification",
  "request-password-reset",
  "confirm-password-reset",
  "request-email-change",
  "confirm-email-change",
  "impersonate",
  "truncate",
]);
/** PocketBase's own API areas whose paths are kept as they are (ids in them become :param). */
const API_AREAS = new Set(["health", "settings", "batch", "realtime", "backups", "logs", "crons", "flock"]);
/** A path segment of the gateway's own routes under /api/flock/ (pb_hooks): words, never ids. */
const ROUTE_WORD = /^[a-z]+(-[a-z]+)*$/;

/**
 * A PocketBase URL as a path template, the metrics' `path` label: collection names, record ids and file
 * names become `:collection`, `:id`, `:file`, so that the label has a bounded set of values.
 * `/api/collections/people/records/abc123?filter=…` → `/api/collections/:collection/records/:id`.
 */
export function pocketBasePathTemplate(url: string): string {
  let pathname: string;
  try {
    pathname = new URL(url, "http://pocketbase.local").pathname;
  } catch {
    return "other";
  }
  const at = pathname.indexOf("/api/");
  if (at < 0) return "other";
  const [area, ...rest] = pathname
    .slice(at + "/api/".length)
    .split("/")
    .filter(Boolean);
  if (!area) return "/api";
  const segments: string[] = [];
  if (area === "collections") {
    const [collection, action, id, ...more] = rest;
    if (collection !== undefined) segments.push(":collection");
    if (action !== undefined) segments.push(COLLECTION_ACTIONS.has(action) ? action : ":action");
    if (id !== undefined) segments.push(":id");
    if (more.length) segments.push(":param");
  } else if (area === "files") {
    if (rest.length === 1 && rest[0] === "token") segments.push("token");
    else segments.push(...[":collection", ":id", ":file"].slice(0, rest.length));
    if (rest.length > 3) segments.push(":param");
  } else if (API_AREAS.has(area)) {
    for (const segment of rest.slice(0, 4))
      segments.push(area === "flock" && ROUTE_WORD.test(segment) ? segment : ":param");
  } else {
    return "/api/:area";
  }
  return ["/api", area, ...segments].join("/");
}

/**
 * A request's route class, the HTTP metrics' `route` label. `app`: the request fell through to the app
 * (server.ts's last route), where a path with a file extension or under /assets/ is a built file.
 */
export function routeClass(pathname: string, app: boolean): string {
  if (app) return pathname.startsWith("/assets/") || /\.[A-Za-z0-9]+$/.test(pathname) ? "static" : "app";
  if (pathname === "/graphql" || pathname === "/graphql/stream") return "graphql";
  if (pathname === "/healthz" || pathname === "/readyz") return "health";
  if (pathname === "/metrics") return "metrics";
  if (pathname.startsWith("/files/")) return "files";
  if (pathname.startsWith("/feeds/") || pathname === "/sitemap.xml" || pathname === "/robots.txt")
    return "feeds";
  if (pathname.startsWith("/uploads/")) return "uploads";
  return "other";
}

/** Pending rows per durable queue, counted by PocketBase as the system (one small list call each). */
export async function pendingQueueRows(system: SystemClient): Promise<Record<QueueName, number>> {
  const pb = await system.get();
  const counts = await Promise.all(
    QUEUES.map(
      async (queue) =>
        (await pb.collection(queue).getList(1, 1, { filter: 'status = "pending"', fields: "id" })).totalItems,
    ),
  );
  return Object.fromEntries(QUEUES.map((queue, i) => [queue, counts[i]!])) as Record<QueueName, number>;
}

const isEventStream = (res: ServerResponse) =>
  res.headersSent && String(res.getHeader("content-type") ?? "").startsWith("text/event-stream");

/** One request's timer: a high-resolution start in seconds. */
const now = () => performance.now() / 1000;

export class GatewayMetrics implements ScopeMetrics {
  readonly registry = new Registry();
  private readonly inFlight = new Set<ServerResponse>();
  private readonly sources: MetricsSources;
  private queueDepthCache: { at: number; depths: Promise<Record<QueueName, number> | null> } | null = null;

  private readonly httpRequests: Counter<"method" | "route" | "status">;
  private readonly httpDuration: Histogram<"method" | "route" | "status">;
  private readonly graphqlOperations: Counter<"operation" | "outcome">;
  private readonly graphqlDuration: Histogram<"operation">;
  private readonly graphqlErrors: Counter<"code">;
  private readonly pocketBaseDuration: Histogram<"method" | "path" | "status">;
  private readonly jobRuns: Counter<"job" | "outcome">;

  constructor(sources: MetricsSources) {
    this.sources = sources;
    processMetrics();
    const registers = [this.registry];
    // A gauge's collect() runs with the gauge as `this`: what it reads is taken from here.
    const inFlight = this.inFlight;
    const readQueueDepths = () => this.queueDepths();
    this.httpRequests = new Counter({
      name: "flock_http_requests_total",
      help: "HTTP requests answered, by method, route class (graphql, static, app, files, feeds, uploads, health, metrics, other) and status class (aborted: the client left before an answer).",
      labelNames: ["method", "route", "status"],
      registers,
    });
    this.httpDuration = new Histogram({
      name: "flock_http_request_duration_seconds",
      help: "Time from a request's arrival to the end of its answer, by method, route class and status class (event streams are counted, not timed).",
      labelNames: ["method", "route", "status"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    new Gauge({
      name: "flock_http_requests_in_flight",
      help: "HTTP requests being answered now (open event streams included).",
      registers,
      collect() {
        this.set(inFlight.size);
      },
    });
    new Gauge({
      name: "flock_sse_clients",
      help: "Open server-sent event streams (GraphQL subscriptions' connections).",
      registers,
      collect() {
        this.set([...inFlight].filter(isEventStream).length);
      },
    });
    new Gauge({
      name: "flock_realtime_connections",
      help: "The realtime bridge's open PocketBase realtime connections (one per viewer, one for all guests).",
      registers,
      collect() {
        this.set(sources.realtime().connections);
      },
    });
    new Gauge({
      name: "flock_realtime_subscriptions",
      help: "GraphQL subscriptions the realtime bridge is feeding.",
      registers,
      collect() {
        this.set(sources.realtime().subscribers);
      },
    });
    this.graphqlOperations = new Counter({
      name: "flock_graphql_operations_total",
      help: 'GraphQL operations, by operation name (the web app\'s own operations by name, any other "other") and outcome (ok, error: the result carried errors).',
      labelNames: ["operation", "outcome"],
      registers,
    });
    this.graphqlDuration = new Histogram({
      name: "flock_graphql_operation_duration_seconds",
      help: "Time from a GraphQL request's parameters to its result, by operation name (as flock_graphql_operations_total).",
      labelNames: ["operation"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.graphqlErrors = new Counter({
      name: "flock_graphql_errors_total",
      help: "Errors in GraphQL results, by their extensions.code (docs/API.md's error codes; UNKNOWN without one).",
      labelNames: ["code"],
      registers,
    });
    this.pocketBaseDuration = new Histogram({
      name: "flock_pocketbase_request_duration_seconds",
      help: "Calls from the gateway to PocketBase, by method, path template and status class (error: no answer).",
      labelNames: ["method", "path", "status"],
      buckets: POCKETBASE_BUCKETS,
      registers,
    });
    new Gauge({
      name: "flock_queue_depth",
      help: `Pending rows of the durable queues (mail_outbox, webhook_deliveries), read at scrape time (reused for ${QUEUE_DEPTH_CACHE_MS / 1000} s); absent when PocketBase did not answer.`,
      labelNames: ["queue"],
      registers,
      async collect() {
        const depths = await readQueueDepths();
        this.reset();
        if (depths) for (const queue of QUEUES) this.set({ queue }, depths[queue]);
      },
    });
    this.jobRuns = new Counter({
      name: "flock_job_runs_total",
      help: "Runs of the periodic system jobs, by job and outcome (ran; skipped: another replica holds it; failed).",
      labelNames: ["job", "outcome"],
      registers,
    });
    setUnscopedMetrics(this);
  }

  /** The text a scrape gets: this gateway's metrics, then the process's. */
  async exposition(): Promise<{ contentType: string; body: string }> {
    const own = await this.registry.metrics();
    const shared = await processMetrics().metrics();
    return { contentType: this.registry.contentType, body: `${own}\n${shared}` };
  }

  /** Counts and times a request when its response closes; `scope.route` is read then. */
  observeRequest(req: IncomingMessage, res: ServerResponse, scope: Scope): void {
    const started = now();
    this.inFlight.add(res);
    res.once("close", () => {
      this.inFlight.delete(res);
      const labels = {
        method: methodLabel(req.method),
        route: scope.route ?? "other",
        status: res.headersSent ? statusClass(res.statusCode) : "aborted",
      };
      this.httpRequests.inc(labels);
      // An event stream lasts as long as the tab is open: its length says nothing about latency.
      if (!isEventStream(res)) this.httpDuration.observe(labels, now() - started);
    });
  }

  graphqlOperation(operation: string, outcome: "ok" | "error", seconds: number | null): void {
    this.graphqlOperations.inc({ operation, outcome });
    if (seconds !== null) this.graphqlDuration.observe({ operation }, seconds);
  }

  graphqlError(code: string): void {
    this.graphqlErrors.inc({ code });
  }

  pocketBaseCall(method: string, url: string, status: number | null, seconds: number): void {
    this.pocketBaseDuration.observe(
      {
        method: methodLabel(method.toUpperCase()),
        path: pocketBasePathTemplate(url),
        status: statusClass(status),
      },
      seconds,
    );
  }

  jobRun(job: string, outcome: JobOutcome): void {
    this.jobRuns.inc({ job, outcome });
  }

  /** The queue depths, read at most every QUEUE_DEPTH_CACHE_MS and waited for at most 2 s (null: unknown). */
  private queueDepths(): Promise<Record<QueueName, number> | null> {
    const at = Date.now();
    if (this.queueDepthCache && at - this.queueDepthCache.at < QUEUE_DEPTH_CACHE_MS)
      return this.queueDepthCache.depths;
    let timer: NodeJS.Timeout | undefined;
    const depths = Promise.race([
      this.sources.queueDepths(),
      new Promise<null>((resolve) => {
        timer = setTimeout(() => resolve(null), QUEUE_DEPTH_TIMEOUT_MS).unref();
      }),
    ])
      .catch(() => null)
      .finally(() => clearTimeout(timer));
    this.queueDepthCache = { at, depths };
    // An unknown depth is asked again at the next scrape.
    void depths.then((known) => {
      if (!known && this.queueDepthCache?.depths === depths) this.queueDepthCache = null;
    });
    return depths;
  }

  /** The gateway closed: work outside any scope no longer counts here. */
  release(): void {
    releaseUnscopedMetrics(this);
  }
}

/**
 * Counts one run of a periodic job (system/periodic-job.ts calls it after each tick) in the metrics of
 * the gateway that runs it: `flock_job_runs_total{job, outcome}`.
 */
export function recordJobRun(job: string, outcome: JobOutcome): void {
  metricsInScope()?.jobRun(job, outcome);
}
