import { Mailer } from "./mail/mailer.ts";
import { brandFrom } from "./mail/brand.ts";
import { RealtimeBridge } from "./realtime/bridge.ts";
import { createServer, type IncomingMessage, type ServerResponse, type Server } from "node:http";
import type { GatewayConfig, LeasedJob } from "./config.ts";
import type { GatewayServices, ServerContext } from "./context.ts";
import { createGatewayYoga, MAX_JSON_REQUEST_BYTES, MAX_UPLOAD_REQUEST_BYTES } from "./yoga.ts";
import { SystemClient, createUserClient } from "./pocketbase/client.ts";
import { ApiTokens } from "./access/api-tokens.ts";
import { endedCredentials } from "./realtime/credentials.ts";
import { robotsTxt, sitemap } from "./http/feeds.ts";
import { createRateLimiter } from "./session/rate-limiter.ts";
import { TrustedDevices } from "./session/trusted-device.ts";
import { signUpsSettled } from "./schema/auth/resolvers.ts";
import { SettingsEvents } from "./system/settings-events.ts";
import { ViewerCache } from "./session/viewer-cache.ts";
import { PublicSettings } from "./system/public-settings.ts";
import { securityHeaders } from "./http/security-headers.ts";
import { sendStaticFile, StaticFiles } from "./http/static.ts";
import { proxyFile } from "./http/files-proxy.ts";
import { callerCredential, refuseCredential } from "./http/caller-credential.ts";
import { CORE_PAGES, metaForPath } from "./http/route-meta.ts";
import { developerGuideHtml, GUIDE_PATH } from "./http/developer-guide.ts";
import type { Route, RouteKit } from "./http/route-table.ts";
import { FEATURE_HTTP } from "./schema/routes.ts";
import { DocumentValidators, notModified } from "./http/conditional.ts";
import { renderAppHtml } from "./http/app-html.ts";
import { syncPocketBaseSettings } from "./system/pocketbase-settings.ts";
import { startScheduledPublishing } from "./system/scheduled-publishing.ts";
import { startPrayerExpiry } from "./system/prayer-expiry.ts";
import { startServingReminders } from "./system/serving-reminders.ts";
import { startWebhookDelivery } from "./system/webhooks.ts";
import { MailOutbox } from "./system/mail-outbox.ts";
import { composePromotion } from "./schema/events/mails.ts";
import { startStaffDigest } from "./system/staff-digest.ts";
import { JobLeases, replicaId } from "./system/job-leases.ts";
import { AudioUploads } from "./http/audio-uploads.ts";
import { StripeProvider } from "./payments/stripe.ts";
import { typeDefs } from "./schema/__generated__/typeDefs.ts";
import { GatewayMetrics, pendingQueueRows, routeClass } from "./observability/metrics.ts";
import { Readiness, serveMetrics, serveReadiness } from "./observability/endpoints.ts";
import { requestIdFrom, runInScope, type Scope } from "./observability/scope.ts";
import { log } from "./observability/log.ts";

/** Where the merged SDL is served: the committed schema.graphql, byte for byte (also in production). */
export const SCHEMA_PATH = "/graphql/schema.graphql";

export interface Gateway {
  server: Server;
  yoga: ReturnType<typeof createGatewayYoga>;
  services: GatewayServices;
  /** What /readyz answers: started, not draining, PocketBase up (observability/endpoints.ts). */
  readiness: Readiness;
  listen(): Promise<string>;
  close(): Promise<void>;
}

