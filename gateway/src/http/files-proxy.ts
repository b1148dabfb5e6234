import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { pocketBaseFetch, startPocketBaseCall } from "../pocketbase/http-fetch.ts";

const FORWARDED_REQUEST = [
  "range",
  "if-none-match",
  "if-modified-since",
  "if-match",
  "if-unmodified-since",
  "if-range",
];
// PocketBase's sandboxing Content-Security-Policy is kept: an uploaded HTML/SVG file cannot run script.
// So is its nosniff: a browser must not second-guess the stored type into something executable.
const FORWARDED_RESPONSE = [
  "content-type",
  "content-length",
  "content-range",
  "accept-ranges",
  "etag",
  "last-modified",
  "content-disposition",
  "cache-control",
  "content-security-policy",
  "x-content-type-options",
];
const FILE_PATH = /^\/files\/([A-Za-z0-9_]+)\/[A-Za-z0-9_]+\/[^/?#]+$/;

/**
 * Collections whose file fields are "protected": PocketBase serves them only with a file token of a
 * caller who may view the record (people's and households' photos follow the directory's rules).
 */
const PROTECTED_COLLECTIONS = new Set(["people", "households", "sermons"]);
/** Protected collections whose files may be cached privately for longer: published sermon audio rarely changes. */
const PRIVATE_CACHE_ONLY = new Set(["people", "households"]);
/** Browsers keep a protected file for themselves only, and not for long (visibility can change). */
const PROTECTED_CACHE_CONTROL = "private, max-age=300";

/**
 * File tokens per session token. PocketBase's file tokens live a few minutes; reusing one for a minute
 * saves a token request per image on a directory page. Concurrent requests share one token request.
 */
const FILE_TOKEN_TTL_MS = 60_000;
const FILE_TOKEN_CACHE_MAX = 5_000;
const fileTokens = new Map<string, { token: Promise<string | null>; expiresAt: number }>();

async function requestFileToken(pbUrl: string, sessionTokenValue: string): Promise<string | null> {
  try {
    const response = await pocketBaseFetch(`${pbUrl}/api/files/token`, {
      method: "POST",
      headers: { authorization: sessionTokenValue },
    });
    if (!response.ok) return null;
    const body = (await response.json()) as { token?: unknown };
    return typeof body.token === "string" && body.token ? body.token : null;
  } catch {
    return null;
  }
}

/** A file token for the caller (cached briefly), or null when PocketBase refuses the session token. */
export function fileTokenFor(
  pbUrl: string,
  sessionTokenValue: string,
  now = Date.now(),
): Promise<string | null> {
  const cached = fileTokens.get(sessionTokenValue);
  if (cached && cached.expiresAt > now) return cached.token;
  if (fileTokens.size >= FILE_TOKEN_CACHE_MAX) {
    for (const [key, entry] of fileTokens) if (entry.expiresAt <= now) fileTokens.delete(key);
    // Still full: drop the oldest (Maps iterate in insertion order).
    if (fileTokens.size >= FILE_TOKEN_CACHE_MAX) fileTokens.delete(fileTokens.keys().next().value!);
  }
  const token = requestFileToken(pbUrl, sessionTokenValue);
  fileTokens.set(sessionTokenValue, { token, expiresAt: now + FILE_TOKEN_TTL_MS });
  // A refused token is not remembered: the next request asks again.
  void token.then((value) => {
    if (value === null && fileTokens.get(sessionTokenValue)?.token === token)
      fileTokens.delete(sessionTokenValue);
  });
  return token;
}

/**
 * Streams `/files/{collection}/{record}/{name}` from PocketBase's file API (Range requests included).
 * For protected collections the caller's session gets a file token, so PocketBase applies the record's
 * view rule to the file; without a session PocketBase refuses, and that answer is passed on.
 * `callerToken`: the PocketBase token the caller acts with (a session, or an API token's client), checked
 * by server.ts before (http/caller-credential.ts); null for a visitor.
 */
export async function proxyFile(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  pbUrl: string,
  callerToken: string | null,
): Promise<void> {
  const match = FILE_PATH.exec(url.pathname);
  if ((req.method !== "GET" && req.method !== "HEAD") || !match) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
    return;
  }
  const isProtected = PROTECTED_COLLECTIONS.has(match[1]!);
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST) {
    const value = req.headers[name];
    if (typeof value === "string") headers[name] = value;
  }
  const allowedQuery = new URLSearchParams();
  for (const key of ["thumb", "download", "token"]) {
    const value = url.searchParams.get(key);
    if (value) allowedQuery.set(key, value);
  }
  if (isProtected) {
    const fileToken = callerToken ? await fileTokenFor(pbUrl, callerToken) : null;
    if (fileToken) allowedQuery.set("token", fileToken);
  }
  const query = allowedQuery.toString();
  // A reader who leaves (a closed tab, a skipped podcast) stops the transfer from PocketBase too.
  const upstreamRequest = new AbortController();
  res.on("close", () => upstreamRequest.abort());
  let upstream: Response;
  const upstreamUrl = `${pbUrl}/api${url.pathname}${query ? `?${query}` : ""}`;
  // Timed to PocketBase's answer (its headers), not to the end of a long transfer.
  const call = startPocketBaseCall(req.method ?? "GET", upstreamUrl);
  if (call.requestId) headers["x-request-id"] = call.requestId;
  try {
    upstream = await fetch(upstreamUrl, { method: req.method, headers, signal: upstreamRequest.signal });
    call.done(upstream.status);
  } catch {
    call.done(null);
    if (!res.headersSent && !res.destroyed)
      res
        .writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "5" })
        .end("Service unavailable");
    return;
  }
  const out: Record<string, string> = {};
  for (const name of FORWARDED_RESPONSE) {
    const value = upstream.headers.get(name);
    if (value) out[name] = value;
  }
  if (isProtected && PRIVATE_CACHE_ONLY.has(match[1]!)) out["cache-control"] = PROTECTED_CACHE_CONTROL;
  // Sermon audio and attachments: a draft's file must not sit in a shared cache.
  else if (isProtected) out["cache-control"] = "private, max-age=3600";
  res.writeHead(upstream.status, out);
  if (!upstream.body || req.method === "HEAD") {
    res.end();
    return;
  }
  // pipeline, not pipe: when PocketBase drops the connection mid-file the reader's response is ended
  // (not left hanging), and the stream's error has a listener (an unheard 'error' exits the process).
  try {
    await pipeline(Readable.fromWeb(upstream.body as never), res);
  } catch {
    // The transfer broke (PocketBase went away, or the reader did): pipeline has closed both ends.
  }
}
