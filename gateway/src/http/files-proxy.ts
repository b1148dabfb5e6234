import type { IncomingMessage, ServerResponse } from "node:http";
import { Readable } from "node:stream";

const FORWARDED_REQUEST = ["range", "if-none-match", "if-modified-since", "if-match", "if-unmodified-since", "if-range"];
// PocketBase's sandboxing Content-Security-Policy is kept: an uploaded HTML/SVG file cannot run script.
// So is its nosniff: a browser must not second-guess the stored type into something executable.
const FORWARDED_RESPONSE = [
  "content-type", "content-length", "content-range", "accept-ranges", "etag", "last-modified",
  "content-disposition", "cache-control", "content-security-policy", "x-content-type-options",
];
const FILE_PATH = /^\/files\/[A-Za-z0-9_]+\/[A-Za-z0-9_]+\/[^/?#]+$/;

/** Streams `/files/{collection}/{record}/{name}` from PocketBase's file API (Range requests included). */
export async function proxyFile(req: IncomingMessage, res: ServerResponse, url: URL, pbUrl: string): Promise<void> {
  if ((req.method !== "GET" && req.method !== "HEAD") || !FILE_PATH.test(url.pathname)) {
    res.writeHead(404, { "content-type": "text/plain; charset=utf-8" }).end("Not found");
    return;
  }
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
  const query = allowedQuery.toString();
  let upstream: Response;
  try {
    upstream = await fetch(`${pbUrl}/api${url.pathname}${query ? `?${query}` : ""}`, { method: req.method, headers });
  } catch {
    res.writeHead(503, { "content-type": "text/plain; charset=utf-8", "retry-after": "5" }).end("Service unavailable");
    return;
  }
  const out: Record<string, string> = {};
  for (const name of FORWARDED_RESPONSE) {
    const value = upstream.headers.get(name);
    if (value) out[name] = value;
  }
  res.writeHead(upstream.status, out);
  if (!upstream.body || req.method === "HEAD") {
    res.end();
    return;
  }
  Readable.fromWeb(upstream.body as never).pipe(res);
}
