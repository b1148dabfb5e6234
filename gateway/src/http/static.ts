import { createHash } from "node:crypto";
import { readdir, readFile, stat } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { extname, join, relative, sep } from "node:path";
import { gzipSync } from "node:zlib";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".xml": "application/xml; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};
const COMPRESSIBLE = new Set([
  ".html",
  ".js",
  ".mjs",
  ".css",
  ".svg",
  ".json",
  ".txt",
  ".xml",
  ".webmanifest",
]);
/** Never served as files: the raw template (the app's HTML is rendered per page), build metadata, and the precompressed siblings themselves. */
const HIDDEN = (path: string) =>
  path === "/index.html" || path.startsWith("/.vite/") || path.endsWith(".br") || path.endsWith(".gz");

export type Encoding = "br" | "gzip";

export interface StaticFile {
  body: Buffer;
  /** Precompressed variants (built by web/vite-precompress.ts; gzip made at start when missing). */
  br: Buffer | null;
  gzip: Buffer | null;
  type: string;
  /** Hashed build assets never change; everything else is revalidated. */
  immutable: boolean;
  /** Strong validator of the content, without quotes; each encoding gets its own suffix. */
  hash: string;
  lastModified: string;
}

async function filesIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesIn(path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

async function readOptional(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

/**
 * The built web app, from a fixed list: the folder is read once (it is small) and only the files
 * found then are served. A request for anything else is a lookup that misses; nothing is remembered
 * about it, so unknown paths cannot grow memory, and no path from a request ever reaches the disk.
 */
export class StaticFiles {
  private readonly files: Promise<Map<string, StaticFile>>;
  private readonly indexHtml: Promise<string>;

  private readonly root: string;

  constructor(root: string) {
    this.root = root;

    this.files = this.scan();
    this.indexHtml = readFile(join(root, "index.html"), "utf8");
    // Surface a broken build when it is used, not as an unhandled rejection at construction.
    this.files.catch(() => {});
    this.indexHtml.catch(() => {});
  }

  /** How many files are served (fixed after start). */
  async size(): Promise<number> {
    return (await this.files).size;
  }

  async get(urlPath: string): Promise<StaticFile | null> {
    const files = await this.files;
    const exact = files.get(urlPath);
    if (exact) return exact;
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    return files.get(decoded) ?? null;
  }

  async template(): Promise<string> {
    return this.indexHtml;
  }

  private async scan(): Promise<Map<string, StaticFile>> {
    const files = new Map<string, StaticFile>();
    for (const path of await filesIn(this.root)) {
      const urlPath = `/${relative(this.root, path).split(sep).join("/")}`;
      if (HIDDEN(urlPath)) continue;
      const ext = extname(path);
      const [body, info] = await Promise.all([readFile(path), stat(path)]);
      const compressible = COMPRESSIBLE.has(ext) && body.length > 512;
      const [br, gzip] = compressible
        ? await Promise.all([readOptional(`${path}.br`), readOptional(`${path}.gz`)])
        : [null, null];
      files.set(urlPath, {
        body,
        br,
        gzip: gzip ?? (compressible ? gzipSync(body) : null),
        type: TYPES[ext] ?? "application/octet-stream",
        immutable: urlPath.startsWith("/assets/"),
        hash: createHash("sha256").update(body).digest("base64url").slice(0, 27),
        lastModified: new Date(Math.floor(info.mtimeMs / 1000) * 1000).toUTCString(),
      });
    }
    return files;
  }
}

/**
 * The best encoding the client accepts among those available (RFC 9110 §12.5.3: q-values, "*",
 * q=0 refuses), brotli before gzip on a tie; null for the file as it is.
 */
export function chooseEncoding(acceptEncoding: string | undefined, available: Encoding[]): Encoding | null {
  const weights = new Map<string, number>();
  for (const part of (acceptEncoding ?? "").split(",")) {
    const [name, ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    if (!name) continue;
    let q = 1;
    for (const param of params) {
      const match = /^q=([01](?:\.\d{0,3})?)$/.exec(param);
      if (match) q = Number(match[1]);
    }
    weights.set(name, q);
  }
  let best: Encoding | null = null;
  let bestWeight = 0;
  for (const encoding of available) {
    const weight = weights.get(encoding) ?? weights.get("*") ?? 0;
    if (weight > bestWeight) {
      best = encoding;
      bestWeight = weight;
    }
  }
  return best;
}

const etagOf = (file: StaticFile, encoding: Encoding | null) =>
  `"${file.hash}${encoding ? `-${encoding}` : ""}"`;

/** True when the client's copy is current (If-None-Match first; If-Modified-Since only without it). */
function notModified(req: IncomingMessage, file: StaticFile): boolean {
  const ifNoneMatch = req.headers["if-none-match"];
  if (ifNoneMatch !== undefined) {
    if (ifNoneMatch.trim() === "*") return true;
    // Weak comparison (RFC 9110 §13.1.2): any representation of this content is the same file.
    const known = new Set([null, "br", "gzip"].map((encoding) => etagOf(file, encoding as Encoding | null)));
    return ifNoneMatch.split(",").some((tag) => known.has(tag.trim().replace(/^W\//, "")));
  }
  const since = Date.parse(String(req.headers["if-modified-since"] ?? ""));
  return Number.isFinite(since) && Date.parse(file.lastModified) <= since;
}

/** Sends a static file: 304 when the client's copy is current, else the best encoding it accepts. */
export function sendStaticFile(
  req: IncomingMessage,
  res: ServerResponse,
  file: StaticFile,
  headers: Record<string, string>,
): void {
  const available = (
    [
      ["br", file.br],
      ["gzip", file.gzip],
    ] as const
  )
    .filter(([, body]) => body)
    .map(([encoding]) => encoding);
  const encoding = chooseEncoding(req.headers["accept-encoding"], available);
  const body = encoding === "br" ? file.br! : encoding === "gzip" ? file.gzip! : file.body;
  const common = {
    etag: etagOf(file, encoding),
    "last-modified": file.lastModified,
    "cache-control": file.immutable ? "public, max-age=31536000, immutable" : "public, max-age=300",
    vary: "accept-encoding",
  };
  if (notModified(req, file)) {
    res.writeHead(304, common).end();
    return;
  }
  res.writeHead(200, {
    ...headers,
    ...common,
    "content-type": file.type,
    "content-length": body.length,
    ...(encoding ? { "content-encoding": encoding } : {}),
  });
  res.end(req.method === "HEAD" ? undefined : body);
}
