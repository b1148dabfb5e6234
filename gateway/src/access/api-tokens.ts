import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { ClientResponseError } from "pocketbase";
import type { SystemClient } from "../pocketbase/client.ts";
import type { ApiClientRecord } from "../pocketbase/records.ts";
import { toPocketBaseDate } from "../pocketbase/dates.ts";

/**
 * API tokens (issue 16): `flock_<client id>_<secret>`. The client id names the machine identity (an
 * `api_clients` auth record); the secret is 32 random bytes, base64url, of which PocketBase keeps only
 * the SHA-256. A request bearing a token acts as that identity: the gateway checks the secret, then
 * calls PocketBase with an impersonation token of the client, so PocketBase's API rules decide what
 * it reads (its scopes) — never what the person who created it may see.
 */
export const API_TOKEN_PREFIX = "flock_";
const TOKEN = /^flock_([a-z0-9]{15})_([A-Za-z0-9_-]{43})$/;
/** Requests per token: 600 a minute (a lobby screen polling every few seconds uses a tenth). */
export const API_TOKEN_RATE = { limit: 600, windowMs: 60_000 } as const;
/** How long an impersonation token lives, and how long before its end a new one is asked for. */
const IMPERSONATION_SECONDS = 30 * 60;
const RENEW_BEFORE_MS = 5 * 60 * 1000;
/** The "last used" time and address are written at most this often per client. */
const LAST_USED_EVERY_MS = 60 * 1000;

export const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** A new secret and what is stored of it. */
export function newSecret(): { secret: string; secretHash: string } {
  const secret = randomBytes(32).toString("base64url");
  return { secret, secretHash: hashSecret(secret) };
}

export const formatApiToken = (clientId: string, secret: string) =>
  `${API_TOKEN_PREFIX}${clientId}_${secret}`;

/** Whether a bearer credential is one of ours (well-formed or not): such requests are never guests. */
export const isApiToken = (bearer: string | null): bearer is string => !!bearer?.startsWith(API_TOKEN_PREFIX);

export function parseApiToken(value: string): { clientId: string; secret: string } | null {
  const match = TOKEN.exec(value);
  return match ? { clientId: match[1]!, secret: match[2]! } : null;
}

/**
 * The one answer to a token that is not valid, for GraphQL (yoga.ts) and the routes outside it
 * (http/caller-credential.ts): 401 with this message and these headers.
 */
export const INVALID_API_TOKEN = {
  message: "This API token is not valid: it is unknown, revoked or expired.",
  headers: { "www-authenticate": 'Bearer error="invalid_token"', "cache-control": "no-store" },
} as const;

/**
 * The only mutations an API token may call, each with the scope it needs (docs/API.md: a token writes
 * nothing without a write scope). Everything else a token sends as a mutation is FORBIDDEN before any
 * resolver runs (yoga.ts#useTokenWrites) — forms that visitors may use (a prayer request, a visit, an
 * RSVP, "I prayed") included: a token is a machine identity, not a visitor. PocketBase's rules say the
 * same (pb_migrations/1732573200_token_writes.js).
 */
export const TOKEN_MUTATIONS: Readonly<Record<string, ApiClientRecord["scopes"][number]>> = {
  createPost: "content.write",
  updatePost: "content.write",
  // A registered check-in station (schema/checkin/stations.ts): its family check-ins, checkouts with
  // the code, first-time families and the codes it holds for working offline.
  checkIn: "checkin.station",
  checkOut: "checkin.station",
  addCheckinFamily: "checkin.station",
  holdCheckinCodes: "checkin.station",
};

/** Whether a client with `scopes` may call the mutation field `name`. */
export const tokenMayCall = (name: string, scopes: readonly string[]) => {
  const scope = TOKEN_MUTATIONS[name];
  return !!scope && scopes.includes(scope);
};

/** Why a token was refused (the answer is the same 401 for all; the reason is for logs and tests). */
export type TokenRefusal = "malformed" | "unknown" | "revoked" | "expired";

export interface ApiIdentity {
  client: ApiClientRecord;
  /** The PocketBase token the request acts with. */
  pbToken: string;
}

/** Checks bearer tokens and hands out the PocketBase identity of each client. */
export class ApiTokens {
  private readonly impersonations = new Map<string, { token: string; until: number }>();
  private readonly lastUsedWritten = new Map<string, number>();

  private readonly system: SystemClient;
  private readonly now: () => number;

  constructor(system: SystemClient, now: () => number = Date.now) {
    this.system = system;
    this.now = now;
  }

  /**
   * The identity behind `bearer`, or why it is refused. The client is read on every request, so a
   * revoked or expired token stops working at once, in every gateway process.
   */
  async authenticate(bearer: string): Promise<ApiIdentity | TokenRefusal> {
    const parsed = parseApiToken(bearer);
    if (!parsed) return "malformed";
    const pb = await this.system.get();
    let client: ApiClientRecord;
    try {
      // secretHash is hidden from the API; superusers see it only when asked for by name.
      client = await pb
        .collection("api_clients")
        .getOne<ApiClientRecord>(parsed.clientId, { fields: "*,secretHash" });
    } catch (error) {
      if (error instanceof ClientResponseError && error.status === 404) return "unknown";
      throw error;
    }
    const stored = Buffer.from(client.secretHash ?? "", "hex");
    const given = Buffer.from(hashSecret(parsed.secret), "hex");
    if (stored.length !== given.length || !timingSafeEqual(stored, given)) return "unknown";
    if (client.revokedAt) return "revoked";
    if (client.expiresAt && Date.parse(client.expiresAt.replace(" ", "T")) <= this.now()) return "expired";
    return { client, pbToken: await this.impersonationOf(client.id) };
  }

  /**
   * Records when and from where a client was last used (at most once a minute; after the response),
   * in its own api_client_usage row: never a write to the client's record (see the migration).
   */
  async touch(client: ApiClientRecord, ip: string): Promise<void> {
    const last = this.lastUsedWritten.get(client.id) ?? 0;
    if (this.now() - last < LAST_USED_EVERY_MS) return;
    this.lastUsedWritten.set(client.id, this.now());
    const pb = await this.system.get();
    const usage = {
      lastUsedAt: toPocketBaseDate(new Date(this.now()).toISOString()),
      lastUsedIp: ip.slice(0, 64),
    };
    const existing = await pb
      .collection("api_client_usage")
      .getList(1, 1, { filter: pb.filter("client = {:c}", { c: client.id }), fields: "id", skipTotal: true });
    if (existing.items[0]) await pb.collection("api_client_usage").update(existing.items[0].id, usage);
    else await pb.collection("api_client_usage").create({ client: client.id, ...usage });
  }

  /** Forget a client's PocketBase token (after revoking it). */
  forget(clientId: string): void {
    this.impersonations.delete(clientId);
  }

  private async impersonationOf(clientId: string): Promise<string> {
    const cached = this.impersonations.get(clientId);
    if (cached && cached.until - RENEW_BEFORE_MS > this.now()) return cached.token;
    const pb = await this.system.get();
    const client = await pb.collection("api_clients").impersonate(clientId, IMPERSONATION_SECONDS);
    const token = client.authStore.token;
    this.impersonations.set(clientId, { token, until: this.now() + IMPERSONATION_SECONDS * 1000 });
    return token;
  }
}
