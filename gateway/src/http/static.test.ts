import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseEncoding, StaticFiles } from "./static.ts";

describe("chooseEncoding", () => {
  it("prefers brotli, then gzip, as the browser accepts them", () => {
    expect(chooseEncoding("gzip, deflate, br, zstd", ["br", "gzip"])).toBe("br");
    expect(chooseEncoding("gzip, deflate", ["br", "gzip"])).toBe("gzip");
    expect(chooseEncoding("br", ["gzip"])).toBeNull();
    expect(chooseEncoding(undefined, ["br", "gzip"])).toBeNull();
    expect(chooseEncoding("identity", ["br", "gzip"])).toBeNull();
  });

  it("follows q-values, q=0 refuses, and * stands for the rest", () => {
    expect(chooseEncoding("br;q=0.5, gzip;q=0.8", ["br", "gzip"])).toBe("gzip");
    expect(chooseEncoding("br;q=0, gzip;q=0", ["br", "gzip"])).toBeNull();
    expect(chooseEncoding("*", ["br", "gzip"])).toBe("br");
    expect(chooseEncoding("br;q=0, *", ["br", "gzip"])).toBe("gzip");
    expect(chooseEncoding("GZIP ; Q=1", ["br", "gzip"])).toBe("gzip");
  });
});

describe("StaticFiles", () => {
  let root: string;
  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), "flock-static-"));
    await mkdir(join(root, "assets"));
    await mkdir(join(root, ".vite"));
    await writeFile(join(root, "index.html"), "<!doctype html><title>x</title>");
    await writeFile(join(root, "assets", "app-abc.js"), "x".repeat(2_000));
    await writeFile(join(root, "assets", "app-abc.js.br"), "not really brotli");
    await writeFile(join(root, ".vite", "manifest.json"), "{}");
    await writeFile(join(root, "robots.txt"), "User-agent: *\n");
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("serves the files found at start, never the template, build metadata or the compressed siblings", async () => {
    const files = new StaticFiles(root);
    expect(await files.size()).toBe(2);
    expect((await files.get("/assets/app-abc.js"))?.immutable).toBe(true);
    expect((await files.get("/robots.txt"))?.immutable).toBe(false);
    for (const path of [
      "/index.html",
      "/.vite/manifest.json",
      "/assets/app-abc.js.br",
      "/",
      "/assets/",
      "/../index.html",
    ]) {
      expect(await files.get(path), path).toBeNull();
    }
    expect(await files.template()).toContain("<title>x</title>");
  });

  it("uses the precompressed variant from the build, and gzips only when the build has none", async () => {
    const file = (await new StaticFiles(root).get("/assets/app-abc.js"))!;
    expect(file.br?.toString()).toBe("not really brotli");
    expect(file.gzip).not.toBeNull();
  });

  it("is a fixed list: a file added later is not served, and unknown paths leave nothing behind", async () => {
    const files = new StaticFiles(root);
    expect(await files.get("/late.txt")).toBeNull();
    await writeFile(join(root, "late.txt"), "added after start");
    try {
      expect(await files.get("/late.txt")).toBeNull();
      for (let i = 0; i < 10_000; i++) expect(await files.get(`/unknown-${i}.js`)).toBeNull();
      expect(await files.size()).toBe(2);
    } finally {
      await rm(join(root, "late.txt"));
    }
  });
});
