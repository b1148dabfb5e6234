// The built web app over HTTP (issue 10): validators (ETag, Last-Modified) and 304s, the encodings
// compressed at build time (brotli, gzip) chosen by Accept-Encoding, caching rules for hashed assets
// and for the HTML, and a fixed list of files (unknown paths are not remembered).
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { precompressDir } from "../../web/vite-precompress.ts";
import type { Gateway } from "../src/index.ts";
import { testGateway } from "./helpers.ts";

const TEMPLATE = `<!doctype html><html lang="en"><head><title>x</title><!--flock:head--></head><body><div id="root"></div></body></html>`;
const APP_JS = `export const flock = ${JSON.stringify("grace and peace ".repeat(200))};\n`;
const CSS = `body { color: #222; }\n`.repeat(60);

let webDist: string;
let gateway: Gateway;
let url: string;

/** A GET that returns the raw bytes (fetch would decode them) and the headers. */
function get(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    httpRequest({ host: target.hostname, port: target.port, path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    })
      .on("error", reject)
      .end();
  });
}

beforeAll(async () => {
  webDist = await mkdtemp(join(tmpdir(), "flock-static-web-"));
  await mkdir(join(webDist, "assets"));
  await writeFile(join(webDist, "index.html"), TEMPLATE);
  await writeFile(join(webDist, "assets", "index-Bx12ab.js"), APP_JS);
  await writeFile(join(webDist, "assets", "index-Cd34ef.css"), CSS);
  await writeFile(join(webDist, "favicon.svg"), `<svg xmlns="http://www.w3.org/2000/svg"/>`);
  // As `npm run build` does (web/vite-precompress.ts).
  await precompressDir(webDist);
  gateway = await testGateway({ webDist });
  url = await gateway.listen();
});
afterAll(async () => {
  await gateway?.close();
  await rm(webDist, { recursive: true, force: true });
});

describe("the built app's files", () => {
  it("are sent as the build compressed them: brotli when accepted, else gzip, else as they are", async () => {
    const br = await get("/assets/index-Bx12ab.js", { "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toBe("accept-encoding");
    expect(br.body.equals(await readFile(join(webDist, "assets", "index-Bx12ab.js.br")))).toBe(true);
    expect(brotliDecompressSync(br.body).toString()).toBe(APP_JS);
    expect(Number(br.headers["content-length"])).toBe(br.body.length);

    const gzip = await get("/assets/index-Bx12ab.js", { "accept-encoding": "gzip" });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gzip.body).toString()).toBe(APP_JS);

    for (const acceptEncoding of [undefined, "identity", "br;q=0, gzip;q=0"]) {
      const plain = await get(
        "/assets/index-Bx12ab.js",
        acceptEncoding ? { "accept-encoding": acceptEncoding } : {},
      );
      expect(plain.headers["content-encoding"], acceptEncoding).toBeUndefined();
      expect(plain.body.toString()).toBe(APP_JS);
    }
    // Too small to be worth compressing: always as it is.
    expect(
      (await get("/favicon.svg", { "accept-encoding": "br, gzip" })).headers["content-encoding"],
    ).toBeUndefined();
  });

  it("carry an ETag per encoding and a Last-Modified, and answer 304 when the browser's copy is current", async () => {
    const first = await get("/assets/index-Cd34ef.css", { "accept-encoding": "br" });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+-br"$/);
    expect(first.headers["last-modified"]).toMatch(/GMT$/);
    const identityEtag = (await get("/assets/index-Cd34ef.css")).headers.etag;
    expect(identityEtag).not.toBe(etag);

    const revalidated = await get("/assets/index-Cd34ef.css", {
      "accept-encoding": "br",
      "if-none-match": etag,
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.body.length).toBe(0);
    expect(revalidated.headers.etag).toBe(etag);
    expect(revalidated.headers["cache-control"]).toBe("public, max-age=31536000, immutable");

    // A list, a weak form, and the other encoding's tag all name this content.
    expect((await get("/assets/index-Cd34ef.css", { "if-none-match": `"other", W/${etag}` })).status).toBe(
      304,
    );
    expect((await get("/assets/index-Cd34ef.css", { "if-none-match": '"something-else"' })).status).toBe(200);
    expect(
      (
        await get("/favicon.svg", {
          "if-modified-since": (await get("/favicon.svg")).headers["last-modified"] as string,
        })
      ).status,
    ).toBe(304);
    expect((await get("/favicon.svg", { "if-modified-since": "Thu, 01 Jan 2015 00:00:00 GMT" })).status).toBe(
      200,
    );
  });

  it("hashed assets are cached for a year as immutable; other files and the HTML are revalidated", async () => {
    expect((await get("/assets/index-Bx12ab.js")).headers["cache-control"]).toBe(
      "public, max-age=31536000, immutable",
    );
    expect((await get("/favicon.svg")).headers["cache-control"]).toBe("public, max-age=300");
    for (const path of ["/", "/news"]) {
      const html = await get(path);
      expect(html.headers["content-type"]).toBe("text/html; charset=utf-8");
      expect(html.headers["cache-control"]).toBe("no-cache");
    }
    // The raw template and the compressed siblings are not files of the site.
    for (const path of ["/index.html", "/index.html.gz", "/assets/index-Bx12ab.js.br"])
      expect((await get(path)).status, path).toBe(404);
  });

  it("unknown paths are answered without being remembered", async () => {
    for (let i = 0; i < 300; i++) expect((await get(`/assets/missing-${i}.js`)).status).toBe(404);
    await writeFile(join(webDist, "assets", "late-Zz99.js"), "added after start");
    try {
      // Only what the build had at start is served (no path from a request reaches the disk).
      expect((await get("/assets/late-Zz99.js")).status).toBe(404);
    } finally {
      await rm(join(webDist, "assets", "late-Zz99.js"));
    }
  });
});
