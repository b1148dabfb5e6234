import { AsyncLocalStorage } from "node:async_hooks";
import { Agent, request, type IncomingHttpHeaders } from "node:http";
import { currentRequestId, metricsInScope } from "../observability/scope.ts";

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/**
 * Requests this process has sent to PocketBase (tests use it to prove a request made no call), list
 * reads that carried a `filter` (per collection), and those that came back empty: PocketBase answers
 * those, past 3 per 3 s from one IP and collection, after a random 0–500 ms sleep
 * (`randomizedThrottle` in its apis/record_crud.go). Per-viewer lookups, and the reads of every page
 * that can be empty for a whole church, must not be shaped that way (tests count them).
 */
export const pocketBaseStats = {
  requests: 0,
  emptyFilteredLists: 0,
  lastEmptyFilteredList: "",
  filteredLists: {} as Record<string, number>,
};
/**
 * Calls made on behalf of one piece of work, followed through its async context: a test counts the
 * calls one GraphQL request makes while the process's background jobs (the mail outbox, webhook
 * deliveries, credential checks) keep calling PocketBase on their own timers.
 */
export const pocketBaseCallCounter = new AsyncLocalStorage<{ calls: number }>();

/** Counts one call to PocketBase, process-wide and for the work it belongs to. */
export function countPocketBaseCall(): void {
  pocketBaseStats.requests++;
  const counter = pocketBaseCallCounter.getStore();
  if (counter) counter.calls++;
}

/** One call to PocketBase on its way (startPocketBaseCall). */
export interface PocketBaseCall {
  /** The id of the request the call is made for (sent as `X-Request-Id`), or null outside a request. */
  requestId: string | null;
  /** The call ended: its status, or null when no answer came. */
  done(status: number | null): void;
}

/**
 * Starts one call to PocketBase: timed for the metrics of the gateway that makes it
 * (observability/metrics.ts: method, path template, status class), and named with the id of the
 * request it is made for, which the caller sends as `X-Request-Id` so that PocketBase's side of a
 * request can be found from the gateway's log line.
 */
export function startPocketBaseCall(method: string, url: string): PocketBaseCall {
  const metrics = metricsInScope();
  const started = performance.now();
  let ended = false;
  return {
    requestId: currentRequestId(),
    done(status) {
      if (ended) return;
      ended = true;
      metrics?.pocketBaseCall(method, url, status, (performance.now() - started) / 1000);
    },
  };
}
const TIMEOUT_MS = 30_000;

/**
 * What the PocketBase SDK reads from a reply (`status`, `url`, `json()`), and what the files proxy
 * reads (`ok`). Not a web `Response`: building one per reply (Headers, a body stream) just to parse
 * JSON took ~9% of the gateway's CPU under load (`npm run bench -- --cpu-prof`).
 */
export interface PocketBaseReply {
  readonly status: number;
  readonly ok: boolean;
  readonly url: string;
  /** Response headers, lower-case names. */
  readonly headers: IncomingHttpHeaders;
  json(): Promise<unknown>;
  text(): Promise<string>;
}

class Reply implements PocketBaseReply {
  readonly status: number;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  private readonly body: string;

  constructor(status: number, url: string, headers: IncomingHttpHeaders, body: string) {
    this.status = status;
    this.url = url;
    this.headers = headers;
    this.body = body;
  }

  get ok() {
    return this.status >= 200 && this.status < 300;
  }

  json(): Promise<unknown> {
    try {
      return Promise.resolve(this.body ? JSON.parse(this.body) : {});
    } catch (error) {
      return Promise.reject(error as Error);
    }
  }

  text(): Promise<string> {
    return Promise.resolve(this.body);
  }
}

const LIST_PATH = /\/api\/collections\/([^/?]+)\/records\?/;

/** The `_superusers` collection's id (fixed by PocketBase), as a superuser's token names it. */
const SUPERUSERS_COLLECTION = "pbc_3142635823";

/** Whether a request carries a superuser's token: PocketBase never throttles those (the system's reads). */
function bySuperuser(authorization: string | undefined): boolean {
  const payload = authorization?.split(".")[1];
  if (!payload) return false;
  try {
    return (
      (JSON.parse(Buffer.from(payload, "base64url").toString()) as { collectionId?: string }).collectionId ===
      SUPERUSERS_COLLECTION
    );
  } catch {
    return false;
  }
}

/** Counts a list read that had a filter, and whether it came back empty (see pocketBaseStats). */
function noteFilteredList(url: string, status: number, body: string, authorization?: string): void {
  if (status !== 200 || bySuperuser(authorization)) return;
  const collection = LIST_PATH.exec(url)?.[1];
  if (!collection || !/[?&]filter=[^&]/.test(url)) return;
  pocketBaseStats.filteredLists[collection] = (pocketBaseStats.filteredLists[collection] ?? 0) + 1;
  if (!body.includes('"items":[]')) return;
  pocketBaseStats.emptyFilteredLists++;
  pocketBaseStats.lastEmptyFilteredList = url;
}

function plainHeaders(init: RequestInit): Record<string, string> {
  const source = init.headers;
  if (!source) return {};
  if (source instanceof Headers || Array.isArray(source)) {
    const headers: Record<string, string> = {};
    new Headers(source).forEach((value, name) => (headers[name] = value));
    return headers;
  }
  return { ...(source as Record<string, string>) };
}

/**
 * A minimal fetch for the PocketBase SDK's JSON calls, on node:http with kept-alive sockets.
 * Node's built-in fetch took a quarter of the gateway's CPU per request (profiled with
 * `npm run bench --cpu-prof`); the SDK only reads `status`, `url` and `json()`. Anything that is
 * not a plain string/empty body (file uploads) and any https URL goes to the built-in fetch.
 */
export async function pocketBaseFetch(url: string, init: RequestInit = {}): Promise<PocketBaseReply> {
  countPocketBaseCall();
  const call = startPocketBaseCall(init.method ?? "GET", url);
  try {
    const reply = await send(url, init, call.requestId);
    call.done(reply.status);
    return reply;
  } catch (error) {
    call.done(null);
    throw error;
  }
}

async function send(url: string, init: RequestInit, requestId: string | null): Promise<PocketBaseReply> {
  const body = init.body;
  const headers = plainHeaders(init);
  if (requestId) headers["x-request-id"] = requestId;
  if ((body !== undefined && body !== null && typeof body !== "string") || !url.startsWith("http://")) {
    const response = await fetch(url, { ...init, headers });
    const text = await response.text();
    return new Reply(response.status, url, Object.fromEntries(response.headers), text);
  }
  if (typeof body === "string") headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise<PocketBaseReply>((resolve, reject) => {
    const req = request(
      url,
      { method: init.method ?? "GET", headers, agent, timeout: TIMEOUT_MS, signal: init.signal ?? undefined },
      (res) => {
        res.setEncoding("utf8");
        let text = "";
        res.on("data", (chunk: string) => (text += chunk));
        res.on("error", reject);
        res.on("end", () => {
          const status = res.statusCode ?? 500;
          noteFilteredList(url, status, text, headers.authorization ?? headers.Authorization);
          resolve(new Reply(status, url, res.headers, text));
        });
      },
    );
    req.on("timeout", () => req.destroy(new Error(`PocketBase did not answer within ${TIMEOUT_MS / 1000}s`)));
    req.on("error", reject);
    if (typeof body === "string") req.write(body);
    req.end();
  });
}

/** The SDK's `fetch` option: it reads only what PocketBaseReply has. */
export const sdkFetch = pocketBaseFetch as unknown as (
  url: RequestInfo | URL,
  init?: RequestInit,
) => Promise<Response>;
