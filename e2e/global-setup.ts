import { fork, type ChildProcess } from "node:child_process";
import { access, cp, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import PocketBase from "pocketbase";
import type { TestProject } from "vitest/node";
import {
  ROOT,
  resolvePocketBaseBinary,
  startPocketBase,
  upsertSuperuser,
} from "../scripts/lib/pocketbase.ts";
import { seedDemo } from "../scripts/lib/seed.ts";
import { freePort, superuserCredentials } from "../scripts/lib/stack.ts";
import { workerCount } from "../scripts/lib/test-workers.ts";
import { startEditorHarness } from "./support/editor-harness.ts";
import type { StackReady } from "./support/stack-process.ts";

declare module "vitest" {
  export interface ProvidedContext {
    /** One church per worker, indexed by VITEST_POOL_ID - 1 (read through support/app.ts: baseUrl(), catcherUrl()). */
    e2eStacks: StackReady[];
    /** The editor test page (web/editor-harness.html), built once for the editor files. */
    editorHarnessUrl: string;
  }
}

/**
 * The whole app as `npm start` runs it (built web app, PocketBase, mail catcher, demo church), once
 * per worker, so that e2e files run side by side and none sees another's changes (settings, posts,
 * sign-ups). The demo church is seeded once, into a template (seeding encodes MP3s and crops images:
 * the slowest part of a start); each worker's church starts from a copy of it, as `npm start` does the
 * second time, in a process of its own (support/stack-process.ts).
 */
export default async function setup(project: TestProject) {
  const webDist = join(ROOT, "web", "dist");
  await access(join(webDist, "index.html")).catch(() => {
    throw new Error("web/dist is missing: run `npm run build` first (npm test does).");
  });
  const dirs: string[] = [];
  const stacks: ChildProcess[] = [];
  let harness: Awaited<ReturnType<typeof startEditorHarness>> | null = null;
  const teardown = async () => {
    await Promise.all(stacks.map(stopStack));
    await harness?.close();
    await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
  };
  try {
    const template = await mkdtemp(join(tmpdir(), "flock-e2e-template-"));
    dirs.push(template);
    // The editor page is a Vite build of its own: it runs while the church is seeded.
    [harness] = await Promise.all([startEditorHarness(), seedTemplate(template)]);
    const ready = await Promise.all(
      Array.from({ length: workerCount(project) }, async () => {
        const dataDir = await mkdtemp(join(tmpdir(), "flock-e2e-"));
        dirs.push(dataDir);
        await cp(template, dataDir, { recursive: true });
        const child = fork(join(ROOT, "e2e", "support", "stack-process.ts"), [dataDir, webDist], {
          execArgv: ["--import", "tsx"],
          stdio: ["ignore", "inherit", "inherit", "ipc"],
        });
        stacks.push(child);
        return new Promise<StackReady>((resolve, reject) => {
          child.once("message", (message) => resolve(message as StackReady));
          child.once("exit", (code) =>
            reject(new Error(`An e2e stack stopped during start-up (exit ${code}).`)),
          );
        });
      }),
    );
    project.provide("e2eStacks", ready);
    project.provide("editorHarnessUrl", harness.url);
  } catch (error) {
    await teardown();
    throw error;
  }
  return teardown;
}

/** A data directory with the system account and the demo church, as `npm start` leaves it. */
async function seedTemplate(dataDir: string): Promise<void> {
  const bin = resolvePocketBaseBinary();
  const superuser = await superuserCredentials(dataDir);
  await upsertSuperuser(bin, dataDir, superuser.email, superuser.password);
  const pocketbase = await startPocketBase({ bin, dataDir, port: await freePort(), quiet: true });
  try {
    const system = new PocketBase(pocketbase.url);
    system.autoCancellation(false);
    await system.collection("_superusers").authWithPassword(superuser.email, superuser.password);
    await seedDemo(system);
  } finally {
    await pocketbase.stop();
  }
}

function stopStack(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
