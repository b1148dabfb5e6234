import { createHash } from "node:crypto";
import type { IncomingMessage } from "node:http";

/**
 * Validators for generated documents (feeds, sitemap): an ETag from the bytes, and a Last-Modified
 * that is the first time this process served those bytes for that path. A change anywhere (a post
 * unpublished, the church renamed) changes the ETag and so moves Last-Modified forward; after a
 * restart Last-Modified starts at the restart, which is later than any client's copy (never a
 * wrong 304).
 */
export class DocumentValidators {
  private readonly seen = new Map<string, { etag: string; since: Date }>();

  validators(path: string, body: string): { etag: string; lastModified: Date } {
    const etag = `"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
    let known = this.seen.get(path);
    if (known?.etag !== etag) {
      // HTTP dates have whole seconds: a client echoes back the truncated time.
      known = { etag, since: new Date(Math.floor(Date.now() / 1000) * 1000) };
      this.seen.set(path, known);
    }
    return { etag, lastModified: known.since };
  }
}

/** RFC 9110 §13.2.2: If-None-Match wins; If-Modified-Since only when there is no If-None-Match. */
export function notModified(req: IncomingMessage, etag: string, lastModified: Date): boolean {
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch !== undefined) {
    return ifNoneMatch.split(",").some((tag) => {
      const value = tag.trim();
      return value === "*" || value.replace(/^W\//, "") === etag;
    });
  }
  const ifModifiedSince = req.headers["if-modified-since"];
  if (ifModifiedSince === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  return Number.isFinite(since) && lastModified.getTime() <= since;
}
