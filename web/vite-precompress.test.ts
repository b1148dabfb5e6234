import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { precompressDir } from "./vite-precompress.ts";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("precompressDir (the build's brotli and gzip step)", () => {
  it("writes .br and .gz siblings of text files that decompress to the original", async () => {
    const dir = await mkdtemp(join(tmpdir(), "flock-precompress-"));
    dirs.push(dir);
    await mkdir(join(dir, "assets"));
    const js = "export const a = 'grace';\n".repeat(200);
    await writeFile(join(dir, "assets", "index-abc.js"), js);
    await writeFile(join(dir, "small.css"), "a{}");
    await writeFile(join(dir, "photo.png"), Buffer.alloc(4_000, 7));
    expect(await precompressDir(dir)).toBe(1);
    expect(brotliDecompressSync(await readFile(join(dir, "assets", "index-abc.js.br"))).toString()).toBe(js);
    expect(gunzipSync(await readFile(join(dir, "assets", "index-abc.js.gz"))).toString()).toBe(js);
    // Small files and images are left alone.
    expect((await readdir(dir)).sort()).toEqual(["assets", "photo.png", "small.css"]);
  });
});
