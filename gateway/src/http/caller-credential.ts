import type { IncomingMessage, ServerResponse } from "node:http";
import { ClientResponseError } from "pocketbase";
import { SESSION } from "@flock/shared/limits";
import type { GatewayServices } from "../context.ts";
import { INVALID_API_TOKEN, isApiToken } from "../access/api-tokens.ts";
import { ErrorCode } from "../errors.ts";
import { createUserClient } from "../pocketbase/client.ts";
import type { UserRecord } from "../pocketbase/records.ts";
import { readCookie } from "../session/cookie.ts";

/**
 * Who calls a route outside GraphQL (/files, /feeds): nobody (a visitor), a credential PocketBase
 * accepts (the token to act with), or a Bearer credential that is not valid — which is refused with
 * 401, as GraphQL refuses an invalid API token, never served as a visitor (issue 23, item 8): an
 * integrator whose token was revoked learns it instead of silently reading less.
 *
 * A session cookie PocketBase refuses is a visitor's, as in GraphQL (which also ends that cookie). Here
 * it is neither refused nor cleared: a page's images still in flight with the cookie from before a
 * sign-in would otherwise answer 401 and clear the new session's cookie (seen in the sign-in e2e).
 */
export type CallerCredential = { kind: "none" } | { kind: "valid"; pbToken: string } | { kind: "invalid" };

const bearerOf = (header: string | undefined) =>
  typeof header === "string" ? header.replace(/^Bearer\s+/i, "").trim() || null : null;

/** Session checks in flight, per token: a page's burst of images costs one auth-refresh. */
const checking = new Map<string, Promise<boolean>>();

/**
 * Whether PocketBase accepts a session token: the viewer cache first (what GraphQL remembered of it),
 * else an auth-refresh, remembered there the same way.
 */
function sessionValid(token: string, services: GatewayServices): Promise<boolean> {
  if (services.viewerCache.get(token)) return Promise.resolve(true);
  let check = checking.get(token);
  if (!check) {
    check = createUserClient(services.config.pbUrl, token)
      .collection("users")
      .authRefresh<UserRecord>({ expand: "roles,person" })
      .then(
        (auth) => {
          services.viewerCache.set(token, auth.record, auth.token);
          return true;
        },
        (error: unknown) => {
          if (error instanceof ClientResponseError && error.status >= 400 && error.status < 500) return false;
          throw error;
        },
      )
      .finally(() => checking.delete(token));
    checking.set(token, check);
  }
  return check;
}

/** The caller's credential: `Authorization: Bearer` (an API token or a session token), else the session cookie. */
export async function callerCredential(
  req: IncomingMessage,
  services: GatewayServices,
): Promise<CallerCredential> {
  const bearer = bearerOf(req.headers.authorization);
  if (bearer && isApiToken(bearer)) {
    const identity = await services.apiTokens.authenticate(bearer);
    return typeof identity === "string" ? { kind: "invalid" } : { kind: "valid", pbToken: identity.pbToken };
  }
  const token = bearer ?? readCookie(req.headers.cookie ?? null, SESSION.cookieName);
  if (!token) return { kind: "none" };
  if (await sessionValid(token, services)) return { kind: "valid", pbToken: token };
  return bearer ? { kind: "invalid" } : { kind: "none" };
}

/** GraphQL's answer to an invalid token (yoga.ts): 401, UNAUTHENTICATED, `WWW-Authenticate: Bearer error="invalid_token"`. */
export function refuseCredential(res: ServerResponse, headers: Record<string, string>): void {
  res
    .writeHead(401, {
      ...headers,
      ...INVALID_API_TOKEN.headers,
      "content-type": "application/json; charset=utf-8",
    })
    .end(
      JSON.stringify({
        errors: [{ message: INVALID_API_TOKEN.message, extensions: { code: ErrorCode.UNAUTHENTICATED } }],
      }),
    );
}
