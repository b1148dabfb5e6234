import type PocketBase from "pocketbase";
import { ClientResponseError } from "pocketbase";
import type { YogaInitialContext } from "graphql-yoga";
import type { GatewayConfig } from "./config.ts";
import { createUserClient, type SystemClient } from "./pocketbase/client.ts";
import type { UserRecord } from "./pocketbase/records.ts";
import { readCookie, sessionCookie, tokenAgeSeconds } from "./session/cookie.ts";
import type { RateLimiter } from "./session/rate-limiter.ts";
import type { TrustedDevices } from "./session/trusted-device.ts";
import { SESSION } from "@flock/shared/limits";
import { serviceUnavailable } from "./errors.ts";
import type { SettingsEvents } from "./system/settings-events.ts";
import type { ViewerCache } from "./session/viewer-cache.ts";
import type { PublicSettings } from "./system/public-settings.ts";
import type { Mailer } from "./mail/mailer.ts";
import type { MailOutbox } from "./system/mail-outbox.ts";
import type { BridgeViewer, RealtimeBridge } from "./realtime/bridge.ts";
import { userCredential } from "./realtime/credentials.ts";
import type { AudioUploads } from "./http/audio-uploads.ts";
import type { ApiIdentity, ApiTokens } from "./access/api-tokens.ts";
import type { PaymentProvider } from "./payments/provider.ts";
import type { GatewayMetrics } from "./observability/metrics.ts";

/** Long-lived services shared by every request of one gateway process. */
export interface GatewayServices {
  config: GatewayConfig;
  system: SystemClient;
  /** API tokens' machine identities (access/api-tokens.ts). */
  apiTokens: ApiTokens;
  limiter: RateLimiter;
  /** Signed device cookies that keep an owner's own sign-in allowance (session/trusted-device.ts). */
  trustedDevices: TrustedDevices;
  settingsEvents: SettingsEvents;
  viewerCache: ViewerCache;
  publicSettings: PublicSettings;
  /** Mail the gateway sends itself (PocketBase sends verification and reset mail). */
  mailer: Mailer;
  /** Event mail, queued in the database and sent once (system/mail-outbox.ts). */
  mailOutbox: MailOutbox;
  /** GraphQL subscriptions over PocketBase realtime, one connection per viewer (realtime/bridge.ts). */
  realtime: RealtimeBridge;
  /** Sermon audio staged on disk by the resumable upload endpoint (http/audio-uploads.ts). */
  audioUploads: AudioUploads;
  /** Online giving's payment provider (payments/), or null when the church has not set one up. */
  payments: PaymentProvider | null;
  /** This gateway's Prometheus metrics (observability/metrics.ts, served at /metrics). */
  metrics: GatewayMetrics;
}

/** What the HTTP server passes per request (tests pass a fixed clientIp). */
export interface ServerContext {
  clientIp?: string;
  /** Run work once the response has gone out (the HTTP server passes this; in-process callers get the next tick). */
  afterResponse?: (run: () => void) => void;
}

/**
 * The caller's session: the PocketBase token from the httpOnly cookie (browsers) or an
 * `Authorization: Bearer` header (integrators). Cookies to set are collected here and added to
 * the response by the session plugin.
 */
export class Session {
  readonly outgoingCookies: string[] = [];

  token: string | null;
  readonly fromCookie: boolean;
  private readonly secure: boolean;

  constructor(token: string | null, fromCookie: boolean, secure: boolean) {
    this.token = token;
    this.fromCookie = fromCookie;
    this.secure = secure;
  }

  /** Start or renew the browser session with a new token. */
  signIn(token: string): void {
    this.token = token;
    this.outgoingCookies.push(sessionCookie(token, this.secure));
  }

  signOut(): void {
    this.token = null;
    this.outgoingCookies.push(sessionCookie(null, this.secure));
  }
}

export interface GatewayContext extends YogaInitialContext, GatewayServices {
  /** PocketBase as the caller: their token, so PocketBase's API rules decide. */
  pb: PocketBase;
  session: Session;
  clientIp: string;
  /**
   * Run work after the response is sent, so that the answer's timing cannot depend on it (sign-up
   * answers a taken address exactly like a new one).
   */
  afterResponse(run: () => void): void;
  /** The signed-in user with roles and person expanded, or null (resolved once per request). */
  viewer(): Promise<UserRecord | null>;
  /** Point `pb` at a new token after sign-in within the same request. */
  actAs(token: string | null): void;
  /** The API token's client when the request carries one (then there is no viewer). */
  apiClient: ApiIdentity | null;
  /**
   * Who a subscription listens as on PocketBase's realtime stream (so its rules filter the events):
   * the signed-in user, an API token's client, or a guest.
   */
  realtimeIdentity(): Promise<BridgeViewer>;
}

