import { readFile, stat } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { gzipSync } from "node:zlib";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".webp": "image/webp",
  ".woff2": "font/woff2",
  ".json": "application/json",
  ".txt": "text/plain; charset=utf-8",
  ".webmanifest": "application/manifest+json",
};
const COMPRESSIBLE = new Set([".html", ".js", ".css", ".svg", ".json", ".txt", ".webmanifest"]);

export interface StaticFile {
  body: Buffer;
  gzip: Buffer | null;
  type: string;
  /** Hashed build assets never change; everything else is revalidated. */
  immutable: boolean;
}

/** Serves the built web app from memory (it is small), gzipped once. */
export class StaticFiles {
  private readonly cache = new Map<string, StaticFile | null>();

  constructor(private readonly root: string) {}

  async get(urlPath: string): Promise<StaticFile | null> {
    if (this.cache.has(urlPath)) return this.cache.get(urlPath)!;
    const file = await this.load(urlPath);
    this.cache.set(urlPath, file);
    return file;
  }

  async template(): Promise<string> {
    return readFile(join(this.root, "index.html"), "utf8");
  }

  private async load(urlPath: string): Promise<StaticFile | null> {
    let decoded: string;
    try {
      decoded = decodeURIComponent(urlPath);
    } catch {
      return null;
    }
    const path = normalize(join(this.root, decoded));
    if (!path.startsWith(this.root + sep) || path.endsWith("index.html")) return null;
    try {
      if (!(await stat(path)).isFile()) return null;
    } catch {
      return null;
    }
    const ext = extname(path);
    const body = await readFile(path);
    return {
      body,
      gzip: COMPRESSIBLE.has(ext) && body.length > 512 ? gzipSync(body) : null,
      type: TYPES[ext] ?? "application/octet-stream",
      immutable: urlPath.startsWith("/assets/"),
    };
  }
}
