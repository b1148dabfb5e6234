import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { GatewayMetrics } from "./metrics.ts";

/*
 * GET /metrics and GET /readyz (docs/DEPLOYMENT.md "Observability"). /healthz, the liveness check,
 * stays in server.ts: it asks nothing of anyone.
 */

/** How long /readyz reuses its PocketBase health check: probes and monitors asking at once cost one check. */
export const READINESS_CACHE_MS = 1_000;

export type NotReadyReason = "starting" | "draining" | "pocketbase_unreachable";

/**
 * Whether the gateway should be sent traffic: it has finished starting (its system client signed in and
 * the church's settings loaded: prepareGateway; its jobs started: listen), it is not shutting down, and
 * PocketBase answers its health check now (checked at most once per READINESS_CACHE_MS).
 */
export class Readiness {
  private prepared = false;
  private listening = false;
  private draining = false;
  private check: { at: number; up: Promise<boolean> } | null = null;

  private readonly pocketBaseUp: () => Promise<boolean>;
  private readonly cacheMs: number;

  constructor(pocketBaseUp: () => Promise<boolean>, cacheMs = READINESS_CACHE_MS) {
    this.pocketBaseUp = pocketBaseUp;
    this.cacheMs = cacheMs;
  }

  markPrepared(): void {
    this.prepared = true;
  }

  markListening(): void {
    this.listening = true;
  }

  /** Shutting down: not ready from now on, whatever PocketBase says. */
  markDraining(): void {
    this.draining = true;
  }

  async notReadyBecause(): Promise<NotReadyReason | null> {
    if (this.draining) return "draining";
    if (!this.prepared || !this.listening) return "starting";
    const at = Date.now();
    if (!this.check || at - this.check.at >= this.cacheMs)
      this.check = { at, up: this.pocketBaseUp().catch(() => false) };
    if (!(await this.check.up)) return "pocketbase_unreachable";
    // Draining may have begun while PocketBase was asked.
    return this.draining ? "draining" : null;
  }
}

const NO_STORE = { "content-type": "application/json", "cache-control": "no-store" };

export async function serveReadiness(res: ServerResponse, readiness: Readiness): Promise<void> {
  const reason = await readiness.notReadyBecause();
  res
    .writeHead(reason ? 503 : 200, NO_STORE)
    .end(JSON.stringify(reason ? { status: "unavailable", reason } : { status: "ready" }));
}

/** 127.0.0.0/8 and ::1, also as IPv4-mapped IPv6 addresses. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4) || address === "::1";
}

/** Headers a reverse proxy adds: a request carrying one came from elsewhere, whatever socket it arrived on. */
const FORWARDING_HEADERS = ["x-forwarded-for", "forwarded", "x-real-ip"];

const digest = (text: string) => createHash("sha256").update(text).digest();

export type MetricsAccess = "allowed" | "unauthorized" | "forbidden";

/**
 * Who may read /metrics: with METRICS_TOKEN set, whoever sends it as `Authorization: Bearer <token>`
 * (compared in constant time); without one, only a request from this machine (a loopback address) that
 * no proxy forwarded — a reverse proxy on the same machine passes the church's visitors on from
 * loopback too, but says so in X-Forwarded-For / Forwarded / X-Real-IP.
 */
export function metricsAccess(
  req: Pick<IncomingMessage, "headers"> & { socket: { remoteAddress?: string | undefined } },
  token: string | null,
): MetricsAccess {
  if (token) {
    const sent = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1]?.trim() ?? "";
    return timingSafeEqual(digest(sent), digest(token)) ? "allowed" : "unauthorized";
  }
  const forwarded = FORWARDING_HEADERS.some((name) => req.headers[name] !== undefined);
  return isLoopback(req.socket.remoteAddress) && !forwarded ? "allowed" : "forbidden";
}

export async function serveMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  metrics: GatewayMetrics,
  token: string | null,
): Promise<void> {
  if (req.method !== "GET" && req.method !== "HEAD") {
    res.writeHead(405, { allow: "GET, HEAD" }).end();
    return;
  }
  const access = metricsAccess(req, token);
  if (access !== "allowed") {
    const text =
      access === "unauthorized"
        ? "Metrics need the bearer token (METRICS_TOKEN).\n"
        : "Metrics are served to this machine only; set METRICS_TOKEN to scrape them from elsewhere.\n";
    res
      .writeHead(access === "unauthorized" ? 401 : 403, {
        "content-type": "text/plain; charset=utf-8",
        "cache-control": "no-store",
        ...(access === "unauthorized" ? { "www-authenticate": 'Bearer realm="metrics"' } : {}),
      })
      .end(text);
    return;
  }
  const { contentType, body } = await metrics.exposition();
  res
    .writeHead(200, { "content-type": contentType, "cache-control": "no-store" })
    .end(req.method === "HEAD" ? undefined : body);
}
