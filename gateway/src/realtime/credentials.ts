import { ClientResponseError } from "pocketbase";
import { createUserClient, type SystemClient } from "../pocketbase/client.ts";
import { orChains } from "../pocketbase/filters.ts";

/**
 * What an open event stream lives by (QUALITY.md I4, issue 23): PocketBase fixes a realtime
 * connection's identity when it subscribes and never looks at it again, so a revoked API token, a
 * signed-out session or a suspended account would keep hearing changes. Each credentialed stream
 * carries its credential, and the bridge ends the streams whose credential ended (see
 * `endedCredentials`): everything checked is read from the database, so nothing here must survive a
 * restart or be shared between gateway processes.
 */
export type StreamCredential =
  | {
      kind: "user";
      userId: string;
      /**
       * users.sessionKeyHash when the stream's token was verified: the SHA-256 of the tokenKey PocketBase
       * signs the user's tokens with (kept by pb_hooks/sessions.pb.js; tokenKey itself is never readable).
       */
      sessionKeyHash: string;
      /** When the stream's session token expires (ms since the epoch). */
      expiresAt: number;
    }
  | { kind: "api"; clientId: string };

/** Milliseconds since the epoch at which a JWT expires (0 when unreadable). */
export function tokenExpiresAt(token: string): number {
  try {
    const payload = JSON.parse(Buffer.from(token.split(".")[1] ?? "", "base64url").toString("utf8")) as {
      exp?: unknown;
    };
    return typeof payload.exp === "number" ? payload.exp * 1000 : 0;
  } catch {
    return 0;
  }
}

/** The stable part of a credential: streams with equal keys share one PocketBase connection. */
export const credentialKey = (credential: StreamCredential) =>
  credential.kind === "user"
    ? `user:${credential.userId}:${credential.sessionKeyHash.slice(0, 16)}`
    : `api:${credential.clientId}`;

/**
 * The credential of a user's stream, or null when PocketBase no longer accepts `token` (the stream then
 * listens as a guest). The key's hash is read first and the token verified after it: a key rotated in
 * between makes the stream end at the next check rather than outlive it.
 */
export async function userCredential(
  system: SystemClient,
  pbUrl: string,
  userId: string,
  token: string,
): Promise<StreamCredential | null> {
  const su = await system.get();
  const user = await su
    .collection("users")
    .getOne<{ sessionKeyHash?: string; status?: string }>(userId, { fields: "id,sessionKeyHash,status" });
  if (!user.sessionKeyHash || user.status === "suspended") return null;
  try {
    await createUserClient(pbUrl, token).collection("users").authRefresh();
  } catch (error) {
    if (error instanceof ClientResponseError && error.status >= 400 && error.status < 500) return null;
    throw error;
  }
  return { kind: "user", userId, sessionKeyHash: user.sessionKeyHash, expiresAt: tokenExpiresAt(token) };
}

/**
 * Which of `credentials` have ended, read from the database in one list call per 100 users and per
 * 100 API clients: a user gone (anonymised), suspended, whose tokenKey changed (sign-out, password
 * change, revoked sessions) or whose session token expired; an API client gone, revoked or expired.
 */
export async function endedCredentials(
  system: SystemClient,
  credentials: StreamCredential[],
  now = Date.now(),
): Promise<StreamCredential[]> {
  const users = credentials.filter((c) => c.kind === "user");
  const clients = credentials.filter((c) => c.kind === "api");
  const su = await system.get();
  const rows = async <T extends { id: string }>(collection: string, ids: string[], fields: string) => {
    const found = new Map<string, T>();
    const clauses = [...new Set(ids)].map((id) => su.filter("id = {:id}", { id }));
    for (const filter of orChains(clauses)) {
      for (const row of await su.collection(collection).getFullList<T>({ filter, fields, batch: 200 }))
        found.set(row.id, row);
    }
    return found;
  };
  const ended: StreamCredential[] = [];
  if (users.length) {
    const found = await rows<{ id: string; sessionKeyHash?: string; status?: string }>(
      "users",
      users.map((u) => u.userId),
      "id,sessionKeyHash,status",
    );
    for (const credential of users) {
      const user = found.get(credential.userId);
      if (
        !user ||
        user.status === "suspended" ||
        user.sessionKeyHash !== credential.sessionKeyHash ||
        credential.expiresAt <= now
      )
        ended.push(credential);
    }
  }
  if (clients.length) {
    const found = await rows<{ id: string; revokedAt?: string; expiresAt?: string }>(
      "api_clients",
      clients.map((c) => c.clientId),
      "id,revokedAt,expiresAt",
    );
    for (const credential of clients) {
      const client = found.get(credential.clientId);
      const expiresAt = client?.expiresAt ? Date.parse(client.expiresAt.replace(" ", "T")) : Infinity;
      if (!client || client.revokedAt || expiresAt <= now) ended.push(credential);
    }
  }
  return ended;
}
