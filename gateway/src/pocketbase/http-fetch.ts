import { Agent, request } from "node:http";

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** Requests this process has sent to PocketBase (tests use it to prove a request made no call). */
export const pocketBaseStats = { requests: 0 };
const TIMEOUT_MS = 30_000;

/**
 * A minimal fetch for the PocketBase SDK's JSON calls, on node:http with kept-alive sockets.
 * Node's built-in fetch took a quarter of the gateway's CPU per request (profiled with
 * `npm run bench --cpu-prof`); the SDK only reads `status`, `url` and `json()`. Anything that is
 * not a plain string/empty body (file uploads) and any https URL goes to the built-in fetch.
 */
export async function pocketBaseFetch(url: string, init: RequestInit = {}): Promise<Response> {
  pocketBaseStats.requests++;
  const body = init.body;
  if ((body !== undefined && body !== null && typeof body !== "string") || !url.startsWith("http://")) {
    return fetch(url, init);
  }
  const headers: Record<string, string> = {};
  new Headers(init.headers).forEach((value, name) => (headers[name] = value));
  if (typeof body === "string") headers["content-length"] = String(Buffer.byteLength(body));
  return new Promise<Response>((resolve, reject) => {
    const req = request(url, { method: init.method ?? "GET", headers, agent, timeout: TIMEOUT_MS, signal: init.signal ?? undefined }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const responseHeaders = new Headers();
        for (const [name, value] of Object.entries(res.headers)) {
          if (typeof value === "string") responseHeaders.set(name, value);
          else if (Array.isArray(value)) for (const v of value) responseHeaders.append(name, v);
        }
        const status = res.statusCode ?? 500;
        // Statuses without a body cannot be given one in the Response constructor.
        const payload = status === 204 || status === 304 ? null : Buffer.concat(chunks);
        const response = new Response(payload, { status, headers: responseHeaders });
        Object.defineProperty(response, "url", { value: url });
        resolve(response);
      });
    });
    req.on("timeout", () => req.destroy(new Error(`PocketBase did not answer within ${TIMEOUT_MS / 1000}s`)));
    req.on("error", reject);
    if (typeof body === "string") req.write(body);
    req.end();
  });
}
