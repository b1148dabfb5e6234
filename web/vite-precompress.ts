/// <reference types="node" />
// Build step: every text file of the build gets brotli (.br) and gzip (.gz) siblings, compressed
// once at build time at the highest levels, so the gateway (gateway/src/http/static.ts) only picks
// the variant the browser accepts and never compresses per request or at start-up.
import { readdir, readFile, writeFile } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import type { Plugin } from "vite";

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export const COMPRESSIBLE = new Set([
  ".html",
  ".js",
  ".mjs",
  ".css",
  ".svg",
  ".json",
  ".txt",
  ".xml",
  ".webmanifest",
  ".map",
]);
/** Below this, the headers cost more than compression saves. */
export const MIN_BYTES = 512;

async function filesIn(dir: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await filesIn(path)));
    else if (entry.isFile()) found.push(path);
  }
  return found;
}

/** Writes `<file>.br` and `<file>.gz` for each compressible file of `dir` (when smaller than the file). Returns how many files were compressed. */
export async function precompressDir(dir: string): Promise<number> {
  const files = (await filesIn(dir)).filter((path) => COMPRESSIBLE.has(extname(path)));
  let count = 0;
  await Promise.all(
    files.map(async (path) => {
      const body = await readFile(path);
      if (body.length < MIN_BYTES) return;
      const [br, gz] = await Promise.all([
        brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gzipAsync(body, { level: constants.Z_BEST_COMPRESSION }),
      ]);
      if (br.length < body.length) await writeFile(`${path}.br`, br);
      if (gz.length < body.length) await writeFile(`${path}.gz`, gz);
      count++;
    }),
  );
  return count;
}

/** The Vite plugin: precompress the output folder once the build is written. */
export function precompress(): Plugin {
  let outDir = "dist";
  return {
    name: "flock:precompress",
    apply: "build",
    configResolved(config) {
      // resolve, not join: an absolute --outDir (the editor harness builds into a temp dir) stays as given.
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      await precompressDir(outDir);
    },
  };
}