/** True when PocketBase answers its health check within two seconds. */
export async function pocketBaseReady(pbUrl: string): Promise<boolean> {
  try {
    const response = await fetch(`${pbUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * The path without trailing slashes ("/news/" → "/news"), and with one leading slash: "//evil.example/"
 * must never become a Location that browsers read as another host.
 */
export function withoutTrailingSlash(pathname: string): string {
  if (!/.\/$/.test(pathname)) return pathname;
  return `/${pathname.replace(/^\/+/, "").replace(/\/+$/, "")}`;
}

function clientIp(req: IncomingMessage, trustProxy: boolean): string {
  const forwarded = req.headers["x-forwarded-for"];
  if (trustProxy && typeof forwarded === "string") return forwarded.split(",")[0]!.trim();
  return req.socket.remoteAddress ?? "unknown";
}

/**
 * Refuse an oversized GraphQL request from its Content-Length before reading it (Yoga's own
 * streaming body limit is off: it cost ~10% of the gateway's CPU, measured with `npm run bench`).
 * Multipart uploads may be as large as the largest allowed file; the multipart parser enforces the
 * per-file limits. Bodies without a length (chunked) are refused: browsers and SDKs always send one.
 */
function bodySizeAcceptable(req: IncomingMessage, res: ServerResponse): boolean {
  if (req.method !== "POST") return true;
  const length = Number(req.headers["content-length"]);
  const multipart = String(req.headers["content-type"] ?? "").startsWith("multipart/form-data");
  const limit = multipart ? MAX_UPLOAD_REQUEST_BYTES : MAX_JSON_REQUEST_BYTES;
  if (!req.headers["content-length"] || !Number.isFinite(length)) {
    res.writeHead(411, { "content-type": "application/json" }).end(
      JSON.stringify({
        errors: [{ message: "Content-Length required.", extensions: { code: "BAD_REQUEST" } }],
      }),
    );
    return false;
  }
  if (length > limit) {
    res.writeHead(413, { "content-type": "application/json", connection: "close" });
    res.end(
      JSON.stringify({
        errors: [
          {
            message: "The request is too large.",
            extensions: { code: "PAYLOAD_TOO_LARGE", maxBytes: limit },
          },
        ],
      }),
    );
    return false;
  }
  return true;
}

/** How long an idle keep-alive connection stays open (above the 60 s proxies and load balancers keep). */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

/** Builds the gateway: one origin for the app, /graphql, /files, /healthz and /readyz. */
/**
 * The gateway for a configuration. `options.server`: a server already listening on the gateway's port
 * (listenEarly, bound before migrations and seeding); the gateway takes over its requests, and
 * `listen()` then only starts the system jobs.
 */
export function createGateway(config: GatewayConfig, options: { server?: Server } = {}): Gateway {
  const publicSettings = new PublicSettings(config.pbUrl);
  const viewerCache = new ViewerCache();
  const system = new SystemClient(config.pbUrl, config.superuser);
  const mailer = new Mailer(config, async () => brandFrom(await publicSettings.get(), config.publicUrl));
  // Read when scraped: the queues as the system, the realtime bridge's counts.
  const metrics = new GatewayMetrics({
    queueDepths: () => pendingQueueRows(system),
    realtime: () => services.realtime.stats(),
  });
  const readiness = new Readiness(() => pocketBaseReady(config.pbUrl));
  const services: GatewayServices = {
    config,
    system,
    apiTokens: new ApiTokens(system),
    limiter: createRateLimiter(config.redis ?? null),
    trustedDevices: new TrustedDevices(config.superuser),
    settingsEvents: new SettingsEvents(config.pbUrl),
    viewerCache,
    publicSettings,
    mailer,
    mailOutbox: new MailOutbox(system, mailer),
    realtime: new RealtimeBridge(config.pbUrl, {
      checkCredentials: (credentials) => endedCredentials(system, credentials),
    }),
    audioUploads: new AudioUploads(config.pbUrl, viewerCache, config.uploadDir, config.uploadDirMaxBytes),
    payments: config.payments ? new StripeProvider(config.payments) : null,
    metrics,
  };
  services.settingsEvents.onChange((record) => services.publicSettings.set(record));
  // A promotion's row is queued by PocketBase's events hook; the events feature writes its mail.
  services.mailOutbox.compose("event.promoted", (row) => composePromotion(services, row.registration));
  const yoga = createGatewayYoga(services);
  const headers = securityHeaders(config.production);
  const publicOrigin = new URL(config.publicUrl).origin;
  /** A PocketBase client without a token: what anyone may read (feeds, sitemap, page meta). */
  const guest = () => createUserClient(config.pbUrl, null);

  /** Feeds, sitemap and robots.txt: generated per request from what a guest may read; 304 when unchanged. */
  const documentValidators = new DocumentValidators();
  async function serveDocument(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    type: string,
    body: Promise<string>,
  ): Promise<void> {
    const text = await body;
    const { etag, lastModified } = documentValidators.validators(path, text);
    const validators = {
      etag,
      "last-modified": lastModified.toUTCString(),
      "cache-control": "public, max-age=300",
    };
    if (notModified(req, etag, lastModified)) {
      res.writeHead(304, { ...headers, ...validators }).end();
      return;
    }
    res
      .writeHead(200, { ...headers, ...validators, "content-type": type })
      .end(req.method === "HEAD" ? undefined : text);
  }
  const staticFiles = config.webDist ? new StaticFiles(config.webDist) : null;
  const kit: RouteKit = { config, services, headers, publicOrigin, guest, serveDocument };
  /** Every page the app's HTML describes: the gateway's own, then each feature's. */
  const pages = [...CORE_PAGES, ...FEATURE_HTTP.flatMap((feature) => feature.pages ?? [])];

  async function serveApp(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    if (!staticFiles) {
      res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    const file = url.pathname === "/" ? null : await staticFiles.get(url.pathname);
    if (file) {
      sendStaticFile(req, res, file, headers);
      return;
    }
    if (url.pathname.startsWith("/assets/")) {
      res.writeHead(404, { ...headers, "content-type": "text/plain; charset=utf-8" }).end("Not found");
      return;
    }
    // Single-page app fallback: the built index.html with this page's title and meta tags.
    const settings = await services.publicSettings.get();
    const meta = await metaForPath(url.pathname, { settings, guest: guest(), origin: publicOrigin }, pages);
    const html = renderAppHtml(
      await staticFiles.template(),
      meta,
      settings,
      new URL(url.pathname, config.publicUrl),
    );
    res.writeHead(meta.found ? 200 : 404, {
      ...headers,
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-cache",
    });
    res.end(req.method === "HEAD" ? undefined : html);
  }

  const exact =
    (...paths: string[]) =>
    (url: URL) =>
      paths.includes(url.pathname);

  /** Every path the gateway answers, in the order they are tried: the first match handles the request. */
  const routes: Route[] = [
    {
      match: exact("/graphql", "/graphql/stream"),
      async handle(req, res) {
        if (!bodySizeAcceptable(req, res)) return;
        // The listener passes extra arguments on as the server context (its typings omit that).
        const listener = yoga.requestListener as unknown as (
          req: IncomingMessage,
          res: ServerResponse,
          context: ServerContext,
        ) => Promise<void>;
        const later: Array<() => void> = [];
        let ran = false;
        const runLater = () => {
          if (ran) return;
          ran = true;
          for (const run of later) run();
        };
        // "close" follows "finish", and also comes when the client goes away: the work runs either way.
        res.once("close", runLater);
        await listener(req, res, {
          clientIp: clientIp(req, config.trustProxy),
          afterResponse: (run) => (ran ? setImmediate(run) : later.push(run)),
        });
      },
    },
    {
      // The contract for integrators and client generators; introspection is off in production.
      match: exact(SCHEMA_PATH),
      async handle(req, res, url) {
        if (req.method !== "GET" && req.method !== "HEAD") {
          res.writeHead(405, { allow: "GET, HEAD" }).end();
          return;
        }
        await serveDocument(req, res, url.pathname, "text/plain; charset=utf-8", Promise.resolve(typeDefs));
      },
    },
    {
      // The API guide (docs/API.md) as HTML, for the /developers page.
      match: exact(GUIDE_PATH),
      async handle(req, res, url) {
        if (req.method !== "GET" && req.method !== "HEAD") {
          res.writeHead(405, { allow: "GET, HEAD" }).end();
          return;
        }
        await serveDocument(
          req,
          res,
          url.pathname,
          "text/html; charset=utf-8",
          developerGuideHtml(publicOrigin),
        );
      },
    },
    {
      match: exact("/healthz"),
      handle(_req, res) {
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ status: "ok" }));
      },
    },
    {
      match: exact("/readyz"),
      handle: (_req, res) => serveReadiness(res, readiness),
    },
    {
      // Prometheus metrics: for the cluster's scraper, never the church's visitors (observability/endpoints.ts).
      match: exact("/metrics"),
      handle: (req, res) => serveMetrics(req, res, metrics, config.metricsToken ?? null),
    },
    {
      match: exact("/sitemap.xml"),
      handle: (req, res, url) =>
        serveDocument(
          req,
          res,
          url.pathname,
          "application/xml; charset=utf-8",
          sitemap(guest(), publicOrigin),
        ),
    },
    {
      match: exact("/robots.txt"),
      handle: (req, res, url) =>
        serveDocument(
          req,
          res,
          url.pathname,
          "text/plain; charset=utf-8",
          Promise.resolve(robotsTxt(publicOrigin)),
        ),
    },
    // Each feature's routes (feeds, calendars, uploads, downloads): schema/<feature>/routes.ts.
    ...FEATURE_HTTP.flatMap((feature) => feature.routes?.(kit) ?? []),
    {
      match: (url) => url.pathname.startsWith("/files/"),
      handle: async (req, res, url) => {
        const credential = await callerCredential(req, services);
        if (credential.kind === "invalid") return refuseCredential(res, headers);
        await proxyFile(req, res, url, config.pbUrl, credential.kind === "valid" ? credential.pbToken : null);
      },
    },
    // Everything else is the app: GET/HEAD only, one URL per page, then a built file or index.html.
    {
      match: () => true,
      async handle(req, res, url) {
        if (req.method !== "GET" && req.method !== "HEAD") {
          res.writeHead(405, { allow: "GET, HEAD" }).end();
          return;
        }
        const canonical = withoutTrailingSlash(url.pathname);
        if (canonical !== url.pathname) {
          // "/news/" and "/p/about/" are the same pages as "/news" and "/p/about": one URL each for search engines.
          res
            .writeHead(301, {
              ...headers,
              location: canonical + url.search,
              "cache-control": "public, max-age=3600",
            })
            .end();
          return;
        }
        await serveApp(req, res, url);
      },
    },
  ];

  async function handle(req: IncomingMessage, res: ServerResponse, scope: Scope): Promise<void> {
    const url = new URL(req.url ?? "/", "http://gateway.local");
    const route = routes.find((candidate) => candidate.match(url))!;
    scope.route = routeClass(url.pathname, route === routes.at(-1));
    // Feeds are read as a guest (or by their own link), but a credential sent with them must be valid:
    // an invalid one is refused as GraphQL refuses it, never served as a visitor (/files checks its own).
    if (url.pathname.startsWith("/feeds/")) {
      const credential = await callerCredential(req, services);
      if (credential.kind === "invalid") return refuseCredential(res, headers);
    }
    await route.handle(req, res, url);
  }

  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    // Every request has an id (the caller's X-Request-Id when sane): in the answer, in the log lines and
    // on the PocketBase calls made for it (observability/scope.ts).
    const requestId = requestIdFrom(req.headers["x-request-id"]);
    const scope: Scope = { metrics, requestId };
    res.setHeader("x-request-id", requestId);
    metrics.observeRequest(req, res, scope);
    runInScope(scope, () =>
      handle(req, res, scope).catch((error: unknown) => {
        log.error("request failed", { component: "http", method: req.method, url: req.url, error });
        if (!res.headersSent) {
          res.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "5" });
        }
        res.end("The server is temporarily unavailable. Please try again.");
      }),
    );
  };
  const server = options.server ?? createServer();
  // An early server answered "starting" until now: from here on, the gateway answers.
  server.removeAllListeners("request");
  server.on("request", onRequest);
  // Long-lived SSE subscriptions must not be cut by Node's default timeouts.
  server.requestTimeout = 0;
  server.headersTimeout = 30_000;
  // Idle keep-alive connections stay open 65 s: a member thinks 2.5–7.5 s between pages and proxies keep
  // theirs 60 s, and Node's 5 s default closed connections as clients reused them (ECONNRESET under
  // the Sunday load). The headers timeout counts from a request's first byte, not from the idle time.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;

  let stopScheduler: (() => void) | null = null;
  let stopPrayerExpiry: (() => void) | null = null;
  let stopServingReminders: (() => void) | null = null;
  let stopStaffDigest: (() => void) | null = null;
  let stopWebhooks: (() => void) | null = null;
  let stopMailOutbox: (() => void) | null = null;
  /** The gateway's own work outside requests (its jobs): counted in its metrics. */
  const jobScope: Scope = { metrics, requestId: null };
  return {
    server,
    yoga,
    services,
    readiness,
    listen: () =>
      new Promise((resolve, reject) => {
        const started = () => {
          // Each run on one replica only (the job's lease), however many run beside this one.
          const leases = new JobLeases(services.system, replicaId(config.port));
          const job = (name: LeasedJob) => ({ intervalMs: config.jobIntervalsMs?.[name], leases });
          stopScheduler = startScheduledPublishing(services.system, job("scheduler"));
          stopPrayerExpiry = startPrayerExpiry(services.system, job("prayer-expiry"));
          stopServingReminders = startServingReminders(services, job("serving-reminders"));
          stopStaffDigest = startStaffDigest(services, job("staff-digest"));
          if (config.webhookDelivery !== false)
            stopWebhooks = startWebhookDelivery(services, config.webhookDelivery);
          stopMailOutbox = services.mailOutbox.start(config.mailOutbox);
          services.audioUploads.start();
          const address = server.address();
          const port = typeof address === "object" && address ? address.port : config.port;
          resolve(`http://${config.host === "0.0.0.0" ? "localhost" : config.host}:${port}`);
        };
        const startedInScope = () =>
          runInScope(jobScope, () => {
            started();
            readiness.markListening();
          });
        if (server.listening) return startedInScope();
        server.once("error", reject);
        server.listen(config.port, config.host, startedInScope);
      }),
    close: async () => {
      // Not ready from now on; load balancers get SHUTDOWN_DRAIN_SECONDS to stop sending before the close.
      readiness.markDraining();
      if (config.shutdownDrainMs) await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
      metrics.release();
      return new Promise((resolve) => {
        stopScheduler?.();
        stopPrayerExpiry?.();
        stopServingReminders?.();
        stopWebhooks?.();
        stopMailOutbox?.();
        stopStaffDigest?.();
        services.audioUploads.stop();
        void services.realtime.close();
        void services.limiter.close();
        server.closeAllConnections();
        // Sign-ups answered already finish their work (account or owner mail) before the process goes.
        server.close(() => void signUpsSettled().then(resolve));
      });
    },
  };
}

/** Startup system job: point PocketBase's mailer and links at this church and this gateway. */
export async function prepareGateway(gateway: Gateway): Promise<void> {
  const { system, config } = gateway.services;
  const settings = await gateway.services.publicSettings.get();
  await syncPocketBaseSettings(await system.get(), config, settings);
  gateway.readiness.markPrepared();
}