const sessions = new WeakMap<Request, Session>();
export const sessionOf = (request: Request) => sessions.get(request);

/** The API client a request's token was checked to be (set by the api-token plugin in yoga.ts). */
const apiIdentities = new WeakMap<Request, ApiIdentity>();
export const setApiIdentity = (request: Request, identity: ApiIdentity) =>
  apiIdentities.set(request, identity);
export const apiIdentityOf = (request: Request) => apiIdentities.get(request);

export function createContextFactory(services: GatewayServices) {
  return (initial: YogaInitialContext & ServerContext): GatewayContext => {
    const { request } = initial;
    const apiClient = apiIdentityOf(request);
    const bearer =
      request.headers
        .get("authorization")
        ?.replace(/^Bearer\s+/i, "")
        .trim() || null;
    const cookieToken = readCookie(request.headers.get("cookie"), SESSION.cookieName);
    // An API token acts as its client's PocketBase identity; cookies are ignored on such requests.
    const session = apiClient
      ? new Session(apiClient.pbToken, false, services.config.production)
      : new Session(bearer ?? cookieToken, !bearer && !!cookieToken, services.config.production);
    sessions.set(request, session);

    let viewerPromise: Promise<UserRecord | null> | null = null;
    const clientIp = initial.clientIp ?? "unknown";
    const context: GatewayContext = {
      ...initial,
      ...services,
      session,
      clientIp,
      afterResponse: initial.afterResponse ?? ((run) => void setImmediate(run)),
      pb: createUserClient(services.config.pbUrl, session.token, clientIp),
      apiClient: apiClient ?? null,
      async realtimeIdentity() {
        if (apiClient)
          return {
            token: apiClient.pbToken,
            credential: { kind: "api", clientId: apiClient.client.id },
          };
        const guest = { token: null, credential: null };
        const viewer = await context.viewer();
        // A token PocketBase refused (viewer null) listens as a guest.
        if (!viewer || !session.token) return guest;
        // The stream is tied to the session it was opened with, and ends with it (realtime/credentials.ts).
        const credential = await userCredential(
          services.system,
          services.config.pbUrl,
          viewer.id,
          session.token,
        );
        return credential ? { token: session.token, credential } : guest;
      },
      actAs(token) {
        context.pb = createUserClient(services.config.pbUrl, token, clientIp);
        viewerPromise = null;
      },
      viewer() {
        // An API client is not a person: no viewer, only what its scopes let PocketBase show it.
        if (apiClient) return Promise.resolve(null);
        viewerPromise ??= resolveViewer(context);
        return viewerPromise;
      },
    };
    return context;
  };
}

/**
 * Ask PocketBase who the token belongs to (auth-refresh verifies it and returns a fresh token;
 * remembered briefly in the viewer cache).
 * A browser session older than an hour gets the fresh token, which makes the 7-day lifetime slide.
 * A token PocketBase refuses ends the browser session.
 */
async function resolveViewer(context: GatewayContext): Promise<UserRecord | null> {
  const { session, viewerCache } = context;
  const token = session.token;
  if (!token) return null;
  let user: UserRecord;
  let freshToken: string;
  const cached = viewerCache.get(token);
  if (cached) {
    ({ user, freshToken } = cached);
  } else {
    try {
      const auth = await context.pb.collection("users").authRefresh<UserRecord>({ expand: "roles,person" });
      ({ record: user, token: freshToken } = auth);
      viewerCache.set(token, user, freshToken);
    } catch (error) {
      if (error instanceof ClientResponseError && error.status >= 400 && error.status < 500) {
        if (session.fromCookie) session.signOut();
        context.pb.authStore.clear();
        return null;
      }
      if (error instanceof ClientResponseError && (error.status === 0 || error.status >= 502))
        throw serviceUnavailable();
      throw error;
    }
  }
  if (session.fromCookie && tokenAgeSeconds(token) > SESSION.refreshAfterSeconds) {
    session.signIn(freshToken);
    context.pb.authStore.save(freshToken, null);
  }
  return user;
}
