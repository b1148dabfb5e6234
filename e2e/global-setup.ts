import { mkdtemp, rm, access } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ROOT } from "../scripts/lib/pocketbase.ts";
import { startStack } from "../scripts/lib/stack.ts";

declare module "vitest" {
  export interface ProvidedContext {
    baseUrl: string;
    catcherUrl: string;
  }
}

/** The whole app as `npm start` runs it (built web app, PocketBase, mail catcher, demo church). */
export default async function setup(project: TestProject) {
  const webDist = join(ROOT, "web", "dist");
  await access(join(webDist, "index.html")).catch(() => {
    throw new Error("web/dist is missing: run `npm run build` first (npm test does).");
  });
  const dataDir = await mkdtemp(join(tmpdir(), "flock-e2e-"));
  const stack = await startStack({ dataDir, port: 0, pbPort: 0, webDist, demo: true, quiet: true });
  project.provide("baseUrl", stack.url);
  project.provide("catcherUrl", `http://127.0.0.1:${stack.catcher!.httpPort}`);
  return async () => {
    await stack.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}
