import { fork, type ChildProcess } from "node:child_process";
import { access, cp, mkdtemp, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { TestProject } from "vitest/node";
import { ROOT } from "../scripts/lib/pocketbase.ts";
import { workerCount } from "../scripts/lib/test-workers.ts";
import { stopProcess } from "../scripts/lib/processes.ts";
import { FakeStripe } from "../scripts/lib/fake-stripe.ts";
import { testBrowserPath } from "./support/browser.ts";
import { startEditorHarness, type EditorHarnessServer } from "./support/editor-harness.ts";
import { READY_FILE, FAILED_FILE, type E2eEnvironment } from "./support/environment.ts";
import type { StackReady } from "./support/stack-process.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** Where the setup reports the churches ready (support/environment.ts reads it). */
    e2eStateDir: string;
  }
}

/**
 * The whole app as `npm start` runs it (built web app, PocketBase, mail catcher, demo church), once
 * per worker, so that e2e files run side by side and none sees another's changes (settings, posts,
 * sign-ups). The demo church is seeded once, into a template (seeding encodes MP3s and crops images:
 * the slowest part of a start); each worker's church starts from a copy of it, as `npm start` does the
 * second time. The editor test page is built once for the editor files.
 *
 * All of it is prepared in the background, in child processes (support/stack-process.ts), while the
 * unit and integration tiers run: vitest runs every project's global setup before the first test, and
 * the e2e tier runs last. Each e2e file waits for it (support/environment.ts, a setup file).
 */
export default async function setup(project: TestProject) {
  const webDist = join(ROOT, "web", "dist");
  await access(join(webDist, "index.html")).catch(() => {
    throw new Error("web/dist is missing: run `npm run build` first (npm test does).");
  });
  const stateDir = await mkdtemp(join(tmpdir(), "flock-e2e-state-"));
  const resources: Resources = { dirs: [], stacks: [], harness: null, stripe: null };
  const preparation = prepare(resources, stateDir, webDist, workerCount(project)).catch((error: unknown) =>
    writeFile(
      join(stateDir, FAILED_FILE),
      error instanceof Error ? (error.stack ?? error.message) : String(error),
    ),
  );
  project.provide("e2eStateDir", stateDir);
  return async () => {
    await preparation;
    await Promise.all(resources.stacks.map((child) => stopProcess(child)));
    await resources.harness?.close();
    await resources.stripe?.stop();
    await Promise.all([stateDir, ...resources.dirs].map((dir) => rm(dir, { recursive: true, force: true })));
  };
}

interface Resources {
  dirs: string[];
  stacks: ChildProcess[];
  harness: EditorHarnessServer | null;
  /** Stripe's API at the boundary: every church's gateway talks to it (online giving, issue 29). */
  stripe: FakeStripe | null;
}

async function prepare(
  resources: Resources,
  stateDir: string,
  webDist: string,
  count: number,
): Promise<void> {
  const template = await mkdtemp(join(tmpdir(), "flock-e2e-template-"));
  resources.dirs.push(template);
  resources.stripe = await new FakeStripe().start();
  const [harness] = await Promise.all([
    startEditorHarness(),
    // Unpacked here, once: files that launch it side by side would each find a half-written binary.
    testBrowserPath(),
    run(resources, ["seed", template]).then(
      (child) =>
        new Promise<void>((resolve, reject) => exited(child, resolve, reject, "seeding the demo church")),
    ),
  ]);
  resources.harness = harness;
  const stacks = await Promise.all(
    Array.from({ length: count }, async () => {
      const dataDir = await mkdtemp(join(tmpdir(), "flock-e2e-"));
      resources.dirs.push(dataDir);
      await cp(template, dataDir, { recursive: true });
      const child = await run(resources, ["serve", dataDir, webDist], resources.stripe!.env());
      return new Promise<StackReady>((resolve, reject) => {
        child.once("message", (message) => resolve(message as StackReady));
        exited(
          child,
          () => reject(new Error("An e2e church stopped during start-up.")),
          reject,
          "starting a church",
        );
      });
    }),
  );
  const environment: E2eEnvironment = {
    stacks,
    editorHarnessUrl: harness.url,
    stripeUrl: resources.stripe.base,
  };
  // Written whole, then renamed: a reader never sees half of it.
  await writeFile(join(stateDir, `${READY_FILE}.partial`), JSON.stringify(environment));
  await rename(join(stateDir, `${READY_FILE}.partial`), join(stateDir, READY_FILE));
}

async function run(
  resources: Resources,
  args: string[],
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  const child = fork(join(ROOT, "e2e", "support", "stack-process.ts"), args, {
    execArgv: ["--import", "tsx"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
    env: { ...process.env, ...env },
  });
  if (args[0] === "serve") resources.stacks.push(child);
  return child;
}

/** Calls `done` when the child exits with 0, `failed` with an error naming `what` otherwise. */
function exited(child: ChildProcess, done: () => void, failed: (error: Error) => void, what: string): void {
  child.once("exit", (code, signal) =>
    code === 0 ? done() : failed(new Error(`${what} failed (exit ${code ?? signal}).`)),
  );
}
