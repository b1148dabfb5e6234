import PocketBase from "pocketbase";
import { sdkFetch } from "./http-fetch.ts";

/**
 * Sign-in calls keep the gateway's own address: PocketBase's new-login alert fingerprints the IP, and
 * with members' addresses it would mail them on every new network (the gateway throttles sign-in).
 */
const KEEP_GATEWAY_IP = /\/auth-with-/;

/**
 * A PocketBase client for one request, acting as the caller (their token, or a guest). Never shared
 * between requests: the SDK's auth store is per instance. Auto-cancellation is off because two
 * resolvers may read the same collection at once.
 *
 * `clientIp` goes to PocketBase as `X-Forwarded-For`, which it trusts as the real IP (TrustedProxy,
 * set by system/pocketbase-settings.ts), so its per-IP protections see clients, not the gateway.
 * Realtime connections (realtime/bridge.ts) never carry it: one connection serves a viewer on several
 * devices, and PocketBase refuses a subscription from an IP other than the connection's.
 */
export function createUserClient(pbUrl: string, token: string | null, clientIp?: string): PocketBase {
  const pb = new PocketBase(pbUrl);
  pb.autoCancellation(false);
  const forwardIp = clientIp && isIp(clientIp) ? clientIp : null;
  pb.beforeSend = (url, options) => {
    if (forwardIp && !KEEP_GATEWAY_IP.test(url)) {
      options.headers = {
        ...(options.headers as Record<string, string> | undefined),
        "x-forwarded-for": forwardIp,
      };
    }
    return { url, options: { ...options, fetch: sdkFetch } };
  };
  if (token) pb.authStore.save(token, null);
  return pb;
}

/** An IPv4 or IPv6 address (what PocketBase parses from the header; anything else is not sent). */
export function isIp(value: string): boolean {
  return /^(\d{1,3}\.){3}\d{1,3}$/.test(value) || (/^[0-9a-f:.]+$/i.test(value) && value.includes(":"));
}

export interface SuperuserCredentials {
  email: string;
  password: string;
}

/**
 * The system account's client, for system jobs only (provisioning a sign-up's person, revoking
 * sessions, syncing PocketBase's mail settings, seeding, resolving an account manager's email search
 * to ids). It never serves a user's read.
 * Re-authenticates when its token is missing or near expiry.
 */
export class SystemClient {
  private client: PocketBase | null = null;
  private authenticating: Promise<PocketBase> | null = null;

  private readonly pbUrl: string;
  private readonly credentials: SuperuserCredentials;

  constructor(pbUrl: string, credentials: SuperuserCredentials) {
    this.pbUrl = pbUrl;
    this.credentials = credentials;
  }

  async get(): Promise<PocketBase> {
    if (this.client?.authStore.isValid) return this.client;
    this.authenticating ??= (async () => {
      const pb = createUserClient(this.pbUrl, null);
      await pb.collection("_superusers").authWithPassword(this.credentials.email, this.credentials.password);
      this.client = pb;
      return pb;
    })().finally(() => {
      this.authenticating = null;
    });
    return this.authenticating;
  }
}
