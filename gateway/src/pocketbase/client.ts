import PocketBase from "pocketbase";
import { pocketBaseFetch } from "./http-fetch.ts";

/**
 * A PocketBase client for one request, acting as the caller (their token, or a guest). Never shared
 * between requests: the SDK's auth store is per instance. Auto-cancellation is off because two
 * resolvers may read the same collection at once.
 */
export function createUserClient(pbUrl: string, token: string | null): PocketBase {
  const pb = new PocketBase(pbUrl);
  pb.autoCancellation(false);
  pb.beforeSend = (url, options) => ({ url, options: { ...options, fetch: pocketBaseFetch } });
  if (token) pb.authStore.save(token, null);
  return pb;
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

  constructor(
    private readonly pbUrl: string,
    private readonly credentials: SuperuserCredentials,
  ) {}

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
